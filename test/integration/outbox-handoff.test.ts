import { randomUUID } from "node:crypto";
import type { Logger } from "moleculer";
import type { Database, Queryable } from "../../lib/db/database";
import { migrateSchema } from "../../lib/db/migrate";
import { openPostgres } from "../../lib/db/postgres";
import { mayMessageRecipient, type ParcelEvent, subjectIdOf } from "../../lib/events";
import { OutboxCursor } from "../../services/parcels/outbox-cursor";
import { relayOutbox, releaseLease, type RelayDeps } from "../../services/parcels/outbox-relay";
import * as parcels from "../../services/parcels/parcels.store";
import * as webhooks from "../../services/webhooks/webhooks.store";
import { makeParcelEvent } from "../helpers/parcel-events";
import {
  createTestDatabase,
  openThrowAwayPglite,
  openThrowAwayPostgres,
  twoPoolsOnOneDatabase,
  type ThrowAwayDatabase
} from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";
import { addTestEndpoint, storedFeed } from "../helpers/webhooks-store";

/**
 * Issue 19: the outbox relay's hand-off carries many events per acknowledged call, `webhooks`
 * stores them with one statement, and the webhook worker claims and records in batches. What the
 * merchant relies on stays: every event stored once and in order (events API, per-parcel
 * delivery order), nothing lost or doubled when a hand-off is repeated after a crash, and no
 * delivery ever in the hands of two workers.
 */

const quiet = { warn: () => undefined, info: () => undefined, debug: () => undefined, error: () => undefined } as unknown as Logger;

/** Six parcels' events, interleaved as an outbox holds them: each parcel's in order, one of them reaching its relay point. */
function interleavedEvents(organizationId: string, parcelsCount = 6, perParcel = 4): ParcelEvent[] {
  const ids = Array.from({ length: parcelsCount }, () => randomUUID());
  const types = ["parcel.created", "parcel.ready_for_pickup", "parcel.picked_up", "parcel.at_relay"];
  const events: ParcelEvent[] = [];
  for (let step = 0; step < perParcel; step++) {
    for (const parcelId of ids)
      events.push(makeParcelEvent(organizationId, { parcelId, type: types[step % types.length], sequence: step + 1 }));
  }
  return events;
}

/** Every stored event of the organisation, in feed order. */
async function feed(db: Database, organizationId: string): Promise<ParcelEvent[]> {
  return (await storedFeed(db, organizationId)).map(s => s.event);
}

async function deliveryRows(db: Database, organizationId: string) {
  return db.query<{ id: string; event_id: string; parcel_id: string }>(
    "SELECT d.id, d.event_id, d.parcel_id FROM webhooks.deliveries d WHERE d.organization_id = $1 ORDER BY d.event_seq",
    [organizationId]
  );
}

