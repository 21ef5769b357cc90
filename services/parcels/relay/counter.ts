import type { KeyObject } from "node:crypto";
import type { Logger } from "moleculer";
import { AgentPrincipal, pairedAtOf } from "../../../lib/agent-keys";
import { encryptField } from "../../../lib/crypto";
import type { Database, Queryable } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import { toCentimes, toDzd } from "../../../lib/money";
import { normaliseTrackingNumber } from "../../../lib/tracking-number";
import { judgeHandoverPin, PinRefusal, refusal } from "../handover";
import { applyStatusChange } from "../status-change";
import { occurredAtOf, withinStory } from "../../../lib/occurred-at";
import { lastStatusAt } from "../parcels.store";
import { checkOfflineRequest, refuseIfChanged, refuseIfRedirectedAway } from "./offline-handover";
import type { HandoverParams, RefusalParams, TrackingBody } from "./relay.params";
import * as store from "./relay.store";
import * as offline from "./offline-handovers.store";
import { OfflinePinLimits, offlinePinRefusal } from "./offline-pin-limits";
import { judgePass } from "../pickup-pass/pass-handover";
import { pinVersionOf } from "./offline-verifier";
import { MAX_PIN_FAILURES } from "../../../lib/pickup-pin";

/**
 * What happens at a relay point's counter: a parcel scanned in (arrival), handed over against the
 * recipient's PIN and the exact cash, or refused. Each is one transaction, and each status change
 * goes through the one status-change path (status-change.ts): its history line, its outbox event
 * (so its webhook, and on AT_RELAY the pick-up SMS) and whatever that path does on each status.
 */

export interface CounterDeps {
  db: Database;
  encryptionKey: string;
  logger: Logger;
  /** PICKUP_PASS_SIGNING_KEY (issue 43); null when none is configured: no pass is accepted. */
  passSigningKey: KeyObject | null;
  offlinePin: OfflinePinLimits;
}

const NOT_ON_SHELF = (trackingNumber: string) =>
  new AppError("PARCEL_NOT_FOUND", `Parcel ${trackingNumber} is not on this relay point's shelf, nor addressed to it`);
const ON_SHELF: readonly string[] = ["AT_RELAY", "RELAY_NOTIFIED"];

/**
 * The operation's time within the parcel's story (issue 43): never before its previous event nor
 * before the device was paired; 400 OCCURRED_AT_OUT_OF_RANGE with the reason otherwise. The parcel
 * is locked, so no other change comes between the check and the operation.
 */
export async function timeInStory(tx: Queryable, agent: AgentPrincipal, parcelId: string, at: Date | null): Promise<Date | null> {
  if (at === null) return null;
  return withinStory(at, { previousEventAt: await lastStatusAt(tx, parcelId), pairedAt: pairedAtOf(agent) });
}

/** A live parcel addressed to this relay point, locked; 404 for anything else (unknown, sandbox, another relay's). */
async function lockAddressedHere(tx: Queryable, agent: AgentPrincipal, trackingNumber: string): Promise<store.ShelfParcel> {
  const found = await store.lockByTracking(tx, trackingNumber);
  if (!found || found.parcel.mode !== "live" || found.parcel.destinationRelayCode !== agent.relayCode) throw NOT_ON_SHELF(trackingNumber);
  return found;
}

function onShelfOrRefuse(shelf: store.ShelfParcel, what: string): void {
  if (!ON_SHELF.includes(shelf.parcel.status)) {
    throw new AppError(
      "INVALID_TRANSITION",
      `Parcel ${shelf.parcel.trackingNumber} is ${shelf.parcel.status}: only a parcel on the shelf (AT_RELAY, RELAY_NOTIFIED) can be ${what}`
    );
  }
}

/**
 * IN_TRANSIT → AT_RELAY, under the relay point's lock so that two arrivals on a shelf with one
 * place left cannot both take it. Scanning a parcel already on this shelf is 409 INVALID_TRANSITION
 * and changes nothing (no second event, so no second SMS); a retry of a lost answer carries its
 * Idempotency-Key and gets the first answer.
 */
