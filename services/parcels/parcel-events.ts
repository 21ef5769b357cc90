import { isParcelStatus, ParcelStatus } from "../../lib/parcel-status";

/**
 * A parcel's history as its merchant reads it (`GET /parcels/{id}/events`): every status it went
 * through, oldest first, with who caused the change. The history table records the internal actor
 * (services/parcels/status-change.ts); merchants see one of four sources:
 *
 * - `merchant`: a call with the merchant's key (create, cancel);
 * - `operator`: a courier or relay point, through the back-office;
 * - `sandbox`: the sandbox trigger;
 * - `system`: the platform on its own (the pick-up SMS sent, a creation finished after an interruption).
 */
export const EVENT_SOURCES = ["merchant", "operator", "sandbox", "system"] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

const SOURCE_OF_ACTOR: Readonly<Record<string, EventSource>> = Object.freeze({
  merchant: "merchant",
  operator: "operator",
  sandbox: "sandbox"
});

/** Any other actor (notifications, sweeper, one added later) is the platform itself. */
export function eventSourceOf(actor: string): EventSource {
  return Object.prototype.hasOwnProperty.call(SOURCE_OF_ACTOR, actor) ? SOURCE_OF_ACTOR[actor] : "system";
}

export interface ParcelEventView {
  status: ParcelStatus;
  /** null for the first event (the creation). */
  previousStatus: ParcelStatus | null;
  occurredAt: string;
  reason: string | null;
  source: EventSource;
}

export interface HistoryRecord {
  fromStatus: string | null;
  toStatus: string;
  reason: string | null;
  actor: string;
  createdAt: Date;
}

/** The internal PENDING state before a creation is not a status: it reads as no previous status. */
export function toParcelEventView(record: HistoryRecord): ParcelEventView | null {
  if (!isParcelStatus(record.toStatus)) return null;
  return {
    status: record.toStatus,
    previousStatus: record.fromStatus !== null && isParcelStatus(record.fromStatus) ? record.fromStatus : null,
    occurredAt: record.createdAt.toISOString(),
    reason: record.reason,
    source: eventSourceOf(record.actor)
  };
}
