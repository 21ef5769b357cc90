import type { KeyMode } from "../../lib/api-keys";
import type { MissortEventData } from "../../lib/events";
import type { HolderKind } from "../../lib/custody";
import type { Lang } from "../../lib/languages";
import type { TrackingPageParcel } from "../../lib/public-tracking";
import type { RelayPointEntry } from "../../lib/relay-points";

/** What other services call `parcels` with, and what it answers. Types only. */

/** A relay point of the directory, as stored (lib/relay-points.ts). */
export type RelayPoint = RelayPointEntry;

/** What a label prints of a parcel: nothing personal. */
export interface ParcelLabelData {
  trackingNumber: string;
  relayCode: string;
  relayName: string;
  /** The relay point's name and city in Arabic script, where the directory has them. */
  relayNameAr: string | null;
  relayCity: string | null;
  relayCityAr: string | null;
  relayAddress: string | null;
  /** Two digits; null for a point without one. */
  relayWilaya: string | null;
  weightG: number;
  codAmountDzd: number | null;
  organizationId: string;
  createdAt: string;
  sandbox: boolean;
}

/** A relay point found by the search, as the tracking pages list it. */
export interface RelayPointSearchItem {
  code: string;
  name: string;
  city: string;
  wilaya: string | null;
  address: string | null;
}

export interface SweepResult {
  finished: number;
  discarded: number;
  refunded: number;
  /** Wallet credits of remittances the wallet acknowledged only now. */
  credited: number;
  deferred: number;
  purgedEvents: number;
}

/** Issue 44: what the logistics service reads of a parcel (parcels.networkParcels): nothing personal. */
export interface NetworkParcel {
  id: string;
  organizationId: string;
  mode: KeyMode;
  trackingNumber: string;
  status: string;
  relayCode: string;
  /** The destination relay point's wilaya (two digits), what a hub sorts by; null for a point since removed. */
  relayWilaya: string | null;
  codAmountDzd: number | null;
  declaredValueDzd: number | null;
  weightG: number;
  updatedAt: string;
}

/** Issue 44: a status change a network scan asks for, and what became of it. */
export interface NetworkScanRequest {
  scanId: string;
  parcelId: string;
  toStatus: "READY_FOR_PICKUP" | "CREATED" | "PICKED_UP" | "IN_TRANSIT" | "LOST" | "RETURNED";
  occurredAt?: string | null;
  reason?: string | null;
  actor: string;
}

export interface NetworkScanResult {
  scanId: string;
  parcelId: string;
  /** unknown: no such parcel (or another owner's). */
  outcome: "applied" | "already" | "refused" | "unknown";
  status: string | null;
}

/**
 * Decision 0058: a step of a parcel between the merchant and the relay point that its status does
 * not tell (the hub's wilaya, a mis-sort, on its way to the relay point), for the tracking page; a
 * `missorted` step also sends parcel.missorted. Idempotent by `stepId`.
 */
export interface NetworkStepRequest {
  stepId: string;
  parcelId: string;
  kind: "at_hub" | "missorted" | "to_relay";
  /** Two digits: the hub's wilaya (at_hub, missorted); null for to_relay. */
  wilaya: string | null;
  occurredAt: string;
  missort?: MissortEventData["missort"];
}

