import { createEarlyReads } from "../shared/early-reads";

/**
 * The counter app's early reads (web/shared/early-reads.ts, decision 0049): what Today reads first,
 * started by prefetch.js while main.js is still downloading, taken by the page's first loadDay
 * (state.ts).
 */
export const API = "/api/relay/v1";
export { readHeaders, TIMEOUT_MS } from "../shared/early-reads";

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

const early = createEarlyReads("__counterEarlyReads", API);
export const takeEarlyReads = early.takeEarlyReads;

export function startEarlyReads(agentKey: string): void {
  const day = dayPaths();
  early.startEarlyReads(agentKey, [day.me, pagePath(day.parcels, 0), day.cash, day.handedToday]);
}
