import type { OpeningHours } from "./opening-hours";
import { isParcelStatus, ParcelStatus } from "./parcel-status";
import type { RelayPointEntry } from "./relay-points";

/**
 * What anyone holding a tracking number may see (DESIGN §8, `GET /api/public/v1/tracking/{n}`
 * and `/track`): the journey and where to collect, never the recipient's name or phone, the
 * price, the organisation or the internal id. Built field by field from a whitelist, so a
 * column added to the parcel row cannot leak here by accident.
 */
export interface PublicTrackingEvent {
  status: ParcelStatus;
  occurredAt: string;
}

export interface PublicDestination {
  code: string;
  name: string;
  city: string;
  address: string | null;
  openingHours: OpeningHours | null;
}

export interface PublicTracking {
  trackingNumber: string;
  status: ParcelStatus;
  sandbox: boolean;
  /** Oldest first. */
  events: PublicTrackingEvent[];
  destination: PublicDestination;
  /** Cash to bring at pick-up; null when the parcel has no COD. */
  codToPayDzd: number | null;
  /** To collect before this time (ISO 8601 UTC); null until the parcel reaches its relay point. */
  pickupDeadline: string | null;
  /** When the recipient was sent a return code for this delivered parcel (issue 21), while that return is open; never the code. */
  returnCodeSentAt: string | null;
}

/** The page also shows the Arabic names, the wilaya and a map link, when the directory has them. */
export interface TrackingPageDestination extends PublicDestination {
  nameAr?: string | null;
  cityAr?: string | null;
  /** Two digits; the page names it in the reader's language (lib/wilayas.ts). */
  wilaya?: string | null;
  latitude?: number | null;
  longitude?: number | null;
}

/**
 * A step between the merchant and the relay point that the statuses do not tell (decision 0058):
 * at the sorting hub of a wilaya, found at the wrong hub or relay and sent on, on its way to the
 * relay point. The wilaya only (two digits), never the hub's name or code.
 */
export interface JourneyStep {
  step: "at_hub" | "missorted" | "to_relay";
  wilaya: string | null;
  occurredAt: string;
}

export interface TrackingPageParcel extends Omit<PublicTracking, "destination"> {
  destination: TrackingPageDestination;
  /** The middle mile's steps, oldest first; the page merges them into its history. */
  journey?: JourneyStep[];
}

export interface PublicTrackingSource {
  trackingNumber: string;
  /** The stored status; the internal PENDING makes the parcel invisible. */
  status: string;
  mode: "live" | "sandbox";
  codAmountDzd: number | null;
  pickupDeadline?: Date | string | null;
  returnCodeSentAt?: Date | string | null;
  /** Status history rows, in any order. */
  history: readonly { toStatus: string; createdAt: Date | string }[];
  /** The network's steps (parcels.network_steps), read for the page only. */
  journey?: readonly { kind: JourneyStep["step"]; wilaya: string | null; occurredAt: Date | string }[];
  relay: Pick<RelayPointEntry, "code" | "name" | "city" | "address" | "openingHours"> &
    Partial<Pick<RelayPointEntry, "nameAr" | "cityAr" | "wilaya" | "latitude" | "longitude">>;
}

function isoOf(at: Date | string): string {
  return (at instanceof Date ? at : new Date(at)).toISOString();
}

function eventsOf(history: PublicTrackingSource["history"]): PublicTrackingEvent[] {
  return history
    .filter((row): row is { toStatus: ParcelStatus; createdAt: Date | string } => isParcelStatus(row.toStatus))
    .map(row => ({ status: row.toStatus, occurredAt: isoOf(row.createdAt) }))
    .map((event, index) => ({ event, index }))
    .sort((a, b) => Date.parse(a.event.occurredAt) - Date.parse(b.event.occurredAt) || a.index - b.index)
    .map(({ event }) => event);
}

/** The public answer, or null when the parcel must not be seen (not yet created). */
export function toPublicTracking(source: PublicTrackingSource): PublicTracking | null {
  if (!isParcelStatus(source.status)) return null;
  const { relay } = source;
  return {
    trackingNumber: source.trackingNumber,
    status: source.status,
    sandbox: source.mode === "sandbox",
    events: eventsOf(source.history),
    destination: { code: relay.code, name: relay.name, city: relay.city, address: relay.address, openingHours: relay.openingHours },
    codToPayDzd: source.codAmountDzd ?? null,
    pickupDeadline: source.pickupDeadline ? isoOf(source.pickupDeadline) : null,
    returnCodeSentAt: source.returnCodeSentAt ? isoOf(source.returnCodeSentAt) : null
  };
}

/** The same, with what the page adds (Arabic names, wilaya, position). */
export function toTrackingPageParcel(source: PublicTrackingSource): TrackingPageParcel | null {
  const base = toPublicTracking(source);
  if (!base) return null;
  const { relay } = source;
  return {
    ...base,
    destination: {
      ...base.destination,
      nameAr: relay.nameAr ?? null,
      cityAr: relay.cityAr ?? null,
      wilaya: relay.wilaya ?? null,
      latitude: relay.latitude ?? null,
      longitude: relay.longitude ?? null
    },
    journey: (source.journey ?? []).map(j => ({ step: j.kind, wilaya: j.wilaya, occurredAt: isoOf(j.occurredAt) }))
  };
}
