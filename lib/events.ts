import type { KeyMode } from "./api-keys";
import type { ClaimView } from "./claim-view";
import type { CodEventType, CodPayout, CodStatus } from "./cod";
import type { ParcelEventType, ParcelStatus } from "./parcel-status";
import type { ParcelView } from "./parcel-view";
import type { PickupEventData, PickupStopEventType } from "./pickup-events";
import type { ReturnEventData, ReturnEventType } from "./returns";

/**
 * Events of the holding period that change no status (issue 18): the pick-up deadline is near (the
 * recipient got a reminder SMS), or the merchant extended it. Same body as the status events, with
 * `previousStatus` the parcel's unchanged status.
 */
export const PICKUP_EVENT_TYPES = ["parcel.pickup_reminder", "parcel.pickup_extended"] as const;
export type PickupEventType = (typeof PICKUP_EVENT_TYPES)[number];

/**
 * Issue 30: the recipient's number cannot take an SMS (a landline, too short), found when the
 * first SMS of the parcel was due; once per parcel. Same body as the status events, with
 * `previousStatus` the parcel's unchanged status.
 */
export const RECIPIENT_EVENT_TYPES = ["parcel.recipient_unreachable"] as const;
export type RecipientEventType = (typeof RECIPIENT_EVENT_TYPES)[number];

/**
 * Issue 44 D: the network looks for a parcel silent too long in its custody (or one whose hand-over
 * the recipient disputes), and stops when a scan finds it. The status does not change
 * (`previousStatus` is the current one); `investigation` says why, and for a closure, how it ended.
 */
export const INVESTIGATION_EVENT_TYPES = ["parcel.investigation_opened", "parcel.investigation_closed"] as const;
export type InvestigationEventType = (typeof INVESTIGATION_EVENT_TYPES)[number];

export interface InvestigationEventData extends StatusEventData {
  investigation: {
    id: string;
    reason: "NO_SCAN" | "HANDOVER_DISPUTED";
    /** The last holder, since when it has held the parcel; null when unknown (a dispute). */
    lastHolder: { holder: string; since: string; name: string | null } | null;
    openedAt: string;
    /** On closure: FOUND (a scan), LOST (past the second limit), DISMISSED (it left the network's custody otherwise). */
    outcome: "FOUND" | "LOST" | "DISMISSED" | null;
  };
}

/**
 * Issue 44 C (decision 0057): a courier took the parcel from its hub for its relay point. Once per
 * parcel and destination; the status does not change (IN_TRANSIT). Same body as the status events,
 * with `previousStatus` the parcel's unchanged status.
 */
export const NETWORK_EVENT_TYPES = ["parcel.out_for_delivery"] as const;
export type NetworkEventType = (typeof NETWORK_EVENT_TYPES)[number];

/** A claim's events (issue 22): opened by the merchant, decided by an operator; `data.claim` is the claim. */
export const CLAIM_EVENT_TYPES = ["claim.opened", "claim.approved", "claim.rejected"] as const;
export type ClaimEventType = (typeof CLAIM_EVENT_TYPES)[number];

/**
 * A change of a parcel's destination relay point before arrival (issue 21), by its merchant or its
 * recipient: the status does not change (`previousStatus` is the current one); `redirect` says
 * from where to where and who asked.
 */
export const REDIRECT_EVENT_TYPE = "parcel.redirected";
export type RedirectEventType = typeof REDIRECT_EVENT_TYPE;

export interface RedirectEventData extends StatusEventData {
  redirect: { fromRelayCode: string; toRelayCode: string; by: "merchant" | "recipient" };
}

/**
 * Issue 44 C, decision 0058: the network found the parcel where it should not be (a hub off its
 * route, a relay point it is not addressed to) and sends it on to its destination. The status
 * does not change (`previousStatus` is the current one); `missort` says where it was found and
 * where it goes now.
 */
export const MISSORT_EVENT_TYPE = "parcel.missorted";
export type MissortEventType = typeof MISSORT_EVENT_TYPE;

export interface MissortEventData extends StatusEventData {
  missort: {
    reason: "OFF_ROUTE_HUB" | "WRONG_RELAY";
    /** The wilaya (two digits) of the hub or relay point that found it; null when unknown. */
    foundInWilaya: string | null;
    /** Where it goes now: its destination relay point's wilaya and code. */
    rerouteToWilaya: string | null;
    rerouteToRelayCode: string;
  };
}

/**
 * Events about a relay point rather than one parcel (issue 22): a closure was announced while some
 * of the organisation's parcels were on their way to the point. One event per organisation and
 * mode, naming its parcels; `sequence` is 0 (it is no parcel's event).
 */
export const RELAY_EVENT_TYPES = ["relay.closure_announced"] as const;
export type RelayEventType = (typeof RELAY_EVENT_TYPES)[number];

/** `relay.closure_announced`: the point, the closure, and the organisation's parcels on their way there. */
export interface RelayClosureEventData {
  relay: { code: string; name: string };
  closure: { id: string; from: string; to: string; reason: string | null };
  parcels: { id: string; trackingNumber: string; status: ParcelStatus }[];
}

/**
 * One status change of a parcel, as written to the outbox in the same transaction as the change
 * and handed (in batches) to `webhooks.enqueueBatch` and `notifications.parcelEvents`. The webhook body is
 * `{id, type, createdAt, occurredAt, sequence, sandbox, reason, data}` of it (DESIGN §3);
 * `data.parcel.labelUrl` is filled in fresh when the webhook is sent or the event is read.
 */
