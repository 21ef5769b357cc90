import fs from "node:fs";
import { Client } from "pg";
import { migrateSchema } from "../../lib/db/migrate";
import { openPostgres } from "../../lib/db/postgres";
import { findVisible, listVisible, publicTrackingSource } from "../../services/parcels/parcels.store";
import { listAtCounter } from "../../services/parcels/relay/relay.store";
import { listEvents } from "../../services/webhooks/webhooks.store";
import { POSITION_AT_SQL } from "../../services/parcels/list-cursor";
import { BIG_ORG, seedScale } from "./seed";
import { bytesPerParcel, explain, PlanCheck, Recorded, recording } from "./plans";

/**
 * `npm run bench -- --scale 1m|10m [--json FILE]` (issue 48): grows a database of its own on the
 * local PostgreSQL (relay_scale, dropped at the end), then reads it through the services' own
 * store functions and prints each read's plan check, literal and prepared, and the bytes per
 * parcel. Not yet: the requests/s of each row beside an empty database (docs/development/benchmarks.md).
 */

const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const DATABASE = "relay_scale";

export function parseScale(text: string): number {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text);
  if (!m) throw new Error("--scale takes a count such as 100k, 1m or 10m");
  return Math.round(Number(m[1]) * (m[2].toLowerCase() === "m" ? 1e6 : m[2].toLowerCase() === "k" ? 1e3 : 1));
}

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface Row {
  row: string;
  statements: { sql: string; literal: Omit<PlanCheck, "plan">; prepared: Omit<PlanCheck, "plan"> }[];
}

export async function runScale(parcels: number, jsonFile: string | null): Promise<void> {
  const url = ADMIN_URL.replace(/\/[^/]*$/, `/${DATABASE}`);
  await admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DATABASE}`);
  const db = openPostgres(url, 2, "relay-bench-scale");
  try {
    for (const schema of ["auth", "parcels", "wallet", "webhooks", "notifications"]) await migrateSchema(db, schema);
    const started = Date.now();
    await seedScale(db, parcels, done => process.stderr.write(`\rseeded ${done.toLocaleString("en")} parcels`));
    const seedSeconds = Math.round((Date.now() - started) / 1000);
    process.stderr.write(`\nseeded in ${seedSeconds} s\n`);

    const owner = { organizationId: BIG_ORG, mode: "live" as const };
    const [sample] = await db.query<{ id: string; tracking_number: string; destination_relay_code: string }>(
      `SELECT id, tracking_number, destination_relay_code FROM parcels.parcels WHERE organization_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET 5000`,
      [BIG_ORG]
    );
    // The cursor as deep as page 2000 of size 20, in one status.
    const [deep] = await db.query<{ id: string; position_at: string }>(
      `SELECT id, ${POSITION_AT_SQL} AS position_at FROM parcels.parcels WHERE organization_id = $1 AND mode = 'live' AND status = 'DELIVERED'
        ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET $2`,
      // As deep as page 2000 where the organisation has that many (a small scale: half its delivered ones).
      [BIG_ORG, Math.min(40_000, Math.floor(parcels * 0.03))]
    );
    const reads: [string, (q: ReturnType<typeof recording>) => Promise<unknown>][] = [
      ["get by id", q => findVisible(q, owner, { id: sample.id })],
      ["tracking lookup", q => findVisible(q, owner, { trackingNumber: sample.tracking_number })],
      ["list, first page", q => listVisible(q, owner, { status: null, page: 0, size: 20 })],
      ["list, page=2000 (SPEC)", q => listVisible(q, owner, { status: null, page: 2000, size: 20 })],
      [
        "list, cursor as deep, status filter",
        q => listVisible(q, owner, { status: "DELIVERED", page: 0, size: 20, after: { createdAt: deep.position_at, id: deep.id } })
      ],
      ["public tracking", q => publicTrackingSource(q, sample.tracking_number)],
      ["relay shelf", q => listAtCounter(q, sample.destination_relay_code, { status: null, page: 0, size: 20 })],
      [
        "events API",
        q => listEvents(q, { organizationId: BIG_ORG, mode: "live", after: null, type: null, parcelId: null, limit: 50, retentionDays: 30 })
      ]
    ];
    const rows: Row[] = [];
    for (const [name, read] of reads) {
      const recorded: Recorded[] = [];
      await read(recording(db, recorded));
      const statements = [];
      for (const statement of recorded) {
        const { literal, prepared } = await explain(url, statement);
        if (literal.seqScanOnBigTable || literal.diskSort || prepared.seqScanOnBigTable || prepared.diskSort)
          process.stdout.write(`\n--- ${name}: ${statement.sql}\n${literal.plan}\n--- prepared\n${prepared.plan}\n`);
        const strip = ({ plan: _plan, ...rest }: PlanCheck) => rest;
        statements.push({ sql: statement.sql.replace(/\s+/g, " ").slice(0, 100), literal: strip(literal), prepared: strip(prepared) });
      }
      rows.push({ row: name, statements });
    }
    const bytes = await bytesPerParcel(db);

    const flag = (c: Omit<PlanCheck, "plan">) =>
      `${c.ms.toFixed(2)} ms${c.seqScanOnBigTable ? " SEQ SCAN" : ""}${c.diskSort ? " DISK SORT" : ""}`;
    process.stdout.write(`\n${parcels.toLocaleString("en")} parcels (seeded in ${seedSeconds} s); the organisation read holds a tenth\n\n`);
    process.stdout.write("| read | statement | literal | prepared (generic) |\n|---|---|---|---|\n");
    for (const row of rows)
      row.statements.forEach((s, i) =>
        process.stdout.write(`| ${i === 0 ? row.row : ""} | ${i + 1} | ${flag(s.literal)} | ${flag(s.prepared)} |\n`)
      );
    process.stdout.write(
      `\nbytes per parcel: ${bytes.total} (${Object.entries(bytes.bySchema)
        .map(([s, b]) => `${s} ${b}`)
        .join(", ")})\n`
    );
    if (jsonFile) fs.writeFileSync(jsonFile, `${JSON.stringify({ parcels, seedSeconds, rows, bytesPerParcel: bytes }, null, 2)}\n`);
  } finally {
    await db.close();
    await admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  }
}
