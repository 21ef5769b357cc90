import { dateTime, nullable, objectOf } from "./openapi/json-schema";

/**
 * Issue 44 C: who holds a parcel now, as the partner API shows it (parcel view `custody`, the
 * investigation webhooks). Shared by parcels (which computes it) and the documents. Never a
 * person's full name: a courier's first name at most; a hub or relay point by its code.
 */
export const HOLDER_KINDS = ["merchant", "courier", "hub", "relay", "recipient"] as const;
export type HolderKind = (typeof HOLDER_KINDS)[number];

export interface CustodySummary {
  holder: HolderKind;
  /** Since when (UTC): the scan that handed it over, or the status change that put it there. */
  since: string;
  /** A courier's first name, a hub's code, a relay point's code; null when none is known (the merchant, the recipient). */
  name: string | null;
  /** The hub's wilaya code ("16"); null for every other holder. */
  wilaya: string | null;
}

export const CustodySummarySchema = nullable(
  objectOf<CustodySummary>(
    {
      holder: {
        type: "string",
        enum: [...HOLDER_KINDS],
        description:
          "merchant: with you (before the courier's pickup scan, or back with you); courier, hub: in the network; relay: at a relay " +
          "point; recipient: handed over."
      },
      since: dateTime("Since when, UTC: the scan of the hand-off, or the status change that put it there."),
      name: {
        type: ["string", "null"],
        description: "The courier's first name, the hub's code or the relay point's code; null for you and the recipient."
      },
      wilaya: { type: ["string", "null"], description: 'For a hub, its wilaya code ("16"); null otherwise.' }
    },
    {
      description:
        "Who holds the parcel now; null once it is LOST or DAMAGED. Always in answers; absent from events recorded before the " +
        "field existed (the events API, a redelivery)."
    }
  )
);
