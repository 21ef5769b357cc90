import { randomUUID } from "node:crypto";
import type { Logger } from "moleculer";
import { call, Caller } from "../../../lib/contract";
import { encryptField } from "../../../lib/crypto";
import type { Database, Queryable } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import { withinStory } from "../../../lib/occurred-at";
import { generateTrackingNumber } from "../../../lib/s10";
import { insertPendingGroup } from "../create-groups.store";
import * as parcels from "../parcels.store";
import { applyStatusChange } from "../status-change";
import { normaliseReturnCode, RETURN_CODE_PATTERN } from "./return-code";
import { appendReturnEvent } from "./return-events";
import { returnShipmentCentimes } from "./open-return";
import * as store from "./returns.store";

export interface DropOffDeps {
  db: Database;
  encryptionKey: string;
  logger: Logger;
  caller: Caller;
}

/** Where a return is dropped off, and which returns may be: the relay API takes live ones only, the sandbox its own. */
export interface DropOffPlace {
  relayCode: string;
  mode: "live" | "sandbox";
  /** The sandbox drop-off: only this organisation's returns. */
  organizationId?: string;
  /** When the counter took it, if not now (a drop-off sent later, issue 27). */
  at?: Date | null;
  /** When the counter's device was paired: a drop-off it sends cannot be older (issue 43). */
  pairedAt?: Date | null;
}

const NOT_FOUND = () => new AppError("RETURN_CODE_NOT_FOUND", "No return has this code");

/** The code's return, checked: unknown (or another mode's, or cancelled) 404, used or expired 409. */
async function lockDroppable(tx: Queryable, place: DropOffPlace, code: string): Promise<store.ReturnRecord> {
  const found = RETURN_CODE_PATTERN.test(code) ? await store.lockByCode(tx, code) : null;
  if (!found || found.mode !== place.mode || found.status === "CANCELLED") throw NOT_FOUND();
  if (place.organizationId !== undefined && found.organizationId !== place.organizationId) throw NOT_FOUND();
  if (found.status === "DROPPED_OFF") throw new AppError("RETURN_CODE_USED", "This return code was already used for a drop-off");
  if (found.status === "EXPIRED" || (await store.isPastExpiry(tx, found))) {
    throw new AppError("RETURN_CODE_EXPIRED", `This return code expired at ${found.expiresAt.toISOString()}`);
  }
  return found;
}

async function freshTrackingNumber(tx: Queryable): Promise<string> {
  // 10^8 numbers: a collision is rare, and a new draw fixes it (checked first: a failed insert would end the transaction).
  for (;;) {
    const candidate = generateTrackingNumber();
    if (!(await store.trackingNumberTaken(tx, candidate))) return candidate;
  }
}

/**
 * The customer drops a return off at a relay point: under the return's row lock (two counters
 * scanning one code: the second sees it used), a new parcel — its own S10 number, the original's
 * weight unless weighed, addressed to the return's destination, paid by the RETURN_SHIPMENT fee —
 * CREATED then READY_FOR_PICKUP in this relay point's outgoing list; the return DROPPED_OFF with
 * return.dropped_off, its fee owed. After the commit the wallet is asked for the fee (see
 * chargeReturnShipment); the same relay point scanning the code again gets the same parcel.
 */
export async function dropOff(
  deps: DropOffDeps,
  place: DropOffPlace,
  typed: string,
  weightG: number | null
): Promise<{ returned: store.ReturnRecord; parcel: parcels.ParcelRecord }> {
  const code = normaliseReturnCode(typed);
  const outcome = await deps.db.transaction(async tx => {
    const peek = RETURN_CODE_PATTERN.test(code) ? await store.lockByCode(tx, code) : null;
    if (peek && peek.status === "DROPPED_OFF" && peek.mode === place.mode && peek.droppedOffRelayCode === place.relayCode) {
      const again = await parcels.findParcel(tx, peek.returnParcelId!);
      if (again && again.status === "READY_FOR_PICKUP") return { returned: peek, parcel: again };
    }
    const found = await lockDroppable(tx, place, code);
    // The return's story starts when it was opened: a drop-off is never dated before it (issue 43).
    const at = withinStory(place.at ?? null, { previousEventAt: found.createdAt, pairedAt: place.pairedAt ?? null });
    const original = (await parcels.findParcel(tx, found.parcelId))!;
    const weight = weightG ?? original.weightG;
    const feeCentimes = returnShipmentCentimes(weight);
    const [inserted] = await insertPendingGroup(tx, [
      {
        id: randomUUID(),
        organizationId: found.organizationId,
        mode: found.mode,
        trackingNumber: await freshTrackingNumber(tx),
        destinationRelayCode: found.destinationRelayCode,
        recipientNameEnc: encryptField(`Retour ${original.trackingNumber}`, deps.encryptionKey),
        recipientPhoneEnc: encryptField("", deps.encryptionKey),
        weightG: weight,
        lengthCm: original.lengthCm,
        widthCm: original.widthCm,
        heightCm: original.heightCm,
        declaredValueCentimes: null,
        codAmountCentimes: null,
        priceCentimes: feeCentimes,
        idempotencyKey: null,
        requestFingerprint: null
      }
    ]);
    // The number was drawn free inside this transaction; a concurrent draw of the same one is retried by the caller.
    const pending = inserted.ok ? inserted.value : null;
    if (!pending) throw new AppError("CONFLICT", "The drop-off met a concurrent one; retry");
    await store.markReturnParcel(tx, pending.id, original.id, place.relayCode);
    const reason = `return of ${original.trackingNumber} dropped off at relay point ${place.relayCode}`;
    const marked = (await parcels.lockParcel(tx, pending.id))!;
    const created = await applyStatusChange(tx, marked, { to: "CREATED", reason, actor: "operator", at });
    const ready = await applyStatusChange(tx, created.row, { to: "READY_FOR_PICKUP", reason, actor: "operator", at });
    const returned = await store.markDroppedOff(tx, found.id, { returnParcelId: pending.id, relayCode: place.relayCode, feeCentimes });
    await appendReturnEvent(tx, "return.dropped_off", returned);
    return { returned, parcel: ready.row };
  });
  return { returned: await chargeReturnShipment(deps, outcome.returned), parcel: outcome.parcel };
}

/**
 * Asks the wallet for a dropped-off return's RETURN_SHIPMENT fee, charged on its return parcel
 * (idempotent there: a repeat answers the first charge), and clears the flag once acknowledged; a
 * wallet away leaves the flag, and the returns pass asks again.
 */
export async function chargeReturnShipment(
  deps: Omit<DropOffDeps, "encryptionKey">,
  returned: store.ReturnRecord
): Promise<store.ReturnRecord> {
  if (!returned.feePending || returned.returnParcelId === null) return returned;
  try {
    await call(deps.caller, "wallet.chargeReturnShipment", {
      parcelId: returned.returnParcelId,
      organizationId: returned.organizationId,
      mode: returned.mode,
      amountCentimes: returned.feeCentimes
    });
    await store.clearFeePending(deps.db, returned.id);
    return { ...returned, feePending: false };
  } catch (err) {
    deps.logger.warn(`return ${returned.id}: shipment fee left for the next pass (${(err as Error).message})`);
    return returned;
  }
}
