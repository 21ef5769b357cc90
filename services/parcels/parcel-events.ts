import { isParcelStatus, ParcelStatus } from "../../lib/parcel-status";

/**
 * A parcel's history as its merchant reads it (`GET /parcels/{id}/events`): every status it went
 * through, oldest first, with who caused the change. The history table records the internal actor
 * (services/parcels/status-change.ts); merchants see one of four sources:
 *
 * - `merchant`: a call with the merchant's key (create, cancel);
 * - `operator`: a courier or relay point, through the back-office;
 * - `sandbox`: the sandbox trigger;
 * - `system`: the platform on its own (the pick-up SMS sent, a creation finished after an interruption);
 * - `recipient`: the recipient, on the tracking page (a redirect with the SMS code).
 *
 * A redirect (issue 21) is a line too: the status unchanged, the reason naming both relay points.
 */
export const EVENT_SOURCES = ["merchant", "operator", "sandbox", "system", "recipient"] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

const SOURCE_OF_ACTOR: Readonly<Record<string, EventSource>> = Object.freeze({
  merchant: "merchant",
  operator: "operator",
  sandbox: "sandbox",
  recipient: "recipient"
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

/** The note of a redirect, in its event (parcel.redirected's reason) and its history line alike. */
export const redirectReason = (from: string, to: string, by: string) => `redirected from ${from} to ${to} by the ${by}`;

/** A redirect (services/parcels/redirect) as a line of the history: the status it left unchanged. */
export function redirectHistoryLine(r: {
  fromRelayCode: string;
  toRelayCode: string;
  status: string;
  by: string;
  createdAt: Date;
}): HistoryRecord {
  return {
    fromStatus: r.status,
    toStatus: r.status,
    reason: redirectReason(r.fromRelayCode, r.toRelayCode, r.by),
    actor: r.by,
    createdAt: r.createdAt
  };
}