declare module "../../lib/contract" {
  interface ActionContracts {
    /** Decision 0058: network steps for the tracking page (and parcel.missorted); `recorded` is false for a repeat or an unknown parcel. */
    "parcels.recordNetworkSteps": {
      params: { steps: NetworkStepRequest[] };
      answer: { results: Array<{ stepId: string; recorded: boolean }> };
    };
    /** Issue 44: status changes of network scans, idempotent by scan id, each through the state machine and the outbox. */
    "parcels.applyNetworkScans": {
      params: { scans: NetworkScanRequest[]; owner?: { organizationId: string; mode: KeyMode } };
      answer: { results: NetworkScanResult[] };
    };
    /** Issue 44: parcels by id or tracking number (of `owner` only, when given); unknown ones are left out. */
    "parcels.networkParcels": {
      params: { parcelIds?: string[]; trackingNumbers?: string[]; owner?: { organizationId: string; mode: KeyMode } };
      answer: { parcels: NetworkParcel[] };
    };
    /**
     * Issue 44 D: who holds the parcel after a scan (logistics, after each hand-off), unless a later
     * hand-off was recorded; an open NO_SCAN investigation closes (FOUND). Unknown parcels: recorded false.
     */
    "parcels.recordCustody": {
      params: { parcelId: string; holder: HolderKind; since: string; name?: string | null; wilaya?: string | null };
      answer: { recorded: boolean };
    };
    /** Issue 44: an owner's CREATED parcels, oldest first (a pickup of "every parcel not yet picked up"). */
    "parcels.createdParcels": {
      params: { owner: { organizationId: string; mode: KeyMode }; limit?: number };
      answer: { parcelIds: string[] };
    };
    /** Issue 44: a manifest's recipient hint per parcel (first name, phone's last two digits); unknown ones are left out. */
    "parcels.recipientHints": {
      params: { parcelIds: string[]; owner?: { organizationId: string; mode: KeyMode } };
      answer: { hints: Record<string, string> };
    };
    "parcels.labelData": { params: { parcelId: string }; answer: ParcelLabelData };
    /**
     * The label data of several parcels, in the order asked, and the ids that are no visible
     * parcel (of `owner` only, when given: another organisation's or mode's parcel is missing).
     */
    "parcels.labelDataOf": {
      params: { parcelIds: string[]; owner?: { organizationId: string; mode: KeyMode } };
      answer: { labels: Array<ParcelLabelData & { parcelId: string }>; missing: string[] };
    };
    /** For the pick-up SMS only: the one place recipient data is decrypted. */
    "parcels.recipientContact": {
      params: { parcelId: string };
      answer: { name: string; phone: string; pickupPin: string | null; language: Lang; passKey?: string | null };
    };
    /**
     * Issue 43: the tracking page opened from the SMS link (`key`): the parcel's current pickup pass
     * (null while it is not on the shelf), or null when the key is not the parcel's.
     */
    "parcels.pickupPass": { params: { trackingNumber: string; key: string }; answer: { pass: string | null; notMe: boolean } | null };
    /** Issue 43: the tracking page's "not me" on an offline PIN hand-over, with the SMS link's key. */
    "parcels.disputeHandover": { params: { trackingNumber: string; key: string }; answer: { recorded: boolean } };
    /** Issue 30: an SMS owed to the recipient cannot be sent to their number; once per parcel. */
    "parcels.recipientUnreachable": { params: { parcelId: string }; answer: { recorded: boolean } };
    /** Issue 30: the recipient switched the tracking page's language; later SMS follow it. */
    /** Issue 30: the language of the SMS' short link `/t/{n}`; null for no such parcel. */
    "parcels.recipientLanguageOf": { params: { trackingNumber: string }; answer: { lang: Lang } | null };
    "parcels.setRecipientLanguage": { params: { trackingNumber: string; lang: Lang }; answer: { changed: boolean } };
    "parcels.relayPoint": { params: { code: string }; answer: RelayPoint };
    /** The gateway's /track pages: the public view of a parcel by its normalised number, or null. */
    "parcels.trackingPage": { params: { trackingNumber: string }; answer: TrackingPageParcel | null };
    /** AT_RELAY → RELAY_NOTIFIED once the pick-up SMS is sent; a no-op in any other state. */
    "parcels.markRelayNotified": { params: { parcelId: string; reason?: string | null }; answer: { changed: boolean } };
    "parcels.relayOutbox": { params: Record<string, never>; answer: { relayed: number } };
    /** The tracking pages' relay search: the partner search's answer (active points only). */
    "parcels.searchRelayPoints": {
      params: { wilaya?: string; city?: string; page: number; size: number };
      answer: { items: RelayPointSearchItem[]; totalElements: number };
    };
    /** The tracking pages' "change relay point": the public API's two calls (issue 21). */
    "parcels.requestRedirectCode": { params: { trackingNumber: string }; answer: { message: string; codeValidSeconds: number } };
    "parcels.recipientRedirect": {
      params: { trackingNumber: string; code: string; destinationRelayCode: string };
      answer: { trackingNumber: string; destination: { code: string } };
    };
    /** "Send me the code again" from the tracking page (pin-resend.ts): "limited" past three a day. */
    "parcels.resendPickupPinForRecipient": { params: { trackingNumber: string }; answer: { outcome: "accepted" | "limited" } };
    "parcels.sweep": { params: { olderThanSeconds?: number }; answer: SweepResult };
  }
}
