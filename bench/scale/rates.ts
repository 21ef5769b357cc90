import type { LoadStats } from "../stats";
import { backoffice } from "../systems/merchant";
import type { RunningSystem } from "../systems/system";
import { HttpRequestSpec, runWrk } from "../wrk";
import { FIRST_PAGE_ROW, SPEC_DEEP_PAGE_ROW } from "./rate-table";

/**
 * Issue 48: the rows of measure.sh through the running distributed system's gateway, each loaded by
 * wrk at the concurrency of measure.sh (c16): a short unmeasured warm-up, then the measured load.
 * The same rows run on the empty database and on the scaled one, so a row's only difference is
 * what the database holds.
 */

export interface RateTarget {
  /** The organisation's live key (on the scaled database: the organisation holding a tenth). */
  key: string;
  parcelId: string;
  trackingNumber: string;
  /** A relay point, and one of its agent keys, for the shelf. */
  relayCode: string;
  agentKey: string;
  /** A cursor as deep as page 2000 of size 20, in one status. */
  cursor: string;
  cursorStatus: string;
}

export const CONNECTIONS = 16;

export function rateRows(system: RunningSystem, t: RateTarget, createBody: string): [string, HttpRequestSpec][] {
  const partner = (path: string, method: "GET" | "POST" = "GET", body?: string): HttpRequestSpec => ({
    method,
    url: `${system.baseUrl}/api/partner/v1${path}`,
    headers: { Authorization: `ApiKey ${t.key}` },
    ...(body ? { body } : {})
  });
  return [
    ["create", partner("/parcels", "POST", createBody)],
    ["get by id", partner(`/parcels/${t.parcelId}`)],
    [FIRST_PAGE_ROW, partner("/parcels?page=0&size=20")],
    [SPEC_DEEP_PAGE_ROW, partner("/parcels?page=2000&size=20")],
    ["list, cursor as deep, status filter", partner(`/parcels?size=20&status=${t.cursorStatus}&after=${t.cursor}`)],
    ["tracking lookup", partner(`/parcels/by-tracking/${t.trackingNumber}`)],
    ["public tracking", { method: "GET", url: `${system.baseUrl}/api/public/v1/tracking/${t.trackingNumber}` }],
    [
      "relay shelf",
      { method: "GET", url: `${system.baseUrl}/api/relay/v1/parcels?size=20`, headers: { Authorization: `ApiKey ${t.agentKey}` } }
    ],
    ["events API", partner("/events?limit=50")]
  ];
}

/** An agent key of `relayCode`, made through the back office. */
export async function agentKeyOf(system: RunningSystem, relayCode: string): Promise<string> {
  const made = await backoffice<{ key: string }>(system.baseUrl, system.backofficeToken, "POST", `/relay-points/${relayCode}/agent-keys`, {
    name: "scale bench"
  });
  return made.key;
}

export async function measureRates(
  rows: [string, HttpRequestSpec][],
  seconds: number,
  onRow: (row: string, stats: LoadStats) => void
): Promise<Map<string, LoadStats>> {
  const measured = new Map<string, LoadStats>();
  for (const [row, spec] of rows) {
    await runWrk(spec, { connections: CONNECTIONS, seconds: 1 });
    const stats = await runWrk(spec, { connections: CONNECTIONS, seconds });
    onRow(row, stats);
    measured.set(row, stats);
  }
  return measured;
}
