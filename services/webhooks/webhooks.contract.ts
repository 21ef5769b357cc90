import type { ParcelEvent } from "../../lib/events";
import type { NewDelivery } from "./webhooks.store";

/** What other services call `webhooks` with, and what it answers. Types only. */

declare module "../../lib/contract" {
  interface ActionContracts {
    /**
     * Every parcel event, from the parcels outbox relay: the answer is the acknowledgement (the
     * event and its deliveries are stored). `created` is false for an event already stored.
     */
    "webhooks.enqueue": { params: { event: ParcelEvent }; answer: { eventId: string; created: boolean; deliveries: NewDelivery[] } };
  }
}

export {};
