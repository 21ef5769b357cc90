import { Joi } from "../../../lib/joi";
import { component, dateTime, objectOf, uuidSchema } from "../../../lib/openapi/json-schema";
import { pageSchema, TRACKING_NUMBER_PATTERN } from "../../../lib/parcel-view";
import { pageKeys } from "./relay.params";

/** The operators' view of offline hand-overs (issue 43): parcels flagged for their offline tries, and "not me" disputes. */

export interface PageParams {
  page: number;
  size: number;
}
export const PageParamsSchema = Joi.object<PageParams, true>(pageKeys).unknown(true);

export interface OfflinePinFlagView {
  trackingNumber: string;
  relayCode: string;
  offlineWrongTries: number;
  flaggedAt: string;
}
export const OfflinePinFlagPageSchema = pageSchema(
  "OfflinePinFlagPage",
  component(
    "OfflinePinFlag",
    objectOf<OfflinePinFlagView>({
      trackingNumber: { type: "string", pattern: TRACKING_NUMBER_PATTERN },
      relayCode: { type: "string", description: "The relay point the parcel waits at (its devices typed the PINs)." },
      offlineWrongTries: { type: "integer", minimum: 0, description: "Wrong PINs devices reported for it since its PIN was drawn." },
      flaggedAt: dateTime("When the offline tries passed five, UTC.")
    })
  ),
  "Newest first.",
  "Parcels whose PIN was tried more than five times on devices offline: a device's lock was cleared, or several devices tried."
);

export interface HandoverDisputeView {
  id: string;
  trackingNumber: string;
  relayCode: string;
  handedOverAt: string;
  createdAt: string;
}
export const HandoverDisputePageSchema = pageSchema(
  "HandoverDisputePage",
  component(
    "HandoverDispute",
    objectOf<HandoverDisputeView>({
      id: uuidSchema(),
      trackingNumber: { type: "string", pattern: TRACKING_NUMBER_PATTERN },
      relayCode: { type: "string", description: "Where the parcel was handed over." },
      handedOverAt: dateTime("When the device says it handed it over (its occurredAt), UTC."),
      createdAt: dateTime("When the recipient said it was not them, UTC.")
    })
  ),
  "Newest first.",
  'Offline PIN hand-overs the recipient says were not theirs (the confirmation SMS\'s "not me").'
);
