import { encryptField } from "../../lib/crypto";
import { AppError } from "../../lib/errors";
import { generatePickupPin } from "../../lib/pickup-pin";
import { HandoverDeps, sendNewPinSms } from "./handover";
import * as store from "./parcels.store";
import { findParcelIdByTracking, recordPinResend, resendsToday } from "./pin-resend.store";

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

const waitingAtRelay = (p: store.ParcelRecord) => p.mode === "live" && (p.status === "AT_RELAY" || p.status === "RELAY_NOTIFIED");

export async function resendPickupPin(
  deps: HandoverDeps,
  request: { trackingNumber: string; requestedBy: "recipient" | "agent"; relayCode?: string }
): Promise<{ outcome: ResendOutcome; retryAfterSeconds?: number }> {
  const outcome = await deps.db.transaction(async tx => {
    const id = await findParcelIdByTracking(tx, request.trackingNumber);
    // The parcel's row lock serialises two requests for one parcel, so that the count holds.
    const parcel = id ? await store.lockParcel(tx, id) : null;
    const eligible =
      parcel !== null && waitingAtRelay(parcel) && (request.relayCode === undefined || parcel.destinationRelayCode === request.relayCode);
    // The agent asks about a parcel on its own shelf: anything else is not theirs to see.
    if (request.requestedBy === "agent" && !eligible)
      throw new AppError("PARCEL_NOT_FOUND", "No parcel with this number waits on this shelf");
    const today = await resendsToday(tx, request.trackingNumber);
    if (today.n >= PIN_RESENDS_PER_DAY) return { limited: true as const, retryAfterSeconds: today.retryAfterSeconds };
    await recordPinResend(tx, { parcelId: parcel?.id ?? null, trackingNumber: request.trackingNumber, requestedBy: request.requestedBy });
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