export interface ParcelEvent {
  id: string;
  type:
    | ParcelEventType
    | CodEventType
    | PickupEventType
    | RecipientEventType
    | InvestigationEventType
    | NetworkEventType
    | RedirectEventType
    | ClaimEventType
    | ReturnEventType
    | RelayEventType
    | MissortEventType
    | PickupStopEventType;
  createdAt: string;
  /** When the status changed (the status history's time of the change). */
  occurredAt: string;
  /**
   * The parcel's own event counter: 1 for parcel.created, then one more per change, so that a
   * receiver can drop an event older than one it has already applied (retries and replays
   * arrive late).
   */
  sequence: number;
  organizationId: string;
  mode: KeyMode;
  sandbox: boolean;
  reason: string | null;
  data:
    | StatusEventData
    | CodEventData
    | RedirectEventData
    | ClaimEventData
    | ReturnEventData
    | RelayClosureEventData
    | MissortEventData
    | PickupEventData;
}

/** The parcel an event is about; null for a relay event. */
export function parcelOf(event: Pick<ParcelEvent, "data">): ParcelView | null {
  return "parcel" in event.data ? event.data.parcel : null;
}

/**
 * What an event is about, for ordering (outbox, deliveries) and the events feed's `parcelId`
 * column: its parcel, for a relay event its closure, for a pickup event (issue 44) its pickup.
 */
export function subjectIdOf(event: Pick<ParcelEvent, "data">): string {
  if ("parcel" in event.data) return event.data.parcel.id;
  return "closure" in event.data ? event.data.closure.id : event.data.pickup.id;
}

/** The event with its parcel's label URL replaced by a fresh one (a relay event has none). */
export function withFreshLabelUrl<T extends Pick<ParcelEvent, "data">>(event: T, labelUrls: Record<string, string | null>): T {
  const parcel = parcelOf(event);
  if (!parcel) return event;
  return { ...event, data: { ...event.data, parcel: { ...parcel, labelUrl: labelUrls[parcel.id] ?? null } } };
}

/** `parcel.<status>`: the status before the change, and the parcel after it. */
export interface StatusEventData {
  previousStatus: ParcelStatus | null;
  parcel: ParcelView;
}

/** The remittance a `cod.remitted` event is about, as the merchant reads it. */
export interface RemittanceRef {
  id: string;
  reference: string;
  paidOn: string;
  payout: CodPayout;
  parcelCount: number;
  totalDzd: number;
}

/**
 * `cod.collected`, `cod.remitted`: the COD status before, the parcel after (its codStatus), and the remittance; the cash
 * events (`cod.cash_collected_by_courier`, `cod.cash_deposited`): COLLECTED before and after, the parcel's codCashAt after.
 */
export interface CodEventData {
  previousCodStatus: CodStatus;
  parcel: ParcelView;
  remittance: RemittanceRef | null;
}

/**
 * The event types that may send the recipient an SMS (the pick-up SMS, the holding period's
 * notices, a customer's return code); `notifications` does nothing for the others, nor for a sandbox parcel (test data), so
 * the outbox relay hands it only these.
 */
export const RECIPIENT_SMS_EVENT_TYPES: readonly string[] = [
  "parcel.at_relay",
  "parcel.pickup_reminder",
  "parcel.return_pending",
  // The customer's return code (issue 21).
  "return.created"
];

export function mayMessageRecipient(event: { type: string; sandbox?: boolean }): boolean {
  return event.sandbox !== true && RECIPIENT_SMS_EVENT_TYPES.includes(event.type);
}

/** `claim.*`: the claim after the change, and its parcel as it is then. */
export interface ClaimEventData {
  claim: ClaimView;
  parcel: ParcelView;
}

/** The exact JSON merchants receive (DESIGN §3 "Webhook request"), and what the events API lists. */
export interface WebhookBody {
  id: string;
  type: string;
  createdAt: string;
  occurredAt: string;
  sequence: number;
  sandbox: boolean;
  reason: string | null;
  data: ParcelEvent["data"];
}

export function webhookBodyOf(event: ParcelEvent): WebhookBody {
  return {
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    occurredAt: event.occurredAt,
    sequence: event.sequence,
    sandbox: event.sandbox,
    reason: event.reason,
    data: event.data
  };
}

/** `ping`: the test event a merchant sends to an endpoint from the back-office; it concerns no parcel. */
export const PING_EVENT_TYPE = "ping";

export interface PingBody {
  id: string;
  type: typeof PING_EVENT_TYPE;
  createdAt: string;
  occurredAt: string;
  sandbox: boolean;
  reason: null;
  data: { endpointId: string; message: string };
}

export function pingBodyOf(input: { id: string; endpointId: string; at: Date; sandbox: boolean }): PingBody {
  const at = input.at.toISOString();
  return {
    id: input.id,
    type: PING_EVENT_TYPE,
    createdAt: at,
    occurredAt: at,
    sandbox: input.sandbox,
    reason: null,
    data: { endpointId: input.endpointId, message: "Test event sent from the relay-parcels back-office. No parcel changed." }
  };
}

/** How long events stay listable (events API) and replayable; the delivery log goes with them. */
export const EVENT_RETENTION_DAYS = 30;
