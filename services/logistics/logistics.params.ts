import type { Parameter } from "../../lib/openapi/types";
import { IDEMPOTENCY_KEY_PATTERN } from "../../lib/schemas";

/** The logistics service's tags in the documents (issue 44). */
export const LOGISTICS_DOCS = {
  tags: [
    {
      name: "Pickups",
      description: "Book the courier's visit to collect your parcels: a window, a confirmation number, a cancel-by time."
    },
    { name: "Network", description: "Hubs, couriers and a parcel's custody trail." },
    { name: "Courier", description: "A courier's phone: the run, the scans at merchants, closing a stop." },
    { name: "Hub", description: "A hub's sort station: scan in (and where it goes), scan out." }
  ]
};

/** The Idempotency-Key of a merchant's pickup or manifest. */
export const PICKUP_IDEMPOTENCY_KEY_HEADER: Parameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Your identifier of this request: 1 to 255 visible ASCII characters. A retry with the same key and body answers the " +
    "first result and books nothing twice; another body is 422.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source },
  example: "pickup-2026-03-12"
};
