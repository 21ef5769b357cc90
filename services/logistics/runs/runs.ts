import { randomUUID } from "node:crypto";
import type { Caller } from "../../../lib/contract";
import type { Database } from "../../../lib/db/database";
import { isUniqueViolation } from "../../../lib/db/unique-violation";
import { AppError } from "../../../lib/errors";
import { RELAY_CODE_PATTERN } from "../../../lib/schemas";
import { algiersClock } from "../pickups/pickup-window";
import * as pickups from "../pickups/pickups.store";
import * as network from "../network/network.store";
import type { RunStopsParams, RunView } from "./runs.params";
import { computeStops, stopViews } from "./run-stops";
import * as store from "./runs.store";

/** Today, as Algiers reads it (runs are days of Algiers). */
export const todayInAlgiers = (now = new Date()): string => algiersClock(now).day;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function hubsById(db: Database): Promise<Map<string, network.Hub>> {
  return new Map((await network.listHubs(db)).map(h => [h.id, h]));
}

/**
 * A courier's run for a day: the kept one if an operator looked at or adjusted it, else computed.
 * `keep` (the back-office) keeps a computed run so that it has an id to adjust.
 */
export async function runOf(db: Database, caller: Caller, courierId: string, date: string, keep: boolean): Promise<RunView> {
  const courier = await network.findCourier(db, courierId);
  if (!courier) throw new AppError("NOT_FOUND", "No such courier");
  let kept = await store.findRunOf(db, courierId, date);
  const hubs = await hubsById(db);
  const hub = hubs.get(kept?.hubId ?? courier.homeHubId);
  if (!hub) throw new AppError("NOT_FOUND", "This courier's hub no longer exists");
  const stops = kept?.stops ?? (await computeStops(db, caller, hub, courierId, date));
  if (!kept && keep) kept = await store.keepRun(db, { id: randomUUID(), courierId, hubId: hub.id, date, stops });
  return {
    id: kept?.id ?? null,
    date,
    courierId,
    hubId: hub.id,
    kept: kept !== null,
    stops: await stopViews(db, caller, hub, courierId, kept?.stops ?? stops, hubs)
  };
}

/** 400 naming each stop that is not a live pickup, a hub or a relay point's code. */
async function checkStops(db: Database, stops: RunStopsParams["stops"]): Promise<void> {
  const hubs = await hubsById(db);
  const problems: Array<{ field: string; message: string }> = [];
  for (const [index, stop] of stops.entries()) {
    const field = `stops.${index}.ref`;
    if (stop.kind === "HUB" && !hubs.has(stop.ref)) problems.push({ field, message: "is not a hub's id" });
    if (stop.kind === "RELAY" && !RELAY_CODE_PATTERN.test(stop.ref)) problems.push({ field, message: "is not a relay point's code" });
    if (stop.kind === "PICKUP") {
      const pickup = UUID.test(stop.ref) ? await pickups.findPickup(db, stop.ref, null) : null;
      if (!pickup || pickup.mode !== "live") problems.push({ field, message: "is not a live pickup's id" });
    }
  }
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", "Some stops are not valid: see details", { details: problems });
}

/** The operator's adjustment: the stops in their new order, and the run's courier when given. */
export async function adjustRun(db: Database, caller: Caller, params: RunStopsParams): Promise<RunView> {
  await checkStops(db, params.stops);
  const newCourier = params.courierId ? await network.findCourier(db, params.courierId) : null;
  if (params.courierId && !newCourier) throw new AppError("NOT_FOUND", "No such courier");
  let courierId = "";
  let date = "";
  try {
    await db.transaction(async tx => {
      const run = await store.lockRun(tx, params.id);
      if (!run) throw new AppError("NOT_FOUND", "No such run");
      courierId = newCourier?.id ?? run.courierId;
      date = run.date;
      if (newCourier && newCourier.id !== run.courierId) await store.assignCourier(tx, params.id, newCourier.id, newCourier.homeHubId);
      await store.writeStops(tx, params.id, params.stops);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("CONFLICT", "That courier already has a run that day: adjust that one");
    throw err;
  }
  return runOf(db, caller, courierId, date, false);
}
