/**
 * The day's first reads, started by prefetch.js while main.js is still downloading: on a slow
 * network (Slow 4G: 560 ms a round trip) the relay API's answers then arrive about when the app
 * is ready to show them, instead of one round trip after. prefetch.ts starts them; the page's first
 * loadDay (state.ts) takes them, if they are fresh. Built into both bundles (prefetch.js is built
 * apart, build-sw.mjs, so that it shares no chunk with main.js: a shared chunk is one more
 * round trip).
 */
export const API = "/api/relay/v1";
const EARLY = "__counterEarlyReads";
/** An early read older than this is not the day's current state any more: read again. */
const FRESH_MS = 20_000;
/** No answer within this is no network (api.ts's rule for every call). */
export const TIMEOUT_MS = 15_000;

interface EarlyReads {
  at: number;
  reads: Map<string, Promise<Response>>;
}

type WithEarly = typeof globalThis & { [EARLY]?: EarlyReads | "closed" };

/** A page of a list as the app reads it, 100 parcels at a time (api.ts allPages). */
export function pagePath(path: string, page: number): string {
  return `${path}${path.includes("?") ? "&" : "?"}size=100&page=${page}`;
}

/** What Today reads first (state.ts loadDay): who we are, the lists, the till, the day's hand-overs. */
export function dayPaths(now = new Date()): { me: string; parcels: string; cash: string; handedToday: string } {
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  return {
    me: "/me",
    parcels: "/parcels",
    cash: "/cash",
    handedToday: `/parcels?status=DELIVERED&since=${encodeURIComponent(midnight.toISOString())}&size=1`
  };
}

/** The headers of every relay API read: JSON, and the agent key when the phone is paired. */
export function readHeaders(agentKey: string | undefined): Record<string, string> {
  return agentKey ? { Accept: "application/json", Authorization: `ApiKey ${agentKey}` } : { Accept: "application/json" };
}

/**
 * The reads are for the page's first read of the day only: once it has looked (taken them or
 * found none), the slot is closed, so that a prefetch.js that ran late starts nothing, and no
 * later read of the day ever gets an answer read before what the shop did since.
 */
const CLOSED = "closed";

export function startEarlyReads(agentKey: string): void {
  if ((globalThis as WithEarly)[EARLY] === CLOSED) return;
  const day = dayPaths();
  const paths = [day.me, pagePath(day.parcels, 0), day.cash, day.handedToday];
  const reads = new Map<string, Promise<Response>>();
  // Never from the HTTP cache: the day as it is now (a variable, not a literal, so that the
  // unit test's Node typing, without `cache`, takes it too).
  const init = { headers: readHeaders(agentKey), cache: "no-store" as const };
  for (const path of paths) {
    const read = fetch(API + path, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    // Taken later or never: an unused failure must not show as an unhandled rejection.
    read.catch(() => undefined);
    reads.set(path, read);
  }
  (globalThis as WithEarly)[EARLY] = { at: Date.now(), reads };
}

/** The early reads by path, once per page (then none), if they are fresh. */
export function takeEarlyReads(): Map<string, Promise<Response>> {
  const early = (globalThis as WithEarly)[EARLY];
  (globalThis as WithEarly)[EARLY] = CLOSED;
  if (!early || early === CLOSED || Date.now() - early.at > FRESH_MS) return new Map();
  return early.reads;
}
