import { Joi } from "../../../lib/joi";
import { dateTimeText, uuid } from "../../../lib/schemas";
import type { KeyMode } from "../../../lib/api-keys";
import { NETWORK_STATUSES, NetworkStatus } from "./network-scans";

/** Scans one call may carry: a manifest's parcels, a hub's bag. */
export const MAX_SCANS_PER_CALL = 500;

const OwnerSchema = Joi.object({ organizationId: uuid().required(), mode: Joi.string().valid("live", "sandbox").required() });

export interface ApplyNetworkScansParams {
  scans: Array<{
    scanId: string;
    parcelId: string;
    toStatus: NetworkStatus;
    occurredAt?: string | null;
    reason?: string | null;
    actor: string;
  }>;
  /** When given, a parcel of another owner is answered as unknown. */
  owner?: { organizationId: string; mode: KeyMode };
}

export const ApplyNetworkScansSchema = Joi.object<ApplyNetworkScansParams, true>({
  scans: Joi.array()
    .items(
      Joi.object({
        scanId: uuid().required(),
        parcelId: uuid().required(),
        toStatus: Joi.string()
          .valid(...NETWORK_STATUSES)
          .required(),
        occurredAt: dateTimeText().allow(null),
        reason: Joi.string().max(500).allow(null, ""),
        actor: Joi.string().max(40).required()
      })
    )
    .min(1)
    .max(MAX_SCANS_PER_CALL)
    .required(),
  owner: OwnerSchema
});

export interface NetworkParcelsParams {
  parcelIds?: string[];
  trackingNumbers?: string[];
  owner?: { organizationId: string; mode: KeyMode };
}

export const NetworkParcelsSchema = Joi.object<NetworkParcelsParams, true>({
  parcelIds: Joi.array().items(uuid()).max(MAX_SCANS_PER_CALL),
  trackingNumbers: Joi.array().items(Joi.string().max(48)).max(MAX_SCANS_PER_CALL),
  owner: OwnerSchema
}).or("parcelIds", "trackingNumbers");

export interface CreatedParcelsParams {
  owner: { organizationId: string; mode: KeyMode };
  limit: number;
}

export const CreatedParcelsSchema = Joi.object<CreatedParcelsParams, true>({
  owner: OwnerSchema.required(),
  limit: Joi.number().integer().min(1).max(MAX_SCANS_PER_CALL).default(MAX_SCANS_PER_CALL)
});
