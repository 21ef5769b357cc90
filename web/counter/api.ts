import { createApiClient } from "../shared/api-client";
import { ApiError, NetworkError } from "../shared/api-errors";
import { pairing } from "./device";
import { API, pagePath, readHeaders, TIMEOUT_MS } from "./early-reads";

/**
 * The relay API, on this page's own origin. An answer with a status is an ApiError (its `code`
 * is the relay API's); no answer at all (offline, cut, timed out) is a NetworkError, the one case
 * where an operation may be queued and sent again with the same Idempotency-Key
 * (web/shared/api-errors.ts, shared with the outbox).
 */
export { API, ApiError, NetworkError };

export type { CallOptions } from "../shared/api-client";

export const { call, serverNow } = createApiClient({
  base: API,
  headers: anonymous => readHeaders(anonymous ? undefined : pairing()?.key),
  timeoutMs: TIMEOUT_MS
});

/** A parcel as the counter sees it (docs/relay-points/guide.md). */
export interface RelayParcel {
  trackingNumber: string;
  status: string;
  weightG: number;
  arrivedAt: string | null;
  pickupDeadline: string | null;
  codToCollectDzd: number | null;
  recipientHint: string;
  labelUrl?: string;
  /** The version of the parcel's current pickup pass (issue 43): a pass of another version is void. */
  passVersion?: number;
}

export interface Page<T> {
  items: T[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

export interface Me {
  relayCode: string;
  name: string;
  /** Its name in Arabic script, shown when the app is in Arabic; null when the directory has none. */
  nameAr: string | null;
  /** Absent from a copy saved by an older version of the app. */
  wilaya?: string | null;
  wilayaName?: string | null;
  wilayaNameAr?: string | null;
  capacity: number;
  onShelf: number;
  holdingDays: number;
  /** The public key that verifies pickup passes offline (base64 Ed25519); null when the server signs none. */
  pickupPassKey?: string | null;
}

export interface Till {
  openSince: string | null;
  count: number;
  amountDzd: number;
  items: { trackingNumber: string; amountDzd: number; deliveredAt: string }[];
}

/** Every page of a list (the counter's lists are a shelf's worth: a few pages at most). */
export async function allPages(path: string, early = new Map<string, Promise<Response>>()): Promise<RelayParcel[]> {
  const items: RelayParcel[] = [];
  for (let page = 0; page < 20; page++) {
    const address = pagePath(path, page);
    const answer = await call<Page<RelayParcel>>("GET", address, undefined, { early: early.get(address) });
    items.push(...answer.items);
    if (page + 1 >= answer.totalPages) break;
  }
  return items;
}

/** Tracking numbers as scanned or typed compare without case, spaces or dashes (as the API reads them). */
export function sameNumber(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/[\s-]/g, "").toUpperCase();
  return norm(a) === norm(b);
}
