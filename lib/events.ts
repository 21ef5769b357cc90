import type { KeyMode } from "./api-keys";
import type { ParcelEventType, ParcelStatus } from "./parcel-status";
import type { ParcelView } from "./parcel-view";

/**
 * One status change of a parcel, as written to the outbox in the same transaction as the change
 * and handed to `webhooks.enqueue` and `notifications.parcelEvent`. The webhook body is
 * `{id, type, createdAt, sandbox, reason, data}` of it (DESIGN §3); `data.parcel.labelUrl` is
 * filled in fresh when the webhook is sent.
 */
export interface ParcelEvent {
  id: string;
  type: ParcelEventType;
  createdAt: string;
  organizationId: string;
  mode: KeyMode;
  sandbox: boolean;
  reason: string | null;
  data: {
    previousStatus: ParcelStatus | null;
    parcel: ParcelView;
  };
}

/** The exact JSON merchants receive (DESIGN §3 "Webhook request"). */
export function webhookBodyOf(event: ParcelEvent): {
  id: string;
  type: string;
  createdAt: string;
  sandbox: boolean;
  reason: string | null;
  data: ParcelEvent["data"];
} {
  return {
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    sandbox: event.sandbox,
    reason: event.reason,
    data: event.data
  };
}
