import type { Logger } from "moleculer";
import type { Database } from "../../lib/db/database";
import type { ParcelEvent } from "../../lib/events";

export interface RelayDeps {
  db: Database;
  logger: Logger;
  holder: string;
  call: (action: string, params: object) => Promise<unknown>;
  /** Whether a consumer action is reachable now; a pass waits (quietly) until all are. */
  isAvailable: (action: string) => boolean;
}

/** Every event goes to both; each answers only once the event is safely stored on its side. */
export const EVENT_CONSUMERS = ["webhooks.enqueue", "notifications.parcelEvent"] as const;

const LEASE_SECONDS = 15;
const BATCH = 200;
const PARALLEL_PARCELS = 8;

interface OutboxRow {
  id: string;
  parcel_id: string;
  payload: ParcelEvent | string;
}

async function holdLease(db: Database, holder: string): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO parcels.relay_lease (name, holder, expires_at) VALUES ('outbox', $1, now() + make_interval(secs => $2::int))
     ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
       WHERE parcels.relay_lease.holder = EXCLUDED.holder OR parcels.relay_lease.expires_at < now()
     RETURNING holder`,
    [holder, LEASE_SECONDS]
  );
  return rows.length === 1;
}

export async function releaseLease(db: Database, holder: string): Promise<void> {
  await db.query("DELETE FROM parcels.relay_lease WHERE name = 'outbox' AND holder = $1", [holder]);
}

/** The events of one parcel, oldest first; stops at the first that is not acknowledged. */
async function relayParcel(deps: RelayDeps, rows: OutboxRow[]): Promise<number> {
  let done = 0;
  for (const row of rows) {
    const event = typeof row.payload === "string" ? (JSON.parse(row.payload) as ParcelEvent) : row.payload;
    try {
      for (const consumer of EVENT_CONSUMERS) await deps.call(consumer, { event });
    } catch (err) {
      deps.logger.warn(`outbox: event ${event.id} (${event.type}) kept for a later pass: ${(err as Error).message}`);
      return done;
    }
    await deps.db.query("UPDATE parcels.outbox SET dispatched_at = now() WHERE id = $1", [row.id]);
    done++;
  }
  return done;
}

/**
 * One pass of the transactional outbox relay (DESIGN §3): rows are marked dispatched only after
 * every consumer acknowledged them, so a consumer that is down delays events but never drops
 * them. Parcels are relayed in parallel, each parcel's events strictly in order.
 */
export async function relayOutbox(deps: RelayDeps): Promise<number> {
  if (!EVENT_CONSUMERS.every(deps.isAvailable)) return 0;
  if (!(await holdLease(deps.db, deps.holder))) return 0;
  const rows = await deps.db.query<OutboxRow>(
    "SELECT id, parcel_id, payload FROM parcels.outbox WHERE dispatched_at IS NULL ORDER BY id LIMIT $1",
    [BATCH]
  );
  const byParcel = new Map<string, OutboxRow[]>();
  for (const row of rows) {
    const list = byParcel.get(row.parcel_id) ?? [];
    list.push(row);
    byParcel.set(row.parcel_id, list);
  }
  const queues = [...byParcel.values()];
  let relayed = 0;
  const workers = Array.from({ length: Math.min(PARALLEL_PARCELS, queues.length) }, async () => {
    for (let queue = queues.shift(); queue; queue = queues.shift()) relayed += await relayParcel(deps, queue);
  });
  await Promise.all(workers);
  return relayed;
}
