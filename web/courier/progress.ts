import type { RunStop } from "./api";

/**
 * The courier app's arithmetic, with no DOM and no network (unit-tested in
 * test/unit/courier-app-progress.test.ts): the run's progress, a pickup's tally before leaving.
 */

/** A parcel scanned at a merchant: its answer when the server gave one, none while it waits in the outbox. */
export interface PickupScan {
  trackingNumber: string;
  parcelId?: string;
  /** COLLECTED, UNEXPECTED, ALREADY…; undefined while waiting. */
  outcome?: string;
}

export interface PickupTally {
  expected: number;
  /** Scans of listed parcels (answered COLLECTED or ALREADY) and scans still waiting. */
  scanned: number;
  /** Listed parcels no scan covers (a waiting scan is counted as covering one). */
  missing: number;
  /** Scans the server answered UNEXPECTED: not on the pickup. */
  unexpected: string[];
  /** Scans not yet answered (offline). */
  waiting: number;
}

/**
 * What the courier sees before leaving a merchant: `expectedIds` are the pickup's listed parcels
 * (after the manifest's scan, those it announced). The same label scanned twice counts once.
 */
export function pickupTally(expectedIds: readonly string[], scans: readonly PickupScan[]): PickupTally {
  const norm = (s: string) => s.replace(/[\s-]/g, "").toUpperCase();
  const seen = new Set<string>();
  const unique = scans.filter(scan => {
    const key = norm(scan.trackingNumber);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const expected = new Set(expectedIds);
  const collected = new Set(unique.filter(s => s.parcelId && expected.has(s.parcelId) && s.outcome !== "UNEXPECTED").map(s => s.parcelId));
  const unexpected = unique.filter(s => s.outcome === "UNEXPECTED").map(s => s.trackingNumber);
  const waiting = unique.filter(s => s.outcome === undefined).length;
  return {
    expected: expected.size,
    scanned: collected.size + waiting,
    missing: Math.max(0, expected.size - collected.size - waiting),
    unexpected,
    waiting
  };
}

/** What the courier has done today, as the phone recorded it (kept with the run, offline too). */
export interface DayRecord {
  /** Stops closed, by their key (stopKey). */
  done: string[];
  /** Parcels taken on board and not yet handed over (merchants' parcels, returns, loads), by tracking number. */
  aboard: string[];
  /** Cash counted at relays and not yet confirmed by the hub, DZD. */
  cashAboardDzd: number;
}

/** A stop's identity that survives a reload of the run: its kind and what it is about. */
export function stopKey(stop: Pick<RunStop, "kind" | "pickupId" | "hubId" | "relayCode">): string {
  return `${stop.kind}:${stop.pickupId ?? stop.hubId ?? stop.relayCode ?? ""}`;
}

/** The keys of a run's stops, in order; a place visited again (the hub, morning and evening) gets `#2`, `#3`… */
export function stopKeysOf(stops: readonly RunStop[]): string[] {
  const seen = new Map<string, number>();
  return stops.map(stop => {
    const key = stopKey(stop);
    const visit = (seen.get(key) ?? 0) + 1;
    seen.set(key, visit);
    return visit === 1 ? key : `${key}#${visit}`;
  });
}

export interface RunProgress {
  stopsDone: number;
  stops: number;
  parcelsAboard: number;
  cashAboardDzd: number;
  /** The first stop not done, the one to go to; null when the day is over. */
  next: number | null;
}

export function runProgress(stops: readonly RunStop[], day: DayRecord): RunProgress {
  const done = new Set(day.done);
  const keys = stopKeysOf(stops);
  const next = keys.findIndex(key => !done.has(key));
  return {
    stopsDone: keys.filter(key => done.has(key)).length,
    stops: stops.length,
    parcelsAboard: new Set(day.aboard).size,
    cashAboardDzd: day.cashAboardDzd,
    next: next === -1 ? null : next
  };
}

/** The difference the screen shows between two counts (the courier's and the agent's, or the expected). */
export function countDifference(countedDzd: number, expectedDzd: number | null | undefined): number | null {
  return expectedDzd === null || expectedDzd === undefined ? null : countedDzd - expectedDzd;
}

/** What the hub stop lists to hand in, and the parcels aboard the hub has taken meanwhile. */
export interface HubHandIn {
  list: string[];
  taken: string[];
}

/**
 * The hub stop's list: the server's (`server`, the stop's `handIn` from a read made at the stop)
 * when there is one, else the phone's copy (`arrival`: the parcels aboard when the stop was
 * opened). Parcels loaded here (`loaded`) are not to hand in; a scan still in the outbox
 * (`waiting`) is not yet known to the server, so its parcel stays listed. `taken`: aboard on
 * arrival, no longer listed by the server: the hub scanned it in.
 */
export function hubHandIn(
  arrival: readonly string[],
  server: readonly string[] | null,
  loaded: ReadonlySet<string>,
  waiting: ReadonlySet<string>
): HubHandIn {
  const copy = [...new Set(arrival)].filter(n => !loaded.has(n));
  if (server === null) return { list: copy, taken: [] };
  const listed = new Set(server);
  return {
    list: [...server.filter(n => !loaded.has(n)), ...copy.filter(n => waiting.has(n) && !listed.has(n))],
    taken: copy.filter(n => !listed.has(n) && !waiting.has(n))
  };
}
