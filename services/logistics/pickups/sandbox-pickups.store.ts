import type { Queryable } from "../../../lib/db/database";

/** The simulator's SQL (sandbox-simulator.ts). */

/** Sandbox pickups the simulator should visit: CONFIRMED, their window open. */
export async function dueSandboxPickups(db: Queryable, now: Date, limit = 50): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    "SELECT id FROM logistics.pickups WHERE mode = 'sandbox' AND status = 'CONFIRMED' AND ready_at <= $1 ORDER BY ready_at LIMIT $2",
    [now, limit]
  );
  return rows.map(r => r.id);
}