function handOffContract(open: () => Promise<ThrowAwayDatabase>) {
  let db: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await open());
    await migrateSchema(db, "webhooks");
    await migrateSchema(db, "parcels");
  });
  afterAll(() => close());

  test("a batch of N events stores N, in the batch's order, and the same batch again adds nothing", async () => {
    const withEndpoint = randomUUID();
    const endpointId = await addTestEndpoint(db, withEndpoint);
    const withoutEndpoint = randomUUID();
    const events = [...interleavedEvents(withEndpoint), ...interleavedEvents(withoutEndpoint, 3, 2)];

    const first = await webhooks.recordEvents(db, events);
    expect(first.map(r => r.eventId)).toEqual(events.map(e => e.id));
    expect(first.every(r => r.created)).toBe(true);
    // One delivery per event to the endpoint; none (and no cost beyond the event) where there is no endpoint.
    expect(first.filter(r => r.deliveries.length === 1 && r.deliveries[0].endpointId === endpointId)).toHaveLength(24);
    expect(first.filter(r => r.deliveries.length === 0)).toHaveLength(6);

    // The events API lists them in the order they were handed over, exactly as sent.
    expect(await feed(db, withEndpoint)).toEqual(events.slice(0, 24));
    expect(await feed(db, withoutEndpoint)).toEqual(events.slice(24));
    // Deliveries follow the same order, so a parcel's reach its endpoint in the order of its events.
    expect((await deliveryRows(db, withEndpoint)).map(d => d.event_id)).toEqual(events.slice(0, 24).map(e => e.id));

    // Handed over again (the relay died before marking the rows): stored once, same deliveries answered.
    const again = await webhooks.recordEvents(db, events);
    expect(again.every(r => !r.created)).toBe(true);
    expect(again.map(r => r.deliveries)).toEqual(first.map(r => r.deliveries));
    expect(await feed(db, withEndpoint)).toHaveLength(24);
    expect(await deliveryRows(db, withEndpoint)).toHaveLength(24);

    // A batch overlapping the last one: only the new events are stored, after the old ones.
    const more = interleavedEvents(withEndpoint, 2, 2);
    const overlapping = await webhooks.recordEvents(db, [...events.slice(20, 24), ...more]);
    expect(overlapping.map(r => r.created)).toEqual([false, false, false, false, true, true, true, true]);
    expect(await feed(db, withEndpoint)).toEqual([...events.slice(0, 24), ...more]);
  });

  test("the relay hands N events per call, marks them in one pass, and a hand-off repeated after a failure stores each event once", async () => {
    const organizationId = randomUUID();
    await addTestEndpoint(db, organizationId);
    const events = interleavedEvents(organizationId, 10, 4);
    await db.transaction(async tx => {
      for (const event of events) {
        await parcels.appendOutbox(tx, {
          eventId: event.id,
          parcelId: subjectIdOf(event),
          owner: { organizationId, mode: "live" },
          type: event.type,
          payload: event
        });
      }
    });

    const calls: { consumer: string; events: ParcelEvent[] }[] = [];
    let failNotifications = true;
    const deps: RelayDeps = {
      db,
      logger: quiet,
      holder: `relay-${randomUUID()}`,
      isAvailable: () => true,
      handOver: async (consumer, handed) => {
        calls.push({ consumer, events: handed });
        if (consumer === "webhooks.enqueueBatch") return webhooks.recordEvents(db, handed);
        // notifications answers nothing the first time: the relay must keep every row, webhooks' copy included.
        if (failNotifications) {
          failNotifications = false;
          throw new Error("notifications is restarting");
        }
        return { queued: handed.length };
      }
    };
    try {
      // First pass: the batch call to notifications fails, so the relay falls back to one event at a time.
      await relayOutbox(deps);
      for (let pass = 0; pass < 5 && (await parcels.undispatchedEvents(db, 1000)).length > 0; pass++) await relayOutbox(deps);
    } finally {
      await releaseLease(db, deps.holder);
    }

    expect(await parcels.undispatchedEvents(db, 1000)).toEqual([]);
    // The first call carried the whole batch, oldest first.
    expect(calls[0]).toEqual({ consumer: "webhooks.enqueueBatch", events });
    // notifications only ever saw events that may message a recipient.
    const toNotifications = calls.filter(c => c.consumer === "notifications.parcelEvents").flatMap(c => c.events);
    expect(toNotifications.length).toBeGreaterThan(0);
    expect(toNotifications.every(e => mayMessageRecipient(e))).toBe(true);
    // webhooks got the batch twice or more, and stored every event once, in order.
    expect(await feed(db, organizationId)).toEqual(events);
    expect(await deliveryRows(db, organizationId)).toHaveLength(events.length);
  });

  test("a batch's attempts are recorded in one statement, each only under its own lease", async () => {
    const organizationId = randomUUID();
    await addTestEndpoint(db, organizationId);
    await webhooks.recordEvents(db, interleavedEvents(organizationId, 5, 1));
    const claimed = await webhooks.claimDue(db, { limit: 100, leaseMs: 60_000 });
    const mine = claimed.filter(d => d.organizationId === organizationId);
    expect(mine).toHaveLength(5);
    const attempt = { startedAt: new Date(), durationMs: 3, statusCode: 200, error: null, worker: "w" };
    const stale = { id: mine[0].id, leaseToken: randomUUID() };
    const numbers = await webhooks.recordAttempts(db, [
      ...mine.slice(1).map(d => ({ claim: { id: d.id, leaseToken: d.leaseToken! }, attempt, outcome: { status: "delivered" as const } })),
      { claim: stale, attempt, outcome: { status: "delivered" as const } }
    ]);
    expect(mine.slice(1).map(d => numbers.get(d.id))).toEqual([1, 1, 1, 1]);
    expect(numbers.get(stale.id)).toBeNull();
    const page = await webhooks.listDeliveries(db, { organizationId, endpointId: null, status: "delivered", page: 0, size: 10 });
    expect(page.totalElements).toBe(4);
    // Release the rest for the other tests' claims.
    await webhooks.recordAttempt(db, { id: mine[0].id, leaseToken: mine[0].leaseToken! }, attempt, { status: "delivered" });
  });
}

