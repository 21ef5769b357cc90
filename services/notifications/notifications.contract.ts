import type { ParcelEvent } from "../../lib/events";

/** What other services call `notifications` with, and what it answers. Types only. */

declare module "../../lib/contract" {
  interface ActionContracts {
    /** One parcel event: the answer is the acknowledgement (the SMS, if it calls for one, is stored). */
    "notifications.parcelEvent": { params: { event: ParcelEvent }; answer: { smsQueued: boolean; messageId: string | null } };
    /**
     * The parcels outbox relay's hand-off (the events that may message a recipient, oldest first):
     * the answer is the acknowledgement of them all; `queued` counts the SMS stored, now or before.
     */
    "notifications.parcelEvents": { params: { events: ParcelEvent[] }; answer: { queued: number } };
    /** After an operator's PIN reset: one more pick-up SMS (with the new PIN); idempotent per requestId. */
    "notifications.sendPickupSms": {
      params: {
        requestId: string;
        organizationId: string;
        parcel: { id: string; trackingNumber: string; destinationRelayCode: string; codAmountDzd: number | null };
      };
      answer: { smsQueued: boolean; messageId: string | null };
    };
    /** The recipient's redirect code (issue 21): one SMS per requestId, the code sealed at rest. */
    "notifications.sendRedirectCode": {
      params: { requestId: string; organizationId: string; parcelId: string; trackingNumber: string; code: string; validMinutes: number };
      answer: { smsQueued: boolean };
    };
    /** Issue 43: the SMS that confirms an offline PIN hand-over to its recipient, with the "not me" link; once per requestId. */
    "notifications.sendHandoverConfirmation": {
      params: {
        requestId: string;
        organizationId: string;
        parcelId: string;
        trackingNumber: string;
        relayCode: string;
        handedOverAt: string;
      };
      answer: { smsQueued: boolean };
    };
  }
}

export {};
