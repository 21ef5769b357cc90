import { allPages, call, Me, Page, RelayParcel, Till } from "./api";
import { readCopy, saveCopy } from "./device";
import { dayPaths, takeEarlyReads } from "./early-reads";
import { refreshVerifiers } from "./offline-pin";

/**
 * The day as last read from the relay API: who we are, every parcel of the counter's lists, the
 * till. Kept as a copy on the phone so that the shop sees its shelf with no network.
 */
export interface Day {
  me: Me;
  parcels: RelayParcel[];
  till: Till;
  /** Parcels handed over at this counter since midnight (the phone's). */
  handedToday: number;
  at: string;
  /** Read from the phone's copy, not the server (offline). */
  fromCopy: boolean;
}

let day: Day | null = null;
const dayListeners = new Set<() => void>();

export function currentDay(): Day | null {
  return day;
}

/** Called after each day read from the server (the header shows the relay point's name as it reads now). */
export function onDayLoaded(listener: () => void): void {
  dayListeners.add(listener);
}

export async function loadDay(): Promise<Day> {
  try {
    const paths = dayPaths();
    // The page's first loadDay may find its reads already asked for by prefetch.js.
    const early = takeEarlyReads();
    const [me, parcels, till, handed] = await Promise.all([
      call<Me>("GET", paths.me, undefined, { early: early.get(paths.me) }),
      allPages(paths.parcels, early),
      call<Till>("GET", paths.cash, undefined, { early: early.get(paths.cash) }),
      call<Page<RelayParcel>>("GET", paths.handedToday, undefined, { early: early.get(paths.handedToday) })
    ]);
    const handedToday = handed.totalElements;
    day = { me, parcels, till, handedToday, at: new Date().toISOString(), fromCopy: false };
    saveCopy("day", { me, parcels, till, handedToday });
    dayListeners.forEach(listener => listener());
    void refreshVerifiers();
    return day;
  } catch (err) {
    const copy = readCopy<{ me: Me; parcels: RelayParcel[]; till: Till; handedToday: number }>("day");
    if (!copy) throw err;
    day = { ...copy.value, at: copy.at, fromCopy: true };
    return day;
  }
}

export const onShelf = (p: RelayParcel) => p.status === "AT_RELAY" || p.status === "RELAY_NOTIFIED";
export const incoming = (p: RelayParcel) => p.status === "IN_TRANSIT";
export const awaitingCourier = (p: RelayParcel) => p.status === "RETURN_PENDING" || p.status === "READY_FOR_PICKUP";

/** Whole days from today to the deadline, in the phone's calendar: 0 is today, 1 tomorrow. */
export function daysLeft(deadline: string, now = new Date()): number {
  const end = new Date(deadline);
  const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  return Math.round((startOfDay(end) - startOfDay(now)) / 86_400_000);
}

/** A shelf parcel by number, as scanned or typed. */
export function shelfParcel(number: string): RelayParcel | undefined {
  const norm = (s: string) => s.replace(/[\s-]/g, "").toUpperCase();
  return day?.parcels.find(p => onShelf(p) && norm(p.trackingNumber) === norm(number));
}