describe("outbox hand-off and batched webhook writes on PGlite (embedded)", () => {
  handOffContract(openThrowAwayPglite);
});

describeWithServers(["postgres"], "outbox hand-off and batched webhook writes on the PostgreSQL server", () => {
  handOffContract(openThrowAwayPostgres);
});

describeWithServers(["postgres"], "two webhook workers claiming batches on one PostgreSQL database", () => {
  const pools = twoPoolsOnOneDatabase("webhooks");

  test("concurrent batched claims never give one delivery to two workers, and every delivery is claimed", async () => {
    const organizationId = randomUUID();
    await addTestEndpoint(pools.a, organizationId);
    // 300 deliveries of 300 parcels: all due at once.
    const events = interleavedEvents(organizationId, 300, 1);
    await webhooks.recordEvents(pools.a, events);

    const claimedBy = new Map<string, string[]>();
    const work = async (name: string, db: Database) => {
      for (;;) {
        const batch = await webhooks.claimDue(db, { limit: 7, leaseMs: 60_000 });
        if (batch.length === 0) return;
        for (const d of batch) claimedBy.set(d.id, [...(claimedBy.get(d.id) ?? []), name]);
        const attempt = { startedAt: new Date(), durationMs: 1, statusCode: 200, error: null, worker: name };
        const numbers = await webhooks.recordAttempts(
          db,
          batch.map(d => ({ claim: { id: d.id, leaseToken: d.leaseToken! }, attempt, outcome: { status: "delivered" as const } }))
        );
        // Every one of its claims is still its own when it records.
        expect([...numbers.values()].every(n => n === 1)).toBe(true);
      }
    };
    await Promise.all([work("a1", pools.a), work("b1", pools.b), work("a2", pools.a), work("b2", pools.b)]);

    expect(claimedBy.size).toBe(300);
    expect([...claimedBy.values()].filter(names => names.length > 1)).toEqual([]);
    const [{ delivered }] = await pools.a.query<{ delivered: number }>(
      "SELECT count(*)::integer AS delivered FROM webhooks.deliveries WHERE organization_id = $1 AND status = 'delivered' AND attempts = 1",
      [organizationId]
    );
    expect(Number(delivered)).toBe(300);
  });
});

