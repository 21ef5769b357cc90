import { encryptField } from "../../lib/crypto";
import type { Queryable } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { generatePickupPin } from "../../lib/pickup-pin";
import { HandoverDeps, sendNewPinSms } from "./handover";
import * as store from "./parcels.store";

/**
 * "Send me the code again" (issue 30): a new pick-up PIN for a live parcel waiting at its relay
 * point, sent by SMS to the phone on file (never shown), as the back-office reset does (the old
 * PIN stops working, a locked PIN is unlocked). Asked by the recipient from the tracking page or
 * by the counter's agent from the relay API; three a day per tracking number, both counted
 * together in parcels.pin_resends. A request for a number that does not exist, or whose parcel
 * is not waiting at a relay, is counted the same way and sends nothing: the page's answer cannot
 * tell them apart.
 */

export const PIN_RESENDS_PER_DAY = 3;

export type ResendOutcome = "accepted" | "limited";

/** The requests of the last 24 hours, and the seconds until the oldest of them leaves the count. */
async function resendsToday(tx: Queryable, trackingNumber: string): Promise<{ n: number; retryAfterSeconds: number }> {
  const rows = await tx.query<{ n: number; retry: number }>(
    `SELECT count(*)::integer AS n,
            COALESCE(ceil(extract(epoch FROM min(created_at) + interval '1 day' - now())), 0)::integer AS retry
       FROM parcels.pin_resends WHERE tracking_number = $1 AND created_at > now() - interval '1 day'`,
    [trackingNumber]
  );
  return { n: rows[0].n, retryAfterSeconds: Math.max(1, rows[0].retry) };
}

const waitingAtRelay = (p: store.ParcelRecord) => p.mode === "live" && (p.status === "AT_RELAY" || p.status === "RELAY_NOTIFIED");

export async function resendPickupPin(
  deps: HandoverDeps,
  request: { trackingNumber: string; requestedBy: "recipient" | "agent"; relayCode?: string }
): Promise<{ outcome: ResendOutcome; retryAfterSeconds?: number }> {
  const outcome = await deps.db.transaction(async tx => {
    const found = await tx.query<{ id: string }>("SELECT id FROM parcels.parcels WHERE tracking_number = $1", [request.trackingNumber]);
    // The parcel's row lock serialises two requests for one parcel, so that the count holds.
    const parcel = found[0] ? await store.lockParcel(tx, found[0].id) : null;
    const eligible =
      parcel !== null && waitingAtRelay(parcel) && (request.relayCode === undefined || parcel.destinationRelayCode === request.relayCode);
    // The agent asks about a parcel on its own shelf: anything else is not theirs to see.
    if (request.requestedBy === "agent" && !eligible)
      throw new AppError("PARCEL_NOT_FOUND", "No parcel with this number waits on this shelf");
    const today = await resendsToday(tx, request.trackingNumber);
    if (today.n >= PIN_RESENDS_PER_DAY) return { limited: true as const, retryAfterSeconds: today.retryAfterSeconds };
    await tx.query("INSERT INTO parcels.pin_resends (parcel_id, tracking_number, requested_by) VALUES ($1, $2, $3)", [
      parcel?.id ?? null,
      request.trackingNumber,
      request.requestedBy
    ]);
    if (!eligible) return { limited: false as const, parcel: null };
    return {
      limited: false as const,
      parcel: await store.resetPickupPin(tx, parcel.id, encryptField(generatePickupPin(), deps.encryptionKey))
    };
  });
  if (outcome.limited) return { outcome: "limited", retryAfterSeconds: outcome.retryAfterSeconds };
  if (outcome.parcel) await sendNewPinSms(deps, outcome.parcel);
  return { outcome: "accepted" };
}
