import { randomUUID } from "node:crypto";
import relayPoints from "../../resources/relay-points.json";
import { Database } from "../../lib/db/database";
import { migrateSchema } from "../../lib/db/migrate";
import type { RelayPointEntry } from "../../lib/relay-points";
import { RelayPointSearchQuery, searchRelayPoints } from "../../services/parcels/relay-search";
import { foldSearchText } from "../../services/parcels/search-text";
import {
  findRelayPoint,
  listRelayPoints,
  RELAY_POINT_COLUMNS as COLUMNS,
  RelayPointRow as Row,
  searchRelayPoints as searchInDatabase,
  seedRelayPoints as seed,
  toRelayPointEntry as toEntry,
  upsertRelayPoint
} from "../../services/parcels/relay-points.store";
import { migrateUpTo, openThrowAwayPglite, openThrowAwayPostgres, ThrowAwayDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Migration parcels/004 on both engines: it upgrades a table that already holds points, its
 * checks refuse what the directory must never hold, its SQL fold is services/parcels/search-text.ts's, and the
 * store's search (services/parcels/relay-points.store.ts) over its columns and indexes answers
 * what services/parcels/relay-search.ts answers.
 */

const directory: RelayPointEntry[] = relayPoints;
const MIGRATION = "004_relay_points_directory.sql";
const QUERIES: Omit<RelayPointSearchQuery, "page" | "size">[] = [
  {},
  { wilaya: "16" },
  { wilaya: "31", q: "superette" },
  // Djelfa finds its own points and those of Aïn Ouessara and Messaad, carved from it in 2026 (their formerWilaya).
  { wilaya: "17" },
  { wilaya: "28" },
  { wilaya: "68" },
  { commune: "2820" },
  { commune: "3101", q: "oran" },
  { wilaya: "17", commune: "1731" },
  { city: "Oran" },
  { city: "SETIF" },
  { city: "وهران" },
  { city: "bordj bou arreridj" },
  { q: "didouche" },
  { q: "مكتبة" },
  { q: "dz-13" },
  { near: { latitude: 36.7538, longitude: 3.0588 } },
  { near: { latitude: 36.7538, longitude: 3.0588 }, radiusKm: 5 },
  { near: { latitude: 36.7538, longitude: 3.0588 }, radiusKm: 500, wilaya: "31" },
  { near: { latitude: 35.6971, longitude: -0.6308 }, radiusKm: 30, q: "oran" },
  { near: { latitude: 22.785, longitude: 5.5228 }, radiusKm: 500 },
  { near: { latitude: 48.8566, longitude: 2.3522 }, radiusKm: 100 }
];

function directoryContract(open: () => Promise<ThrowAwayDatabase>) {
  let db: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await open());
    // A table as it stands before 004, holding an operator's edit and a point of the old free-text shape.
    await migrateUpTo(db, "parcels", MIGRATION);
    await db.query(
      `INSERT INTO parcels.relay_points (code, name, city, wilaya, address, active) VALUES
        ('DZ-16-ALGER-CENTRE', 'Librairie Didouche (renamed by an operator)', 'Alger Centre', '16', '42 Rue Didouche Mourad, Alger Centre', true),
        ('DZ-LEGACY-POINT', 'Point ancien', 'Alger', 'Alger', NULL, true)`
    );
  }, 60_000);

  afterAll(() => close());

  test("004 applies over existing rows, once", async () => {
    // 004 first, then whatever later migrations exist.
    expect((await migrateSchema(db, "parcels"))[0]).toBe(MIGRATION);
    expect(await migrateSchema(db, "parcels")).toEqual([]);
    const [legacy] = await db.query<Row>(`SELECT ${COLUMNS} FROM parcels.relay_points WHERE code = 'DZ-LEGACY-POINT'`);
    expect(legacy).toMatchObject({ wilaya: "Alger", latitude: null, longitude: null, opening_hours: null, name_ar: null });
  });

  test("the seed adds the shipped points and fills older rows without overwriting an operator's edit", async () => {
    await seed(db, directory);
    await seed(db, directory);
    const rows = await db.query<Row>(
      `SELECT ${COLUMNS} FROM parcels.relay_points WHERE code <> 'DZ-LEGACY-POINT' ORDER BY code COLLATE "C"`
    );
    expect(rows).toHaveLength(directory.length);
    const alger = rows.find(r => r.code === "DZ-16-ALGER-CENTRE")!;
    expect(alger.name).toBe("Librairie Didouche (renamed by an operator)");
    expect(alger).toMatchObject({ name_ar: "مكتبة ديدوش", latitude: 36.76695, longitude: 3.05287 });
    expect(alger.opening_hours).toEqual(directory.find(p => p.code === "DZ-16-ALGER-CENTRE")!.openingHours);
    // Everything but the edited name came back as shipped: jsonb and double precision round-trip.
    expect(rows.map(toEntry).filter(p => p.code !== "DZ-16-ALGER-CENTRE")).toEqual(
      directory.filter(p => p.code !== "DZ-16-ALGER-CENTRE").sort((a, b) => (a.code < b.code ? -1 : 1))
    );
  });

  test("the back-office's replace sets every field, a missing one to null; the seed then fills only what is missing", async () => {
    const shipped = directory.find(p => p.code === "DZ-31-ORAN-CENTRE")!;
    const replaced = await upsertRelayPoint(db, { ...shipped, name: "Kiosque Oran", latitude: null, longitude: null, openingHours: null });
    expect(replaced).toEqual({ ...shipped, name: "Kiosque Oran", latitude: null, longitude: null, openingHours: null });
    expect(await findRelayPoint(db, shipped.code)).toEqual(replaced);
    await seed(db, directory);
    expect(await findRelayPoint(db, shipped.code)).toEqual({ ...shipped, name: "Kiosque Oran" });
    await upsertRelayPoint(db, shipped);
    expect((await listRelayPoints(db)).map(p => p.code)).toEqual([...directory.map(p => p.code), "DZ-LEGACY-POINT"].sort());

    // A shipped point without the optional fields is stored with SQL NULLs (the table refuses a JSON null).
    const bare = { ...shipped, code: "DZ-99-SEED-BARE", nameAr: null, cityAr: null, latitude: null, longitude: null, openingHours: null };
    await seed(db, [bare]);
    expect(await findRelayPoint(db, bare.code)).toEqual(bare);
    await db.query("DELETE FROM parcels.relay_points WHERE code = $1", [bare.code]);
  });

  test("its checks refuse what the directory must never hold", async () => {
    const insert = (overrides: Record<string, unknown>) => {
      const row = {
        code: `DZ-99-T${randomUUID().slice(0, 8).toUpperCase()}`,
        name: "Test",
        city: "Alger",
        wilaya: "16",
        latitude: 36.7,
        longitude: 3.05,
        opening_hours: JSON.stringify(directory[0].openingHours),
        ...overrides
      };
      return db.query(
        "INSERT INTO parcels.relay_points (code, name, city, wilaya, latitude, longitude, opening_hours) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        [row.code, row.name, row.city, row.wilaya, row.latitude, row.longitude, row.opening_hours]
      );
    };
    await expect(insert({})).resolves.toEqual([]);
    await expect(insert({ latitude: null, longitude: null, opening_hours: null })).resolves.toEqual([]);
    await expect(insert({ latitude: 91 })).rejects.toThrow(/check constraint/);
    await expect(insert({ longitude: -180.5 })).rejects.toThrow(/check constraint/);
    await expect(insert({ longitude: null })).rejects.toThrow(/relay_points_position_pair/);
    const { sun: _sun, ...sixDays } = directory[0].openingHours!;
    await expect(insert({ opening_hours: JSON.stringify(sixDays) })).rejects.toThrow(/check constraint/);
    await expect(insert({ opening_hours: JSON.stringify({ ...sixDays, sun: {} }) })).rejects.toThrow(/check constraint/);
    await expect(insert({ opening_hours: JSON.stringify([]) })).rejects.toThrow(/check constraint/);
    await expect(db.query("UPDATE parcels.relay_points SET name_ar = '  ' WHERE code = 'DZ-31-ORAN-CENTRE'")).rejects.toThrow(
      /check constraint/
    );
    await db.query("DELETE FROM parcels.relay_points WHERE code LIKE 'DZ-99-T%'");
  });

  test("the SQL fold is services/parcels/search-text.ts's, on every name of the directory and on awkward input", async () => {
    const samples = [
      ...directory.flatMap(p => [p.code, p.name, p.nameAr ?? "", p.city, p.cityAr ?? "", p.address ?? ""]),
      "ÀÂÄÁÃÇÉÈÊËÎÏÍÌÔÖÓÒÕÛÜÙÚŸÑ àâäáãçéèêëîïíìôöóòõûüùúÿñ",
      "أإآٱ ةىؤئ ٠١٢٣٤٥٦٧٨٩ عـــنابة مَكْتَبَةُ",
      "M'Sila — Bordj-Bou-Arréridj / N°12",
      ""
    ];
    const rows = await db.query<{ folded: string[] }>(
      "SELECT array(SELECT parcels.fold_search_text(s) FROM unnest($1::text[]) AS s) AS folded",
      [samples]
    );
    expect(rows[0].folded).toEqual(samples.map(foldSearchText));
  });

  test.each(QUERIES.map(q => [JSON.stringify(q), q] as const))("the store's search answers as the reference: %s", async (_label, query) => {
    // Every row, the legacy point without a position included.
    const stored = (await db.query<Row>(`SELECT ${COLUMNS} FROM parcels.relay_points`)).map(toEntry);
    for (const [page, size] of [
      [0, 20],
      [1, 3]
    ]) {
      const full = { ...query, page, size };
      expect(await searchInDatabase(db, full)).toEqual(searchRelayPoints(stored, full));
    }
  });

  test("the search can use the indexes", async () => {
    const plans = await db.transaction(async tx => {
      await tx.query("SET LOCAL enable_seqscan = off");
      const explain = async (sql: string, params: unknown[]) =>
        (await tx.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, params)).map(r => r["QUERY PLAN"]).join("\n");
      return {
        wilaya: await explain("SELECT code FROM parcels.relay_points WHERE active AND wilaya = $1 ORDER BY wilaya, code", ["16"]),
        formerWilaya: await explain("SELECT code FROM parcels.relay_points WHERE active AND former_wilaya = $1", ["28"]),
        commune: await explain("SELECT code FROM parcels.relay_points WHERE active AND commune = $1", ["2820"]),
        city: await explain("SELECT code FROM parcels.relay_points WHERE active AND city_key = $1", ["oran"]),
        position: await explain(
          "SELECT code FROM parcels.relay_points WHERE active AND latitude BETWEEN $1 AND $2 AND longitude BETWEEN $3 AND $4",
          [36.5, 37, 2.8, 3.3]
        )
      };
    });
    expect(plans.wilaya).toContain("relay_points_active_wilaya");
    expect(plans.formerWilaya).toContain("relay_points_active_former_wilaya");
    expect(plans.commune).toContain("relay_points_active_commune");
    expect(plans.city).toContain("relay_points_active_city");
    expect(plans.position).toContain("relay_points_active_position");
  });
}

describe("relay directory (migration 004) on PGlite", () => directoryContract(openThrowAwayPglite));
describeWithServers(["postgres"], "relay directory (migration 004) on the PostgreSQL server", () =>
  directoryContract(openThrowAwayPostgres)
);
