import type { ParcelEvent } from "../../lib/events";

/** What other services call `webhooks` with, and what it answers. Types only. */

declare module "../../lib/contract" {
  interface ActionContracts {
    /** Every parcel event, from the parcels outbox relay: the answer is the acknowledgement (the delivery is stored). */
    "webhooks.enqueue": { params: { event: ParcelEvent }; answer: { id: string; status: string } };
  }
}

export {};
