import { Joi } from "../../lib/joi";
import type { ParcelStatus } from "../../lib/parcel-status";
import { moneyDzd, NoParams, NoParamsSchema, parcelStatus, queryInteger, relayCode, uuid } from "../../lib/schemas";
import type { CreateParcelInput } from "./create-parcel";
import type { RelayPoint } from "./relay-points.store";

/** The params of every parcels action: each interface beside the Joi schema that validates it. */

export { NoParamsSchema };
export type { NoParams };

export const CreateSchema = Joi.object<CreateParcelInput, true>({
  recipientName: Joi.string().min(1).max(100).pattern(/\S/).required(),
  // SPEC §2.2's pattern, plus at least eight digits: eight spaces are no phone number.
  recipientPhone: Joi.string().pattern(/^(?=(?:[^0-9]*[0-9]){8})\+?[0-9 ]{8,20}$/).required().messages({
    "string.pattern.base": "{{#label}} must be 8 to 20 digits or spaces with at least 8 digits, and an optional leading +"
  }),
  weightG: Joi.number().integer().min(1).max(30000).required(),
  destinationRelayCode: relayCode().required(),
  lengthCm: Joi.number().integer().min(1).max(300).allow(null).default(null),
  widthCm: Joi.number().integer().min(1).max(300).allow(null).default(null),
  heightCm: Joi.number().integer().min(1).max(300).allow(null).default(null),
  declaredValueDzd: moneyDzd().allow(null).default(null),
  codAmountDzd: moneyDzd().allow(null).default(null)
});

export interface ListParams {
  status: ParcelStatus | null;
  page: number;
  size: number;
}
export const ListSchema = Joi.object<ListParams, true>({
  status: parcelStatus().allow(null).default(null),
  page: queryInteger().min(0).max(2_147_483_647).default(0),
  size: queryInteger().min(1).max(100).default(20)
}).unknown(true);

export interface IdParams {
  id: string;
}
export const IdSchema = Joi.object<IdParams, true>({ id: uuid().required() }).unknown(true);

export interface TrackingParams {
  trackingNumber: string;
}
export const TrackingSchema = Joi.object<TrackingParams, true>({
  trackingNumber: Joi.string().min(1).max(64).required()
}).unknown(true);

export interface CancelParams {
  id: string;
  reason: string | null;
}
export const CancelSchema = Joi.object<CancelParams, true>({
  id: uuid().required(),
  reason: Joi.string().max(500).allow(null, "").default(null)
});

export interface TransitionParams {
  id: string;
  toStatus: string;
  reason: string | null;
}
export const TransitionSchema = Joi.object<TransitionParams, true>({
  id: uuid().required(),
  // Checked by hand: an unknown status is INVALID_STATUS (SPEC §4.7), not a generic validation error.
  toStatus: Joi.string().max(50).required(),
  reason: Joi.string().max(500).allow(null, "").default(null)
});

export interface ParcelIdParams {
  parcelId: string;
}
export const ParcelIdSchema = Joi.object<ParcelIdParams, true>({ parcelId: uuid().required() });

/** A relay point as the back-office sends it is the stored record itself. */
export type RelayPointParams = RelayPoint;
export const RelayPointSchema = Joi.object<RelayPointParams, true>({
  code: relayCode().required(),
  name: Joi.string().min(1).max(200).required(),
  city: Joi.string().min(1).max(100).required(),
  wilaya: Joi.string().max(10).allow(null).default(null),
  address: Joi.string().max(300).allow(null).default(null),
  active: Joi.boolean().default(true)
});

export interface RelayCodeParams {
  code: string;
}
export const RelayCodeSchema = Joi.object<RelayCodeParams, true>({ code: Joi.string().max(40).required() });

export interface RelayNotifiedParams extends ParcelIdParams {
  reason: string | null;
}
export const RelayNotifiedSchema = Joi.object<RelayNotifiedParams, true>({
  parcelId: uuid().required(),
  reason: Joi.string().max(500).allow(null).default(null)
});

export interface SweepParams {
  olderThanSeconds?: number;
}
export const SweepSchema = Joi.object<SweepParams, true>({ olderThanSeconds: Joi.number().integer().min(0) });
