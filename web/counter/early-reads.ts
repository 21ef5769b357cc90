/**
 * The day's first reads, started by prefetch.js while main.js is still downloading: on a slow
 * network (Slow 4G: 560 ms a round trip) the relay API's answers then arrive about when the app
 * is ready to show them, instead of one round trip after. prefetch.ts starts them; api.ts takes
 * each once, for the same GET, if it is fresh. Built into both bundles (prefetch.js is built
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

type WithEarly = typeof globalThis & { [EARLY]?: EarlyReads };

/** The first page of a list as the app reads it (api.ts allPages reads the next ones). */
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

export function startEarlyReads(agentKey: string): void {
  const day = dayPaths();
  const paths = [day.me, pagePath(day.parcels, 0), day.cash, day.handedToday];
  const reads = new Map<string, Promise<Response>>();
  for (const path of paths) {
    const read = fetch(API + path, { headers: readHeaders(agentKey), cache: "no-store", signal: AbortSignal.timeout(TIMEOUT_MS) });
    // Taken later or never: an unused failure must not show as an unhandled rejection.
    read.catch(() => undefined);
    reads.set(path, read);
  }
  (globalThis as WithEarly)[EARLY] = { at: Date.now(), reads };
}

/** The early read of this GET, once, if there is a fresh one. */
export function takeEarlyRead(path: string): Promise<Response> | undefined {
  const early = (globalThis as WithEarly)[EARLY];
  if (!early || Date.now() - early.at > FRESH_MS) return undefined;
  const read = early.reads.get(path);
  early.reads.delete(path);
  return read;
}
