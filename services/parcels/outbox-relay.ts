import type { Logger } from "moleculer";
import pLimit from "p-limit";
import type { Database } from "../../lib/db/database";
import type { ParcelEvent } from "../../lib/events";
import * as store from "./parcels.store";

export interface RelayDeps {
  db: Database;
  logger: Logger;
  holder: string;
  /** Hands an event to one consumer; resolves once the consumer stored it. */
  deliver: (consumer: (typeof EVENT_CONSUMERS)[number], event: ParcelEvent) => Promise<unknown>;
  /** Whether a consumer action is reachable now; a pass waits (quietly) until all are. */
  isAvailable: (action: string) => boolean;
}

/** Every event goes to both; each answers only once the event is safely stored on its side. */
export const EVENT_CONSUMERS = ["webhooks.enqueue", "notifications.parcelEvent"] as const;

const LEASE_SECONDS = 15;
/**
 * A lease taken less than this long ago is still ours (it lasts LEASE_SECONDS from the database's
 * clock, which only moved on since): the pass skips renewing it, one write fewer per create.
 */
const RENEW_AFTER_MS = 5_000;
const heldUntil = new WeakMap<Database, Map<string, number>>();

function leasesOf(db: Database): Map<string, number> {
  let leases = heldUntil.get(db);
  if (!leases) heldUntil.set(db, (leases = new Map()));
  return leases;
}

async function holdLease(db: Database, holder: string): Promise<boolean> {
  const leases = leasesOf(db);
  const now = performance.now();
  if ((leases.get(holder) ?? 0) > now) return true;
  const held = await store.holdRelayLease(db, holder, LEASE_SECONDS);
  if (held) leases.set(holder, now + RENEW_AFTER_MS);
  else leases.delete(holder);
  return held;
}
const BATCH = 200;
const PARALLEL_PARCELS = 8;

/** The events of one parcel, oldest first; stops at the first that is not acknowledged. */
async function relayParcel(deps: RelayDeps, records: store.OutboxRecord[]): Promise<number> {
  let done = 0;
  for (const { id, event } of records) {
    try {
      for (const consumer of EVENT_CONSUMERS) await deps.deliver(consumer, event);
    } catch (err) {
      deps.logger.warn(`outbox: event ${event.id} (${event.type}) kept for a later pass: ${(err as Error).message}`);
      return done;
    }
    await store.markDispatched(deps.db, id);
    done++;
  }
  return done;
}

export async function releaseLease(db: Database, holder: string): Promise<void> {
  leasesOf(db).delete(holder);
  await store.releaseRelayLease(db, holder);
}

/**
 * One pass of the transactional outbox relay (DESIGN §3): rows are marked dispatched only after
 * every consumer acknowledged them, so a consumer that is down delays events but never drops
 * them. Parcels are relayed in parallel, each parcel's events strictly in order.
 */
export async function relayOutbox(deps: RelayDeps): Promise<number> {
  if (!EVENT_CONSUMERS.every(deps.isAvailable)) return 0;
  if (!(await holdLease(deps.db, deps.holder))) return 0;
  const byParcel = new Map<string, store.OutboxRecord[]>();
  for (const record of await store.undispatchedEvents(deps.db, BATCH)) {
    byParcel.set(record.parcelId, [...(byParcel.get(record.parcelId) ?? []), record]);
  }
  const limit = pLimit(PARALLEL_PARCELS);
  const counts = await Promise.all([...byParcel.values()].map(records => limit(() => relayParcel(deps, records))));
  return counts.reduce((a, b) => a + b, 0);
}
