/**
 * A page's first reads, started by the app's prefetch.js while main.js is still downloading
 * (decision 0049): on a slow network (Slow 4G: 560 ms a round trip) the API's answers then arrive
 * about when the app is ready to show them, instead of one round trip after. The app's prefetch.ts
 * starts them; its first read of the day takes them, if they are fresh. Both the counter app
 * (its day: web/counter/early-reads.ts) and the courier app (its run: web/courier/early-reads.ts)
 * make theirs here. Built into both of an app's bundles (prefetch.js is built apart, so that it
 * shares no chunk with main.js: a shared chunk is one more round trip).
 */

/** No answer within this is no network (the API client's rule for every call). */
export const TIMEOUT_MS = 15_000;
/** An early read older than this is not the current state any more: read again. */
const FRESH_MS = 20_000;
/**
 * The reads are for the page's first read only: once it has looked (taken them or found none),
 * the slot is closed, so that a prefetch.js that ran late starts nothing, and no later read ever
 * gets an answer read before what the person did since.
 */
const CLOSED = "closed";

interface EarlyReads {
  at: number;
  reads: Map<string, Promise<Response>>;
}

/** The headers of every read of an app's API: JSON, and the device's key when the phone is paired. */
export function readHeaders(key: string | undefined): Record<string, string> {
  return key ? { Accept: "application/json", Authorization: `ApiKey ${key}` } : { Accept: "application/json" };
}

/** `slot`: the global that carries the reads from prefetch.js to main.js (one per app: `__counterEarlyReads`). */
export function createEarlyReads(slot: string, base: string) {
  type WithEarly = typeof globalThis & { [slot: string]: EarlyReads | typeof CLOSED | undefined };
  const global = globalThis as WithEarly;

  function startEarlyReads(key: string, paths: string[]): void {
    if (global[slot] === CLOSED) return;
    const reads = new Map<string, Promise<Response>>();
    // Never from the HTTP cache: the state as it is now (a variable, not a literal, so that the
    // unit test's Node typing, without `cache`, takes it too).
    const init = { headers: readHeaders(key), cache: "no-store" as const };
    for (const path of paths) {
      const read = fetch(base + path, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
      // Taken later or never: an unused failure must not show as an unhandled rejection.
      read.catch(() => undefined);
      reads.set(path, read);
    }
    global[slot] = { at: Date.now(), reads };
  }

  /** The early reads by path, once per page (then none), if they are fresh. */
  function takeEarlyReads(): Map<string, Promise<Response>> {
    const early = global[slot];
    global[slot] = CLOSED;
    if (!early || early === CLOSED || Date.now() - early.at > FRESH_MS) return new Map();
    return early.reads;
  }

  return { startEarlyReads, takeEarlyReads };
}
