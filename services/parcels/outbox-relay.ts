import type { Logger } from "moleculer";
import pLimit from "p-limit";
import type { Database } from "../../lib/db/database";
import { mayMessageRecipient, type ParcelEvent } from "../../lib/events";
import type { OutboxCursor } from "./outbox-cursor";
import * as store from "./parcels.store";

export interface RelayDeps {
  db: Database;
  logger: Logger;
  holder: string;
  /** Hands events (oldest first) to one consumer; resolves once the consumer stored them all. */
  handOver: (consumer: (typeof EVENT_CONSUMERS)[number], events: ParcelEvent[]) => Promise<unknown>;
  /** Whether a consumer action is reachable now; a pass waits (quietly) until all are. */
  isAvailable: (action: string) => boolean;
  /** Called right before the outbox is read: events committed until now are in this pass (BackgroundLoop.caughtUp). */
  caughtUp?: () => void;
  /** Where each read starts (outbox-cursor.ts); without one, every read starts from the first event. */
  cursor?: OutboxCursor;
}

/**
 * Each answers only once the events are safely stored on its side: `webhooks` gets every event
 * (events API, deliveries), `notifications` only those that may message a recipient.
 */
export const EVENT_CONSUMERS = ["webhooks.enqueueBatch", "notifications.parcelEvents"] as const;
const WANTS: Record<(typeof EVENT_CONSUMERS)[number], (event: ParcelEvent) => boolean> = {
  "webhooks.enqueueBatch": () => true,
  "notifications.parcelEvents": mayMessageRecipient
};

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
/** Outbox rows read, and handed to each consumer in one call, per pass step. */
export const OUTBOX_BATCH = 200;
const BATCH = OUTBOX_BATCH;
const PARALLEL_PARCELS = 8;

/** Hands events to every consumer (one acknowledged call each), then marks them dispatched in one statement. */
async function handOver(deps: RelayDeps, records: store.OutboxRecord[]): Promise<void> {
  for (const consumer of EVENT_CONSUMERS) {
    const events = records.map(r => r.event).filter(WANTS[consumer]);
    if (events.length > 0) await deps.handOver(consumer, events);
  }
  await store.markDispatched(
    deps.db,
    records.map(r => r.id)
  );
}

/**
 * After a batch was refused: the events of one parcel, oldest first, one at a time, stopping at
 * the first that is not acknowledged, so that an event a consumer keeps refusing holds back its
 * own parcel only.
 */
async function relayParcel(deps: RelayDeps, records: store.OutboxRecord[]): Promise<number> {
  let done = 0;
  for (const record of records) {
    try {
      await handOver(deps, [record]);
    } catch (err) {
      deps.logger.warn(`outbox: event ${record.event.id} (${record.event.type}) kept for a later pass: ${(err as Error).message}`);
      return done;
    }
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
 * them, and a batch handed over again after a crash is stored once (consumers are idempotent per
 * event id). A batch of up to BATCH events goes to each consumer in one call, oldest first, so
 * each parcel's events stay in order; if a call fails, the batch is retried parcel by parcel
 * (parcels in parallel, each parcel's events strictly in order).
 */
export async function relayOutbox(deps: RelayDeps): Promise<number> {
  if (!EVENT_CONSUMERS.every(deps.isAvailable)) return 0;
  if (!(await holdLease(deps.db, deps.holder))) return 0;
  deps.caughtUp?.();
  const records = await store.undispatchedEvents(deps.db, BATCH, deps.cursor?.readFrom());
  if (records.length === 0) return 0;
  try {
    await handOver(deps, records);
    deps.cursor?.handedOver(records.map(r => r.id));
    return records.length;
  } catch (err) {
    deps.logger.warn(`outbox: a hand-off of ${records.length} events failed (${(err as Error).message}); retried parcel by parcel`);
  }
  deps.cursor?.keptSome();
  const byParcel = new Map<string, store.OutboxRecord[]>();
  for (const record of records) byParcel.set(record.parcelId, [...(byParcel.get(record.parcelId) ?? []), record]);
  const limit = pLimit(PARALLEL_PARCELS);
  const counts = await Promise.all([...byParcel.values()].map(parcel => limit(() => relayParcel(deps, parcel))));
  return counts.reduce((a, b) => a + b, 0);
}
