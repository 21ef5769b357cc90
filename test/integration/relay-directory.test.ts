import { randomUUID } from "node:crypto";
import relayPointsShipped from "../../resources/relay-points.json";
import { algiersDate } from "../../lib/cod";
import { migrateSchema } from "../../lib/db/migrate";
import type { RelayPointEntry } from "../../lib/relay-points";
import { addDays } from "../../services/parcels/calendar-date";
import { seedRelayPoints, upsertRelayPoint } from "../../services/parcels/relay-points.store";
import { assertRelayOpenForNewParcels } from "../../services/parcels/relay/closures";
import { deleteClosure, insertClosure } from "../../services/parcels/relay/closures.store";
import { RelayDirectory } from "../../services/parcels/relay/relay-directory";
import { directoryVersion } from "../../services/parcels/relay/relay-directory.store";
import { attachRelayDirectory, detachRelayDirectory, relayLookupsOf } from "../../services/parcels/relay/relay-lookups";
import { openThrowAwayPglite, openThrowAwayPostgres, ThrowAwayDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * The in-memory relay directory (issue 31, decision 0038) on both engines: it answers what the
 * database holds, the change counter of migration parcels/024 moves with every change however it
 * is made (so a lost broadcast is caught by the next check) and not with a change of nothing, and
 * the create's closure check reads the directory, not the database.
 */

const SHIPPED = relayPointsShipped as RelayPointEntry[];
const today = algiersDate(new Date());

function directoryContract(open: () => Promise<ThrowAwayDatabase>): void {
  let handle: ThrowAwayDatabase;

  beforeAll(async () => {
    handle = await open();
    await migrateSchema(handle.db, "parcels");
    await seedRelayPoints(handle.db, SHIPPED);
  }, 60_000);

  afterAll(async () => {
    await handle?.close();
  });

  test("loads every point; a second check with nothing changed reloads nothing", async () => {
    const directory = new RelayDirectory(handle.db);
    expect(await directory.refresh()).toBe(true);
    expect(
      directory
        .relayPoints()
        .map(p => p.code)
        .sort()
    ).toEqual(SHIPPED.map(p => p.code).sort());
    expect(directory.relayPoint(SHIPPED[0].code)).toMatchObject({ code: SHIPPED[0].code, name: SHIPPED[0].name });
    expect(await directory.refresh()).toBe(false);
  });

  test("the seed at a restart, finding every point complete, does not move the counter", async () => {
    const before = await directoryVersion(handle.db);
    await seedRelayPoints(handle.db, SHIPPED);
    expect(await directoryVersion(handle.db)).toBe(before);
  });

  test("a closure written straight to the database (no broadcast) is in the directory after its next check", async () => {
    const directory = new RelayDirectory(handle.db);
    await directory.refresh();
    const code = SHIPPED[1].code;
    const id = randomUUID();
    await handle.db.transaction(tx =>
      insertClosure(tx, {
        id,
        relayCode: code,
        from: addDays(today, 1),
        to: addDays(today, 2),
        reason: "inventaire",
        announcedBy: "backoffice"
      })
    );
    expect(directory.closuresMeeting(code, today, addDays(today, 3))).toEqual([]);
    expect(await directory.refresh()).toBe(true);
    expect(directory.closuresMeeting(code, today, addDays(today, 3))).toMatchObject([
      { id, from: addDays(today, 1), to: addDays(today, 2) }
    ]);
    expect(directory.closuresMeeting(code, addDays(today, 3), addDays(today, 5))).toEqual([]);
    expect(directory.relayCodesClosedBetween(today, addDays(today, 1))).toEqual(new Set([code]));

    await deleteClosure(handle.db, code, id);
    expect(await directory.refresh()).toBe(true);
    expect(directory.closuresMeeting(code, today, addDays(today, 3))).toEqual([]);
  });

  test("a point deactivated, or changed in plain SQL, is seen at the next check", async () => {
    const directory = new RelayDirectory(handle.db);
    await directory.refresh();
    const point = SHIPPED[2];
    await upsertRelayPoint(handle.db, { ...point, active: false });
    expect(await directory.refresh()).toBe(true);
    expect(directory.relayPoint(point.code)?.active).toBe(false);
    await handle.db.query("UPDATE parcels.relay_points SET name = 'Renamed', active = true WHERE code = $1", [point.code]);
    expect(await directory.refresh()).toBe(true);
    expect(directory.relayPoint(point.code)).toMatchObject({ name: "Renamed", active: true });
  });

  test("attached to the database, the closure check reads no relay point and no closure from it", async () => {
    const directory = new RelayDirectory(handle.db);
    await directory.refresh();
    const code = SHIPPED[3].code;
    await insertClosure(handle.db, { id: randomUUID(), relayCode: code, from: today, to: today, reason: null, announcedBy: "agent" });
    await directory.refresh();
    const statements: string[] = [];
    const counting = {
      ...handle.db,
      query: <R extends object>(sql: string, params?: unknown[]) => {
        statements.push(sql);
        return handle.db.query<R>(sql, params);
      }
    };
    attachRelayDirectory(counting, directory, () => directory.refresh());
    try {
      await expect(assertRelayOpenForNewParcels({ db: counting, noticeDays: 2 }, code)).rejects.toMatchObject({ type: "RELAY_CLOSED" });
      await expect(assertRelayOpenForNewParcels({ db: counting, noticeDays: 2 }, SHIPPED[4].code)).resolves.toBeUndefined();
    } finally {
      detachRelayDirectory(counting, directory);
    }
    expect(statements).toEqual([]);
    // Detached, the same check goes to the database: the count above would have seen it.
    await expect(assertRelayOpenForNewParcels({ db: counting, noticeDays: 2 }, code)).rejects.toMatchObject({ type: "RELAY_CLOSED" });
    expect(statements.length).toBeGreaterThan(0);
  });

  test("a code not in memory is looked for again after a counter check: a point added in SQL a moment ago is found", async () => {
    const directory = new RelayDirectory(handle.db);
    await directory.refresh();
    const holder = { query: handle.db.query.bind(handle.db), exec: handle.db.exec.bind(handle.db) };
    attachRelayDirectory(holder, directory, () => directory.refresh());
    try {
      await handle.db.query("INSERT INTO parcels.relay_points (code, name, city) VALUES ('DZ-16-DIR-SQL', 'Ajouté', 'Alger')");
      expect(await relayLookupsOf(holder).relayPoint("DZ-16-DIR-SQL")).toMatchObject({ code: "DZ-16-DIR-SQL", active: true });
      expect(await relayLookupsOf(holder).relayPoint("DZ-16-NOWHERE")).toBeNull();
    } finally {
      detachRelayDirectory(holder, directory);
    }
  });
}

describe("the in-memory relay directory on PGlite", () => directoryContract(openThrowAwayPglite));
describeWithServers(["postgres"], "the in-memory relay directory on the PostgreSQL server", () => directoryContract(openThrowAwayPostgres));