export async function arrive(deps: CounterDeps, agent: AgentPrincipal, request: TrackingBody): Promise<store.ShelfParcel> {
  const trackingNumber = normaliseTrackingNumber(request.trackingNumber);
  const given = occurredAtOf(request.occurredAt);
  return deps.db.transaction(async tx => {
    const relay = await store.lockCounter(tx, agent.relayCode);
    if (!relay) throw new AppError("RELAY_POINT_NOT_FOUND", `Relay point ${agent.relayCode} does not exist`);
    const found = await store.lockByTracking(tx, trackingNumber);
    if (!found || found.parcel.mode !== "live") throw new AppError("PARCEL_NOT_FOUND", `No parcel ${trackingNumber}`);
    const { parcel } = found;
    if (parcel.destinationRelayCode !== relay.code) {
      throw new AppError(
        "WRONG_RELAY",
        `Parcel ${trackingNumber} is addressed to relay point ${parcel.destinationRelayCode}, not to this one`
      );
    }
    if (ON_SHELF.includes(parcel.status)) {
      // Issue 43: said, not answered as a new arrival (the counter listed it twice); a lost answer is retried with its key.
      throw new AppError("INVALID_TRANSITION", `Parcel ${trackingNumber} is already on this shelf (${parcel.status}): nothing to receive`);
    }
    if (parcel.status !== "IN_TRANSIT") {
      throw new AppError("INVALID_TRANSITION", `Parcel ${trackingNumber} is ${parcel.status}: only an IN_TRANSIT parcel can arrive`);
    }
    const at = await timeInStory(tx, agent, parcel.id, given);
    const onShelf = await store.countOnShelf(tx, relay.code);
    if (onShelf >= relay.capacity) {
      throw new AppError("RELAY_FULL", `The shelf is full: ${onShelf} parcels for a capacity of ${relay.capacity}`);
    }
    await applyStatusChange(tx, parcel, {
      to: "AT_RELAY",
      reason: `arrived at relay point ${relay.code}`,
      actor: "operator",
      sealPin: pin => encryptField(pin, deps.encryptionKey),
      at
    });
    return store.readShelfParcel(tx, parcel.id);
  });
}

/** 422 unless the cash taken is exactly the parcel's COD (none for a parcel without COD). */
function checkCash(parcel: store.ShelfParcel["parcel"], collectedDzd: number | null): void {
  const due = parcel.codStatus === "PENDING" ? (parcel.codAmountCentimes ?? 0) : 0;
  const given = collectedDzd === null ? null : toCentimes(collectedDzd);
  if ((given ?? 0) === due && (due === 0 || given !== null)) return;
  const expected = due === 0 ? "this parcel has no cash to collect" : `collect exactly ${toDzd(due)} DZD`;
  throw new AppError("COD_AMOUNT_MISMATCH", `Cash does not match: ${expected} (got ${given === null ? "none" : toDzd(given)})`, {
    details: [{ field: "codCollectedDzd", message: due === 0 ? "must be 0 or left out" : `must be ${toDzd(due)}` }]
  });
}

/**
 * AT_RELAY/RELAY_NOTIFIED → DELIVERED: the cash first (a mismatch changes nothing, not even the
 * PIN count), then the proof: the recipient's pickup pass (pass-handover.ts), or the back-office
 * hand-over's PIN rules (handover.ts), within the operator's limits when the phone checked the PIN
 * offline; then the change. The cash enters this relay point's open till in the same transaction,
 * and an offline hand-over is recorded with its proof (the daily limit, the recipient's SMS).
 */
