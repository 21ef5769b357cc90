import fs from "node:fs";
import path from "node:path";
import { migrationFiles, migrationsDir, plainStatements, runsOutsideTransaction } from "../../lib/db/migrate";
import { lockFindings } from "../helpers/migration-lint";

/**
 * Issue 48: a migration runs while the service serves, on tables that grow to ten million rows. A
 * statement that rewrites or scans such a table under a lock stops every writer for minutes; this
 * test refuses it (squawk's rules, test/helpers/migration-lint.ts) unless a `-- lock-ok: <reason>`
 * comment right before it argues the exception. Decision 0059.
 */

const SCHEMAS = fs.readdirSync(path.join(migrationsDir("parcels"), ".."));

/**
 * The files that ran before this test existed, each on an empty database first: kept as they are
 * (a migration is never edited once shipped). Numbers up to and including these are grandfathered.
 */
const GRANDFATHERED: Record<string, number> = { auth: 4, notifications: 10, parcels: 27, wallet: 8, webhooks: 2 };

const checked = SCHEMAS.flatMap(schema =>
  migrationFiles(schema)
    .filter(file => Number(file.slice(0, 3)) > (GRANDFATHERED[schema] ?? 0))
    .map(file => ({ schema, file, text: fs.readFileSync(path.join(migrationsDir(schema), file), "utf8") }))
);

describe("migrations take no lock a ten-million-row table cannot afford", () => {
  it("checks the files added since (parcels/028 onwards at least)", () => {
    expect(checked.map(m => `${m.schema}/${m.file}`)).toEqual(expect.arrayContaining(["parcels/028_wilayas_2026.sql"]));
  });

  it.each(checked.map(m => [`${m.schema}/${m.file}`, m.text]))("%s", (_name, text) => {
    expect(lockFindings(text)).toEqual([]);
  });

  it("a no-transaction file splits into the statements the linter read", () => {
    for (const { text } of checked.filter(m => runsOutsideTransaction(m.text)))
      for (const statement of plainStatements(text))
        expect(statement).toMatch(/^(CREATE (UNIQUE )?|DROP )INDEX CONCURRENTLY IF (NOT )?EXISTS /);
  });
});

describe("the rules", () => {
  const refused = (sql: string) => lockFindings(sql).map(f => f.problem);

  it.each([
    "CREATE INDEX parcels_x ON parcels.parcels (updated_at);",
    "DROP INDEX parcels.parcels_list;",
    "ALTER TABLE parcels.parcels ADD COLUMN token uuid DEFAULT gen_random_uuid();",
    "ALTER TABLE parcels.parcels ADD COLUMN n bigserial;",
    "ALTER TABLE parcels.parcels ADD COLUMN n int NOT NULL;",
    "ALTER TABLE parcels.parcels ADD COLUMN n int CHECK (n > 0);",
    "ALTER TABLE parcels.parcels ADD COLUMN r text REFERENCES parcels.relay_points (code);",
    "ALTER TABLE parcels.parcels ALTER COLUMN status SET NOT NULL;",
    "ALTER TABLE parcels.parcels ALTER COLUMN status TYPE varchar(20);",
    "ALTER TABLE parcels.parcels ADD CONSTRAINT c CHECK (price > 0);",
    "ALTER TABLE parcels.parcels ADD CONSTRAINT f FOREIGN KEY (r) REFERENCES parcels.relay_points (code);",
    "ALTER TABLE parcels.parcels ADD CONSTRAINT u UNIQUE (tracking_number);",
    "ALTER TABLE parcels.parcels RENAME COLUMN status TO state;",
    "VACUUM FULL parcels.parcels;",
    "CREATE INDEX CONCURRENTLY IF NOT EXISTS x ON parcels.parcels (id);",
    "-- migrate: no-transaction\nCREATE INDEX CONCURRENTLY x ON parcels.parcels (id);",
    "-- migrate: no-transaction\nUPDATE parcels.parcels SET n = 1;"
  ])("refuses %s", sql => {
    expect(refused(sql)).toHaveLength(1);
  });

  it.each([
    "ALTER TABLE parcels.parcels ADD COLUMN erased_at timestamptz;",
    "ALTER TABLE parcels.parcels ADD COLUMN flag boolean NOT NULL DEFAULT false;",
    "ALTER TABLE parcels.parcels ADD CONSTRAINT c CHECK (price > 0) NOT VALID;",
    "ALTER TABLE parcels.parcels VALIDATE CONSTRAINT c;",
    "CREATE TABLE parcels.t (id int);\nCREATE INDEX t_id ON parcels.t (id);\nALTER TABLE parcels.t ADD COLUMN n int NOT NULL;",
    "-- migrate: no-transaction\n-- why\nCREATE INDEX CONCURRENTLY IF NOT EXISTS x ON parcels.parcels (id);\nDROP INDEX CONCURRENTLY IF EXISTS parcels.y;",
    "-- lock-ok: relay_points holds a few thousand rows\nCREATE INDEX r ON parcels.relay_points (city);",
    "CREATE FUNCTION f() RETURNS void LANGUAGE sql AS $$ CREATE INDEX i ON parcels.parcels (id); $$;",
    "INSERT INTO parcels.t VALUES ('CREATE INDEX i ON x (y);');"
  ])("lets through %s", sql => {
    expect(refused(sql)).toEqual([]);
  });

  it("an exception needs its reason", () => {
    expect(refused("-- lock-ok:\nCREATE INDEX r ON parcels.relay_points (city);")).toHaveLength(1);
  });
});
