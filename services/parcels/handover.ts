import { randomUUID } from "node:crypto";
import type { Logger } from "moleculer";
import { call, Caller } from "../../lib/contract";
import { decryptField, encryptField } from "../../lib/crypto";
import type { Database, Queryable } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { assertOperatorTransition, ParcelStatus } from "../../lib/parcel-status";
import { generatePickupPin, judgePin, MAX_PIN_FAILURES, pinMatches, PinVerdict } from "../../lib/pickup-pin";
import { toParcelView } from "./parcel-view";
import * as store from "./parcels.store";
import { applyStatusChange } from "./status-change";

export interface HandoverDeps {
  db: Database;
  encryptionKey: string;
  logger: Logger;
  caller: Caller;
}

const PARCEL_NOT_FOUND = () => new AppError("PARCEL_NOT_FOUND", "Parcel not found");

/** A wrong PIN, or one that was right before a new one replaced it (which costs no try). */
export type PinRefusal = Exclude<PinVerdict, { ok: true }> | { ok: false; reason: "replaced"; replacedAt: Date };

export function refusal(verdict: PinRefusal): AppError {
  if (verdict.reason === "replaced") {
    return new AppError(
      "PIN_REPLACED",
      `This pick-up PIN was replaced by a new one, sent by SMS to the recipient on ${verdict.replacedAt.toISOString()}: ` +
        "ask for the code of the latest SMS (this try is not counted)"
    );
  }
  if (verdict.reason === "missing") {
    return new AppError("PIN_REQUIRED", "A live parcel is handed over with its pick-up PIN: give pin (the 6 digits of the pick-up SMS)", {
      details: [{ field: "pin", message: "is required to move a live parcel to DELIVERED" }]
    });
  }
  if (verdict.reason === "locked" || verdict.attemptsLeft === 0) {
    return new AppError(
      "PIN_LOCKED",
      `${MAX_PIN_FAILURES} wrong PINs: the parcel is locked until an operator resets its PIN (the reset sends a new one)`
    );
  }
  const left = verdict.attemptsLeft;
  return new AppError("PIN_INCORRECT", `The pick-up PIN is not correct; ${left} attempt${left === 1 ? "" : "s"} left`);
}

/**
 * The PIN of a live parcel's hand-over, inside the hand-over's transaction (the parcel locked): null
 * when it is right, else the refusal, a wrong PIN counted (committed with the transaction, though
 * the hand-over is refused) unless it is a PIN the parcel had before a new one replaced it. The
 * back-office move and the relay API's hand-over both ask here.
 */
export async function judgeHandoverPin(
  tx: Queryable,
  parcel: store.ParcelRecord,
  pin: string | null,
  encryptionKey: string
): Promise<PinRefusal | null> {
  if (parcel.pickupPinEnc === null) {
    throw new AppError(
      "PIN_REQUIRED",
      "No pick-up PIN was issued for this parcel: reset its PIN from the back-office to send one to the recipient"
    );
  }
  const verdict = judgePin(decryptField(parcel.pickupPinEnc, encryptionKey), pin, parcel.pickupPinFailures);
  if (verdict.ok) return null;
  if (verdict.reason !== "wrong") return verdict;
  // The code of an earlier SMS (the recipient asked for a new one): said so, and not counted.
  for (const earlier of await store.replacedPickupPins(tx, parcel.id)) {
    if (pinMatches(decryptField(earlier.pinEnc, encryptionKey), pin!))
      return { ok: false, reason: "replaced", replacedAt: earlier.replacedAt };
  }
  await store.recordPinFailure(tx, parcel.id);
  return verdict;
}

/**
 * An operator's move along the graph. Handing a live parcel over (DELIVERED) takes the pick-up PIN
 * the recipient got by SMS: a wrong one is counted (and the count committed, though the move is
 * refused), and the fifth locks the parcel. The answer never says what the PIN is.
 */
export async function operatorTransition(
  deps: HandoverDeps,
  request: { id: string; toStatus: ParcelStatus; reason: string | null; pin: string | null }
): Promise<store.ParcelRecord> {
  const outcome = await deps.db.transaction(async tx => {
    const before = await store.lockParcel(tx, request.id);
    if (!before || before.status === "PENDING") throw PARCEL_NOT_FOUND();
    assertOperatorTransition(before.status, request.toStatus);
    if (request.toStatus === "DELIVERED" && before.mode === "live") {
      const refused = await judgeHandoverPin(tx, before, request.pin, deps.encryptionKey);
      if (refused) return { after: null, refused };
    }
    const { row } = await applyStatusChange(tx, before, {
      to: request.toStatus,
      reason: request.reason,
      actor: "operator",
      sealPin: pin => encryptField(pin, deps.encryptionKey)
    });
    return { after: row, refused: null };
  });
  if (outcome.refused) {
    deps.logger.info(`parcel ${request.id}: hand-over refused (${outcome.refused.reason} PIN)`);
    throw refusal(outcome.refused);
  }
  return outcome.after!;
}

/**
 * A new PIN for a live parcel waiting at its relay point (the recipient lost the SMS, or the
 * parcel locked after wrong tries): the count of wrong tries starts again and the recipient gets
 * a pick-up SMS with the new PIN. Only the SMS carries it.
 */
export async function resetPickupPin(deps: HandoverDeps, parcelId: string): Promise<{ parcelId: string; smsQueued: boolean }> {
  const parcel = await deps.db.transaction(async tx => {
    const row = await store.lockParcel(tx, parcelId);
    if (!row || row.status === "PENDING") throw PARCEL_NOT_FOUND();
    if (row.mode !== "live") throw new AppError("CONFLICT", "Sandbox parcels have no pick-up PIN");
    if (row.status !== "AT_RELAY" && row.status !== "RELAY_NOTIFIED") {
      throw new AppError("CONFLICT", `The PIN of a parcel in status ${row.status} cannot be reset: only while it waits at its relay point`);
    }
    return store.resetPickupPin(tx, row.id, encryptField(generatePickupPin(), deps.encryptionKey));
  });
  return { parcelId, smsQueued: await sendNewPinSms(deps, parcel) };
}

/** The pick-up SMS with the parcel's (new) PIN, to the phone on file; false when it could not be queued now. */
export async function sendNewPinSms(deps: HandoverDeps, parcel: store.ParcelRecord): Promise<boolean> {
  try {
    const view = toParcelView(parcel, null);
    await call(deps.caller, "notifications.sendPickupSms", {
      requestId: randomUUID(),
      organizationId: parcel.organizationId,
      parcel: {
        id: view.id,
        trackingNumber: view.trackingNumber,
        destinationRelayCode: view.destinationRelayCode,
        codAmountDzd: view.codAmountDzd
      }
    });
    return true;
  } catch (err) {
    deps.logger.warn(`parcel ${parcel.id}: new PIN drawn, but the pick-up SMS could not be queued (${(err as Error).message})`);
    return false;
  }
}
