import { openStore } from "../shared/idb";
import { call, CourierRun, PickupView, RunStop } from "./api";
import { stopKey, type DayRecord, type PickupScan } from "./progress";

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

/** The run from the server, or the phone's copy when there is no network. */
export async function loadDay(): Promise<Today> {
  const saved = await store.all<{ id: string; today?: Today; record?: Record }>();
  const copy = saved.find(s => s.id === "today")?.today ?? null;
  try {
    const [answer, cash] = await Promise.all([call<CourierRun>("GET", "/run"), call<{ aboardDzd: number }>("GET", "/cash")]);
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
  const kept = saved.find(s => s.id === "record")?.record;
  record = kept && kept.date === today.date ? kept : emptyRecord(today.date);
  record.cashAboardDzd = today.aboardDzd;
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

export function markDone(stop: RunStop): Promise<void> {
  return updateRecord(r => {
    if (!r.done.includes(stopKey(stop))) r.done.push(stopKey(stop));
  });
}

export function relayRecord(r: Record, code: string): Record["relays"][string] {
  r.relays[code] ??= { arrived: false, returns: [], countedDzd: null };
  return r.relays[code];
}

/** The cash aboard again from the server (the hub's confirmation brings it to zero). */
export async function refreshCash(): Promise<number> {
  const cash = await call<{ aboardDzd: number }>("GET", "/cash");
  if (today) {
    today.aboardDzd = cash.aboardDzd;
    await store.put({ id: "today", today });
  }
  await updateRecord(r => (r.cashAboardDzd = cash.aboardDzd));
  return cash.aboardDzd;
}
