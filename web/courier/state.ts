import { openStore } from "../shared/idb";
import { call, CourierRun, PickupView, RunStop } from "./api";
import { RUN_PATHS, takeEarlyReads } from "./early-reads";
import { stopKey, stopKeysOf, type DayRecord, type PickupScan } from "./progress";

/**
 * The day as the phone knows it: the run read in the morning (GET /run, GET /cash), kept in
 * IndexedDB so that the whole day works with no network, and what the courier did at each stop
 * (kept beside it). The server stays the truth: each operation goes through the outbox, and a
 * reload of the run (online) replaces the copy.
 */
export interface Today {
  date: string;
  stops: RunStop[];
  pickups: PickupView[];
  /** The cash aboard as the server last said it (collections confirmed by agents, not yet by the hub). */
  aboardDzd: number;
  at: string;
  fromCopy: boolean;
}

/** What the courier did, stop by stop (the phone's own record, kept with the day). */
export interface Record extends DayRecord {
  date: string;
  /** PICKUP: the parcels the manifest announced, by pickup id; absent before its scan. */
  announced: { [pickupId: string]: string[] };
  scans: { [pickupId: string]: PickupScan[] };
  /** RELAY: the stop's arrival (pass scanned), returns taken, cash counted (DZD), by relay code. */
  relays: { [relayCode: string]: { arrived: boolean; returns: string[]; countedDzd: number | null } };
  /** HUB: the cash counted for the deposit, DZD. */
  depositedDzd: number | null;
}

const store = openStore("courier-day", "day");
let today: Today | null = null;
let record: Record | null = null;
const listeners = new Set<() => void>();

export const currentDay = () => today;
export const currentRecord = () => record;

export function onDayChange(listener: () => void): void {
  listeners.add(listener);
}

function changed(): void {
  listeners.forEach(listener => listener());
}

const emptyRecord = (date: string): Record => ({
  date,
  done: [],
  aboard: [],
  cashAboardDzd: 0,
  announced: {},
  scans: {},
  relays: {},
  depositedDzd: null
});

type Saved = { id: string; today?: Today; record?: Record };

/** The day's record: the one in memory while it is that day's (a read from the server must not undo a scan made meanwhile), else the kept one. */
function takeRecord(saved: Saved[], day: Today): void {
  if (!record || record.date !== day.date) {
    const kept = saved.find(s => s.id === "record")?.record;
    record = kept && kept.date === day.date ? kept : emptyRecord(day.date);
  }
  record.cashAboardDzd = day.aboardDzd;
}

/**
 * The page's first read: the phone's copy at once when it has one (a reload on a bad network shows
 * the run and the stop without waiting for it), then the server's in the background
 * (`onDayChange` says when it came); the server's first when there is no copy.
 */
export async function openDay(): Promise<Today> {
  const saved = await store.all<Saved>();
  const copy = saved.find(s => s.id === "today")?.today ?? null;
  if (!copy) return loadDay(saved);
  today = { ...copy, fromCopy: true };
  takeRecord(saved, today);
  void loadDay(saved).catch(() => undefined);
  return today;
}

/** The run from the server, or the phone's copy when there is no network. `kept`: what openDay just read of the phone's. */
export async function loadDay(kept?: Saved[]): Promise<Today> {
  const saved = kept ?? (await store.all<Saved>());
  const copy = saved.find(s => s.id === "today")?.today ?? null;
  try {
    // The page's first loadDay may find its reads already asked for by prefetch.js.
    const early = takeEarlyReads();
    const [answer, cash] = await Promise.all([
      call<CourierRun>("GET", RUN_PATHS.run, undefined, { early: early.get(RUN_PATHS.run) }),
      call<{ aboardDzd: number }>("GET", RUN_PATHS.cash, undefined, { early: early.get(RUN_PATHS.cash) })
    ]);
    today = {
      date: answer.run.date,
      stops: answer.run.stops,
      pickups: answer.items,
      aboardDzd: cash.aboardDzd,
      at: new Date().toISOString(),
      fromCopy: false
    };
    await store.put({ id: "today", today });
  } catch (err) {
    if (!copy) throw err;
    today = { ...copy, fromCopy: true };
  }
  takeRecord(saved, today);
  changed();
  return today;
}

/** Changes the day's record and keeps it (IndexedDB). */
export async function updateRecord(change: (r: Record) => void): Promise<void> {
  if (!record) return;
  change(record);
  await store.put({ id: "record", record });
  changed();
}

/**
 * The day's stop that is `stop`, by place and position, not by object: the screen's stop may be of
 * the copy the server's run replaced meanwhile (opened offline, or read again by the screen).
 */
export function stopNow(stop: RunStop): { stop: RunStop; key: string } | null {
  const stops = today?.stops ?? [];
  const at = stops.findIndex(s => s === stop || (s.position === stop.position && stopKey(s) === stopKey(stop)));
  return at === -1 ? null : { stop: stops[at], key: stopKeysOf(stops)[at] };
}

export function markDone(stop: RunStop): Promise<void> {
  const key = stopNow(stop)?.key;
  return updateRecord(r => {
    if (key && !r.done.includes(key)) r.done.push(key);
  });
}

export function relayRecord(r: Record, code: string): Record["relays"][string] {
  r.relays[code] ??= { arrived: false, returns: [], countedDzd: null };
  return r.relays[code];
}
