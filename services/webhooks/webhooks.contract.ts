import type { ParcelEvent } from "../../lib/events";
import type { NewDelivery } from "./webhooks.store";

/** What other services call `webhooks` with, and what it answers. Types only. */

declare module "../../lib/contract" {
  interface ActionContracts {
    /**
     * One parcel event (tests, the REPL; the outbox relay hands events over in batches): the answer is the acknowledgement (the
     * event and its deliveries are stored). `created` is false for an event already stored.
     */
    "webhooks.enqueue": { params: { event: ParcelEvent }; answer: { eventId: string; created: boolean; deliveries: NewDelivery[] } };
    /**
     * The outbox relay's hand-off: events oldest first, all stored (with their deliveries) in one
     * transaction before the answer. `created` counts the events new to webhooks (the others were
     * stored by an earlier hand-off), `deliveries` the deliveries made for them.
     */
    "webhooks.enqueueBatch": { params: { events: ParcelEvent[] }; answer: { received: number; created: number; deliveries: number } };
  }
}

export {};