export async function handOver(deps: CounterDeps, agent: AgentPrincipal, request: HandoverParams): Promise<store.ShelfParcel> {
  const trackingNumber = normaliseTrackingNumber(request.trackingNumber);
  const given = occurredAtOf(request.occurredAt);
  checkOfflineRequest(request);
  if (request.offline && request.pass === null && request.offlineWrongTries > 0) await reportOfflineTries(deps, trackingNumber, request);
  const outcome = await deps.db.transaction(async (tx): Promise<{ shelf: store.ShelfParcel } | { refused: PinRefusal }> => {
    if (request.offline) await refuseIfRedirectedAway(tx, agent, await store.lockByTracking(tx, trackingNumber));
    const found = await lockAddressedHere(tx, agent, trackingNumber);
    const pinOffline = request.offline && request.pass === null;
    if (pinOffline) refuseOutsideLimits(found.parcel, deps.offlinePin);
    if (request.offline) refuseIfChanged(found, request);
    onShelfOrRefuse(found, "handed over");
    const { parcel } = found;
    const at = await timeInStory(tx, agent, parcel.id, given);
    checkCash(parcel, request.codCollectedDzd);
    if (request.pass !== null) judgePass(deps.passSigningKey, request.pass, found, agent.relayCode);
    else {
      if (pinOffline) await refuseBeyondDailyLimit(tx, deps.offlinePin, agent, at);
      const refused = await judgeHandoverPin(tx, parcel, request.pin, deps.encryptionKey);
      if (refused) return { refused };
    }
    if (request.offline) {
      await offline.recordOfflineHandover(tx, {
        parcelId: parcel.id,
        relayCode: agent.relayCode,
        agentKeyId: agent.keyId,
        proof: request.pass !== null ? "pass" : "pin",
        occurredAt: at
      });
    }
    const { row } = await applyStatusChange(tx, parcel, {
      to: "DELIVERED",
      reason: `handed over at relay point ${agent.relayCode}`,
      actor: "operator",
      at
    });
    if (parcel.codStatus === "PENDING" && row.codStatus === "COLLECTED") {
      await store.addToTill(tx, {
        parcelId: parcel.id,
        relayCode: agent.relayCode,
        amountCentimes: parcel.codAmountCentimes!,
        at,
        tender: request.tender,
        tenderReference: request.tenderReference
      });
    }
    return { shelf: await store.readShelfParcel(tx, parcel.id) };
  });
  if ("refused" in outcome) {
    deps.logger.info(`parcel ${trackingNumber}: hand-over at ${agent.relayCode} refused (${outcome.refused.reason} PIN)`);
    throw refusal(outcome.refused);
  }
  return outcome.shelf;
}

/** 409 OFFLINE_PIN_REFUSED for a parcel outside the operator's limits (offline-pin-limits.ts): the phone was given no verifier. */
function refuseOutsideLimits(parcel: store.ShelfParcel["parcel"], limits: OfflinePinLimits): void {
  const why = offlinePinRefusal(parcel, limits);
  if (why) throw new AppError("OFFLINE_PIN_REFUSED", `Parcel ${parcel.trackingNumber} cannot be handed over offline with its PIN: ${why}`);
}

/** 409 OFFLINE_PIN_REFUSED past the device's offline PIN hand-overs of the day. */
async function refuseBeyondDailyLimit(tx: Queryable, limits: OfflinePinLimits, agent: AgentPrincipal, at: Date | null): Promise<void> {
  const done = await offline.pinHandoversOnDay(tx, agent.keyId, at ?? new Date());
  if (done >= limits.perDevicePerDay) {
    throw new AppError(
      "OFFLINE_PIN_REFUSED",
      `This device has recorded its ${limits.perDevicePerDay} offline PIN hand-overs of the day (OFFLINE_PIN_HANDOVERS_PER_DEVICE_PER_DAY)`
    );
  }
}

/**
 * The wrong PINs the phone refused offline for this parcel (issue 43), counted in a transaction of
 * their own, so that whatever becomes of the hand-over they stay counted; only against the PIN they
 * were typed for (a PIN reset since then starts the count again).
 */
async function reportOfflineTries(deps: CounterDeps, trackingNumber: string, request: HandoverParams): Promise<void> {
  await deps.db.transaction(async tx => {
    const found = await store.lockByTracking(tx, trackingNumber);
    if (!found || found.parcel.pickupPinEnc === null || pinVersionOf(found.parcel.pickupPinEnc) !== request.pinVersion) return;
    if (await offline.addOfflinePinFailures(tx, found.parcel.id, request.offlineWrongTries, MAX_PIN_FAILURES)) {
      deps.logger.warn(`parcel ${trackingNumber}: more than ${MAX_PIN_FAILURES} wrong PINs tried offline, flagged for the operators`);
    }
  });
}

/** The recipient refuses the parcel at the counter: RETURN_PENDING with the reason; its COD will not be collected. */
export async function refuse(deps: CounterDeps, agent: AgentPrincipal, request: RefusalParams): Promise<store.ShelfParcel> {
  const trackingNumber = normaliseTrackingNumber(request.trackingNumber);
  const given = occurredAtOf(request.occurredAt);
  return deps.db.transaction(async tx => {
    const found = await lockAddressedHere(tx, agent, trackingNumber);
    onShelfOrRefuse(found, "refused");
    const at = await timeInStory(tx, agent, found.parcel.id, given);
    await applyStatusChange(tx, found.parcel, { to: "RETURN_PENDING", reason: request.reason, actor: "operator", at });
    return store.readShelfParcel(tx, found.parcel.id);
  });
}
