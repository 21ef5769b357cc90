import type { Principal } from "./principal";

/** The action behind `GET /health`; the gateway answers it itself once the key is resolved. */
export const HEALTH_ACTION = "auth.health";

/** SPEC §2.5. */
export interface HealthResponse {
  status: "ok";
  organizationId: string;
  organizationName: string;
  keyPrefix: string;
  serverTime: string;
}

/**
 * What `GET /health` says of a valid key: everything in it is in the principal the gateway has
 * just resolved (its cache, or auth), so the gateway's edge answers without a call; `auth.health`
 * gives the same answer to whoever calls the action.
 */
export function healthOf(principal: Principal, now?: Date): HealthResponse {
  const { organizationId, organizationName, keyPrefix } = principal;
  return { status: "ok", organizationId, organizationName, keyPrefix, serverTime: now ? now.toISOString() : serverTimeNow() };
}

/** The clock as ISO 8601, formatted once per millisecond: under load many answers share one. */
let lastTime = { ms: -1, iso: "" };
function serverTimeNow(): string {
  const ms = Date.now();
  if (ms !== lastTime.ms) lastTime = { ms, iso: new Date(ms).toISOString() };
  return lastTime.iso;
}
