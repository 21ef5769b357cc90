import { randomUUID } from "node:crypto";
import type { Logger } from "moleculer";
import { call, Caller } from "../../../lib/contract";
import { hmacSha256Hex, safeEqualHex } from "../../../lib/crypto";
import type { Database, Queryable } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import { REDIRECT_EVENT_TYPE, type StatusEventData } from "../../../lib/events";
import { generatePickupPin } from "../../../lib/pickup-pin";
import { parseTrackingInput } from "../../../lib/tracking-number";
import { redirectReason } from "../parcel-events";
import * as parcels from "../parcels.store";
import { appendEvent, eventOf } from "../status-change";
import { assertRedirectable, checkRedirectDestination, isRedirectable } from "./redirect-rules";
import * as store from "./redirect.store";

/**
 * Redirects before arrival (issue 21): the merchant's (by parcel id, with its key) and the
 * recipient's (by tracking number, with a 6-digit code sent to their phone). Each is one
 * transaction under the parcel's row lock: the limits are counted, the destination judged
 * (redirect-rules.ts), the new destination written with its line in the redirects and its
 * parcel.redirected event, so a redirect exists exactly when its event does. The price does not
 * change (the tariff is by weight); the relay points' incoming lists read the destination.
 */

export const CODE_VALID_SECONDS = 600;
export const MAX_CODE_FAILURES = 5;
export const MAX_CODES_PER_HOUR = 3;

export interface RedirectDeps {
  db: Database;
  encryptionKey: string;
  logger: Logger;
  caller: Caller;
  /** CLOSURE_NOTICE_DAYS: a relay point closing within them takes no redirected parcel either (issue 22). */
  closureNoticeDays: number;
}

const PARCEL_NOT_FOUND = () => new AppError("PARCEL_NOT_FOUND", "Parcel not found");

/** One answer for every failed code, whatever the reason: it tells a prober nothing. */
const CODE_REFUSED = () =>
  new AppError(
    "VERIFICATION_CODE_INVALID",
    `The code is not valid: it is wrong, older than ${CODE_VALID_SECONDS / 60} minutes, already used, or was tried ` +
      `${MAX_CODE_FAILURES} times. Ask for a new code.`
  );

async function redirect(
  tx: Queryable,
  parcel: parcels.ParcelRecord,
  relayCode: string,
  by: store.RedirectBy,
  closureNoticeDays: number
): Promise<parcels.ParcelRecord> {
  assertRedirectable(parcel, await store.redirectsOf(tx, parcel.id), by);
  await checkRedirectDestination(tx, parcel, relayCode, closureNoticeDays);
  const { row, occurredAt } = await store.redirectParcel(tx, parcel, { relayCode, by });
  const reason = redirectReason(parcel.destinationRelayCode, relayCode, by);
  const event = eventOf(row, { type: REDIRECT_EVENT_TYPE, sequence: await parcels.eventCount(tx, row.id), occurredAt, reason });
  event.data = {
    previousStatus: parcel.status as Exclude<parcels.StoredStatus, "PENDING">,
    parcel: (event.data as StatusEventData).parcel,
    redirect: { fromRelayCode: parcel.destinationRelayCode, toRelayCode: relayCode, by }
  };
  await appendEvent(tx, event);
  return row;
}

/** The merchant's redirect: another organisation's parcel, or one of the other mode, is not found. */
export async function redirectByMerchant(
  deps: Pick<RedirectDeps, "db" | "closureNoticeDays">,
  owner: parcels.Owner,
  id: string,
  relayCode: string
): Promise<parcels.ParcelRecord> {
  const { db } = deps;
  return db.transaction(async tx => {
    const parcel = await parcels.lockParcel(tx, id);
    if (!parcel || parcel.status === "PENDING" || parcel.organizationId !== owner.organizationId || parcel.mode !== owner.mode) {
      throw PARCEL_NOT_FOUND();
    }
    return redirect(tx, parcel, relayCode, "merchant", deps.closureNoticeDays);
  });
}

const codeHash = (key: string, codeId: string, code: string) => hmacSha256Hex(key, `redirect-code:${codeId}:${code}`);

/**
 * The recipient asked for a code. Whatever the number (unknown, malformed, a sandbox parcel, one
 * past its relay point, out of redirects or of codes for this hour) the caller answers the same,
 * before this runs: what happens here is only seen on the recipient's phone. A live parcel that
 * may still be redirected by its recipient gets a new code (the previous one ends), at most
 * MAX_CODES_PER_HOUR an hour; the code is kept as an HMAC only, and sent by SMS.
 */
export async function issueRedirectCode(deps: RedirectDeps, typed: string): Promise<"sent" | "refused"> {
  const parsed = parseTrackingInput(typed);
  if (!parsed.ok) return "refused";
  const code = generatePickupPin();
  const codeId = randomUUID();
  const issued = await deps.db.transaction(async tx => {
    const parcel = await store.lockByTrackingNumber(tx, parsed.trackingNumber);
    if (!parcel || parcel.mode !== "live" || !isRedirectable(parcel.status)) return null;
    try {
      assertRedirectable(parcel, await store.redirectsOf(tx, parcel.id), "recipient");
    } catch {
      return null;
    }
    if ((await store.codesIssuedSince(tx, parcel.id, 3600)) >= MAX_CODES_PER_HOUR) return null;
    await store.issueCode(tx, {
      id: codeId,
      parcelId: parcel.id,
      codeHash: codeHash(deps.encryptionKey, codeId, code),
      validSeconds: CODE_VALID_SECONDS
    });
    return parcel;
  });
  if (!issued) return "refused";
  await call(deps.caller, "notifications.sendRedirectCode", {
    requestId: codeId,
    organizationId: issued.organizationId,
    parcelId: issued.id,
    trackingNumber: issued.trackingNumber,
    code,
    validMinutes: CODE_VALID_SECONDS / 60
  });
  return "sent";
}

/**
 * The recipient's redirect, with the code. A wrong code counts against the code (committed even
 * though the redirect is refused); the fifth wrong try ends it. Every refusal of the code is the
 * same 403, an unknown number included. A right code is used up only by a redirect that happens:
 * a full or unknown relay point leaves it valid for another choice.
 */
export async function redirectByRecipient(
  deps: RedirectDeps,
  request: { trackingNumber: string; code: string; destinationRelayCode: string }
): Promise<parcels.ParcelRecord> {
  const parsed = parseTrackingInput(request.trackingNumber);
  if (!parsed.ok) throw CODE_REFUSED();
  const outcome = await deps.db.transaction(async (tx): Promise<parcels.ParcelRecord | null> => {
    const parcel = await store.lockByTrackingNumber(tx, parsed.trackingNumber);
    const open = parcel && (await store.lockOpenCode(tx, parcel.id, MAX_CODE_FAILURES));
    if (!parcel || !open) return null;
    if (!safeEqualHex(open.codeHash, codeHash(deps.encryptionKey, open.id, request.code))) {
      await store.recordCodeFailure(tx, open.id);
      return null;
    }
    const row = await redirect(tx, parcel, request.destinationRelayCode, "recipient", deps.closureNoticeDays);
    await store.markCodeUsed(tx, open.id);
    return row;
  });
  if (!outcome) throw CODE_REFUSED();
  return outcome;
}
