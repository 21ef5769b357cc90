import { randomUUID } from "node:crypto";
import { COMMUNES } from "../../lib/communes";
import type { Database } from "../../lib/db/database";
import { migrateSchema } from "../../lib/db/migrate";
import { formerWilayaOf } from "../../lib/wilayas";
import { searchRelayPoints as searchInMemory } from "../../services/parcels/relay-search";
import { RELAY_POINT_COLUMNS, RelayPointRow, searchRelayPoints, toRelayPointEntry } from "../../services/parcels/relay-points.store";
import { migrateUpTo, openThrowAwayPglite, openThrowAwayPostgres, ThrowAwayDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Migration parcels/028 (issue 47) on both engines: a relay point standing in a commune that law
 * 26-06 moved to one of the eleven new wilayas gets the new wilaya, its former wilaya and its
 * commune; its code, and the parcels addressed to it, stay as they were; the search by the former
 * wilaya still finds it, flagged. Every spelling of every moved commune (resources/communes.json)
 * moves a point, and only a point of the right parent wilaya.
 */

const MIGRATION = "028_wilayas_2026.sql";

/** Each spelling of each commune of wilayas 59–69, Latin or Arabic: the migration's rows must cover them all. */
const SPELLINGS = COMMUNES.filter(c => formerWilayaOf(c.wilaya) !== null).flatMap(c =>
  [c.name, c.nameAr, ...(c.aliases ?? [])].map(spelling => ({ commune: c, spelling, arabic: /[\u0621-\u064a]/.test(spelling) }))
);

const bulkCode = (i: number) => `DZ-TEST-${String(i).padStart(4, "0")}`;

function migrationContract(open: () => Promise<ThrowAwayDatabase>) {
  let db: Database;
  let close: () => Promise<void>;
  const parcelId = randomUUID();
  let versionBefore: number;

  const point = async (code: string) =>
    (await db.query<RelayPointRow>(`SELECT ${RELAY_POINT_COLUMNS} FROM parcels.relay_points WHERE code = $1`, [code])).map(
      toRelayPointEntry
    )[0];

  beforeAll(async () => {
    ({ db, close } = await open());
    await migrateUpTo(db, "parcels", MIGRATION);
    await db.query(
      `INSERT INTO parcels.relay_points (code, name, city, city_ar, wilaya) VALUES
        ('DZ-28-BOU-SAADA', 'Librairie Dinet', 'Bou Saâda', 'بوسعادة', '28'),
        ('DZ-17-AIN-OUSSERA', 'Superette', 'Ain Oussera', NULL, '17'),
        ('DZ-28-RUE-DU-MARCHE', 'Kiosque', 'Quartier du marché', 'بوسعادة', '28'),
        ('DZ-17-MIXED', 'Épicerie', 'MESSAAD', 'عين وسارة', '17'),
        ('DZ-28-MSILA', 'Librairie', 'M''Sila', 'المسيلة', '28'),
        ('DZ-16-BOU-SAADA', 'Homonyme', 'Bou Saâda', NULL, '16'),
        ('DZ-NO-WILAYA', 'Sans wilaya', 'Barika', NULL, NULL)`
    );
    await db.query(
      `INSERT INTO parcels.relay_points (code, name, city, city_ar, wilaya)
       SELECT code, 'Point', city, city_ar, wilaya FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(code, city, city_ar, wilaya)`,
      [
        SPELLINGS.map((_, i) => bulkCode(i)),
        SPELLINGS.map(s => (s.arabic ? "Ailleurs" : s.spelling)),
        SPELLINGS.map(s => (s.arabic ? s.spelling : null)),
        SPELLINGS.map(s => formerWilayaOf(s.commune.wilaya))
      ]
    );
    await db.query(
      `INSERT INTO parcels.parcels (id, organization_id, mode, tracking_number, status, destination_relay_code, recipient_name_enc,
         recipient_phone_enc, weight_g, price_centimes, updated_at)
       VALUES ($1, $2, 'live', 'RP000000000DZ', 'CREATED', 'DZ-28-BOU-SAADA', 'x', 'x', 1000, 40000, '2026-05-01T10:00:00Z')`,
      [parcelId, randomUUID()]
    );
    versionBefore = Number(
      (await db.query<{ version: string }>("SELECT version::text AS version FROM parcels.relay_directory_version"))[0].version
    );
  }, 60_000);

  afterAll(() => close());

  test("027 applies once, over existing points", async () => {
    // 027 first, then whatever later migrations exist.
    expect((await migrateSchema(db, "parcels"))[0]).toBe(MIGRATION);
    expect(await migrateSchema(db, "parcels")).toEqual([]);
  });

  test("a point of a moved commune gets the new wilaya, its former wilaya and its commune; its code stays", async () => {
    expect(await point("DZ-28-BOU-SAADA")).toMatchObject({ code: "DZ-28-BOU-SAADA", wilaya: "68", formerWilaya: "28", commune: "2820" });
    // The dataset's spelling of the decree's Aïn Ouessara; the Arabic city alone; the Latin city before the Arabic one.
    expect(await point("DZ-17-AIN-OUSSERA")).toMatchObject({ wilaya: "65", formerWilaya: "17", commune: "1731" });
    expect(await point("DZ-28-RUE-DU-MARCHE")).toMatchObject({ wilaya: "68", formerWilaya: "28", commune: "2820" });
    expect(await point("DZ-17-MIXED")).toMatchObject({ wilaya: "66", formerWilaya: "17", commune: "1717" });
  });

  test("a point of a commune that stayed, of another wilaya or of no wilaya is left alone", async () => {
    for (const code of ["DZ-28-MSILA", "DZ-16-BOU-SAADA", "DZ-NO-WILAYA"]) {
      const { wilaya, formerWilaya, commune } = await point(code);
      expect({ code, wilaya, formerWilaya, commune }).toEqual({
        code,
        wilaya: { "DZ-28-MSILA": "28", "DZ-16-BOU-SAADA": "16", "DZ-NO-WILAYA": null }[code],
        formerWilaya: null,
        commune: null
      });
    }
  });

  test("every spelling of every commune of the eleven wilayas moves its point to that commune", async () => {
    const rows = await db.query<RelayPointRow>(
      `SELECT ${RELAY_POINT_COLUMNS} FROM parcels.relay_points WHERE code LIKE 'DZ-TEST-%' ORDER BY code`
    );
    const moved = rows
      .map(toRelayPointEntry)
      .map(p => ({ code: p.code, wilaya: p.wilaya, formerWilaya: p.formerWilaya, commune: p.commune }));
    expect(moved).toEqual(
      SPELLINGS.map((s, i) => ({
        code: bulkCode(i),
        wilaya: s.commune.wilaya,
        formerWilaya: formerWilayaOf(s.commune.wilaya),
        commune: s.commune.code
      }))
    );
  });

  test("the parcels addressed to a moved point keep it, untouched; the relay directory's counter moved", async () => {
    const [parcel] = await db.query<{ destination_relay_code: string; updated_at: Date }>(
      "SELECT destination_relay_code, updated_at FROM parcels.parcels WHERE id = $1",
      [parcelId]
    );
    expect(parcel.destination_relay_code).toBe("DZ-28-BOU-SAADA");
    expect(new Date(parcel.updated_at).toISOString()).toBe("2026-05-01T10:00:00.000Z");
    const [{ version }] = await db.query<{ version: string }>("SELECT version::text AS version FROM parcels.relay_directory_version");
    expect(Number(version)).toBeGreaterThan(versionBefore);
  });

  test("the search by the former wilaya still finds a moved point, flagged; by the new one too; SQL and reference agree", async () => {
    const stored = (await db.query<RelayPointRow>(`SELECT ${RELAY_POINT_COLUMNS} FROM parcels.relay_points`)).map(toRelayPointEntry);
    const byParent = await searchRelayPoints(db, { wilaya: "28", q: "dz-28", page: 0, size: 100 });
    expect(byParent.items.map(p => [p.code, p.wilaya, p.formerWilaya])).toEqual([
      ["DZ-28-BOU-SAADA", "68", "28"],
      ["DZ-28-MSILA", "28", null],
      ["DZ-28-RUE-DU-MARCHE", "68", "28"]
    ]);
    expect(byParent).toEqual(searchInMemory(stored, { wilaya: "28", q: "dz-28", page: 0, size: 100 }));
    const byNew = await searchRelayPoints(db, { wilaya: "68", q: "dz-28", page: 0, size: 100 });
    expect(byNew.items.map(p => p.code)).toEqual(["DZ-28-BOU-SAADA", "DZ-28-RUE-DU-MARCHE"]);
    expect(byNew.items[0]).toMatchObject({ commune: "2820", communeName: "Bou Saâda", communeNameAr: "بوسعادة" });
  });
}

describe("parcels migration 027 (the 2026 wilayas) on PGlite", () => migrationContract(openThrowAwayPglite));
describeWithServers(["postgres"], "parcels migration 027 (the 2026 wilayas) on the PostgreSQL server", () =>
  migrationContract(openThrowAwayPostgres)
);