describeWithServers(["postgres"], "an organisation's events commit in feed order on the PostgreSQL server", () => {
  let database: { url: string; drop: () => Promise<void> };
  let db: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
    // Three sessions at once: the lock's holder, the batch waiting for it, and the test looking on.
    db = openPostgres(database.url, 3);
    await migrateSchema(db, "webhooks");
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  /** Sessions of this database waiting for an advisory lock. */
  const waitingForLock = async () => {
    const [{ n }] = await db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
        WHERE l.locktype = 'advisory' AND NOT l.granted AND d.datname = current_database()`
    );
    return n;
  };

  test("a batch draws its feed positions only once it holds its organisation's lock", async () => {
    const organizationId = randomUUID();
    const holderEvent = makeParcelEvent(organizationId);
    const waiterEvent = makeParcelEvent(organizationId);
    let waiter: Promise<unknown> | undefined;
    await db.transaction(async tx => {
      // Another batch of the organisation is being stored: it holds the lock and has not drawn its positions yet.
      await tx.query("SELECT pg_advisory_xact_lock($1::integer, hashtext($2))", [webhooks.EVENT_FEED_LOCK, organizationId]);
      waiter = webhooks.recordEvents(db, [waiterEvent]);
      for (let look = 0; (await waitingForLock()) === 0; look++) {
        if (look === 500) throw new Error("the second batch never waited for the organisation's lock");
        await new Promise(resolve => setTimeout(resolve, 20));
      }
      // It draws its positions while the other batch waits, and commits first.
      await webhooks.recordEvents(tx, [holderEvent]);
    });
    await waiter;
    // Had the waiting batch drawn its position before it held the lock, a reader paging by position
    // would have seen the holder's event first and then an earlier position commit behind it.
    expect(await feed(db, organizationId)).toEqual([holderEvent, waiterEvent]);
  });
});

describeWithServers(["postgres"], "the outbox relay's cursor on the PostgreSQL server (decision 0041)", () => {
  let db: Database;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await openThrowAwayPostgres());
    await migrateSchema(db, "parcels");
  });
  afterAll(() => close());

  const append = (tx: Queryable, event: ParcelEvent, organizationId: string) =>
    parcels.appendOutbox(tx, {
      eventId: event.id,
      parcelId: subjectIdOf(event),
      owner: { organizationId, mode: "live" },
      type: event.type,
      payload: event
    });

  test("an event committed after a later one was handed over leaves at the next full read, and its parcel's next event only after it", async () => {
    const organizationId = randomUUID();
    const parcelId = randomUUID();
    // `late` (parcel P) takes its id first; `other` (another parcel) commits first and is handed over;
    // then `late` commits, and P's `next` is written after it (as a parcel's row lock orders its events).
    const late = makeParcelEvent(organizationId, { parcelId, sequence: 1 });
    const other = makeParcelEvent(organizationId);
    const next = makeParcelEvent(organizationId, { parcelId, sequence: 2, type: "parcel.ready_for_pickup" });
    let now = 0;
    const handed: string[] = [];
    const deps: RelayDeps = {
      db,
      logger: quiet,
      holder: `relay-${randomUUID()}`,
      isAvailable: () => true,
      handOver: async (consumer, events) => void (consumer === "webhooks.enqueueBatch" && handed.push(...events.map(e => e.id))),
      cursor: new OutboxCursor(1_000, () => now)
    };
    let inserted!: () => void;
    let commit!: () => void;
    const lateInserted = new Promise<void>(resolve => (inserted = resolve));
    const mayCommit = new Promise<void>(resolve => (commit = resolve));
    const slow = db.transaction(async tx => {
      await append(tx, late, organizationId);
      inserted();
      await mayCommit;
    });
    await lateInserted;
    await db.transaction(tx => append(tx, other, organizationId));
    try {
      expect(await relayOutbox(deps)).toBe(1);
      commit();
      await slow;
      await db.transaction(tx => append(tx, next, organizationId));
      // Within the second, reads start after `other`: `late` waits, and so does `next`, behind it.
      now = 500;
      expect(await relayOutbox(deps)).toBe(0);
      expect((await parcels.undispatchedEvents(db, 10)).map(r => r.event.id)).toEqual([late.id, next.id]);
      now = 1_000;
      expect(await relayOutbox(deps)).toBe(2);
    } finally {
      await releaseLease(db, deps.holder);
    }
    expect(handed).toEqual([other.id, late.id, next.id]);
    expect(await parcels.undispatchedEvents(db, 10)).toEqual([]);
  });
});
