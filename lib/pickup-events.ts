/**
 * Issue 44 B: events about a merchant's pickup rather than one parcel. The logistics service
 * writes them to its outbox in the transaction that changes the pickup (decision 0054) and hands
 * them to webhooks like the parcels' outbox does. `sequence` is 0: no parcel's event number.
 */
export const PICKUP_STOP_EVENT_TYPES = ["pickup.confirmed", "pickup.completed", "pickup.cancelled"] as const;
export type PickupStopEventType = (typeof PICKUP_STOP_EVENT_TYPES)[number];

/** A parcel named by a pickup event; `trackingNumber` is null for a parcel that is not the merchant's (an unexpected one). */
export interface PickupParcelRef {
  id: string;
  trackingNumber: string | null;
}

/** `pickup.*`: the pickup after the change, its parcels and, once the stop closed, what was missing or unexpected. */
export interface PickupEventData {
  pickup: {
    id: string;
    confirmationNumber: string;
    /** CONFIRMED, COMPLETED, PARTIALLY_COMPLETED or CANCELLED: the status the event is about. */
    status: string;
    readyAt: string;
    closeAt: string;
  };
  parcels: PickupParcelRef[];
  missing: PickupParcelRef[];
  unexpected: PickupParcelRef[];
}
