import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { encryptField } from "../../lib/crypto";
import { migrateSchema } from "../../lib/db/migrate";
import type { Database } from "../../lib/db/database";
import { openPostgres } from "../../lib/db/postgres";
import { findVisible, listVisible, publicTrackingSource } from "../../services/parcels/parcels.store";
import { listAtCounter } from "../../services/parcels/relay/relay.store";
import { listEvents } from "../../services/webhooks/webhooks.store";
import { encodeCursor, POSITION_AT_SQL } from "../../services/parcels/list-cursor";
import type { LoadStats } from "../stats";
import type { HttpRequestSpec } from "../wrk";
import { startDistributed } from "../systems/distributed";
import { backoffice, CREATE_BODY, CreatedParcel, createMerchant, createParcel, Merchant, merchantOf } from "../systems/merchant";
import type { RunningSystem } from "../systems/system";
import { deepPageRatio, medianRows, RateRow, rateJson, rateTable } from "./rate-table";
import { keepSeed, KeptSeed, keptSeedOf } from "./kept-seed";
import { agentKeyOf, CONNECTIONS, measureRates, RateTarget, rateRows } from "./rates";
import { seedScale } from "./seed";
import { bytesPerParcel, explain, PlanCheck, Recorded, recording } from "./plans";

/**
 * `npm run bench -- --scale 1m|10m [--json FILE]` (issue 48): grows a database of its own on the
 * local PostgreSQL (relay_scale, dropped at the end), then reads it through the services' own
 * store functions and prints each read's plan check, literal and prepared, and the bytes per
 * parcel; then each row's requests/s through the distributed system on it, beside the same row
 * on an empty database measured first in the same run (rates.ts, rate-table.ts).
 */

const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
/** BENCH_SCALE_DATABASE: another name lets a second run (a small one, say) leave a kept seed alone. */
const DATABASE = process.env.BENCH_SCALE_DATABASE ?? "relay_scale";

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

/** A position as the list's cursor spells it, to the microsecond. */
const positionOf = (at: Date) => at.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");

/** The system's own objects for the rate rows: a parcel it made, an agent key of `relayCode`. */
async function targetOn(system: RunningSystem, merchant: Merchant, relayCode: string, cursor: string, status: string): Promise<RateTarget> {
  const parcel = await createParcel(system.baseUrl, merchant.liveKey);
  return {
    key: merchant.liveKey,
    parcelId: parcel.id,
    trackingNumber: parcel.trackingNumber,
    relayCode,
    agentKey: await agentKeyOf(system, relayCode),
    cursor,
    cursorStatus: status
  };
}

/**
 * A page of every read on the "empty" side: 60 parcels, 25 of them moved on to IN_TRANSIT to its
 * relay point (on that relay's shelf, and a status the cursor row filters on), so that each row
 * answers the same shape on both sides (20 parcels, 50 events) and a ratio measures what the
 * database holds, not the size of the answer (an empty page serialises faster than a full one).
 */
const EMPTY_PARCELS = 60;
const EMPTY_IN_TRANSIT = 25;

/** EMPTY_PARCELS parcels for `relayCode`, EMPTY_IN_TRANSIT of them moved on to IN_TRANSIT (its shelf's page). */
async function fillShelf(system: RunningSystem, merchant: Merchant, relayCode: string): Promise<CreatedParcel[]> {
  const body = JSON.stringify({ ...(JSON.parse(CREATE_BODY) as object), destinationRelayCode: relayCode });
  const made: CreatedParcel[] = [];
  for (let i = 0; i < EMPTY_PARCELS; i++) made.push(await createParcel(system.baseUrl, merchant.liveKey, body));
  for (const parcel of made.slice(0, EMPTY_IN_TRANSIT))
    for (const toStatus of ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT"])
      await backoffice(system.baseUrl, system.backofficeToken, "POST", `/parcels/${parcel.id}/transitions`, { toStatus });
  return made;
}

/** The distributed system over an almost empty (throw-away) database, and what its rate rows read. */
async function emptySide(logDir: string): Promise<{ system: RunningSystem; target: RateTarget }> {
  process.stderr.write("starting the distributed system on an empty database\n");
  const system = await startDistributed({ logLevel: "warn", logDir });
  try {
    const merchant = await createMerchant(system.baseUrl, system.backofficeToken, "Bench Scale Empty SARL", FUNDS_DZD);
    const made = await fillShelf(system, merchant, EMPTY_RELAY);
    const newest = made[made.length - 1];
    const cursor = encodeCursor({ createdAt: positionOf(new Date()), id: newest.id });
    return { system, target: await targetOn(system, merchant, EMPTY_RELAY, cursor, "IN_TRANSIT") };
  } catch (err) {
    await system.stop();
    throw err;
  }
}

/**
 * Row by row, the empty side then the scaled one (both systems up), so that the shared machine's
 * drift over the minutes of the run lands on both sides of a ratio rather than on one; `rounds`
 * times, the order of the two sides swapped each round, each side's median kept (medianRows).
 */
async function interleavedRates(
  empty: [string, HttpRequestSpec][],
  scaled: [string, HttpRequestSpec][],
  rounds: number
): Promise<RateRow[]> {
  const say = (side: string, round: number) => (row: string, stats: LoadStats) =>
    process.stderr.write(
      `round ${round + 1}/${rounds} ${side}: ${row} ${Math.round(stats.rate)} req/s` +
        `${stats.bytesPerAnswer ? `, ${Math.round(stats.bytesPerAnswer)} B an answer` : ""}${stats.errors ? ` (${stats.errors} errors)` : ""}\n`
    );
  const all: RateRow[][] = [];
  for (let round = 0; round < rounds; round++) {
    const rows: RateRow[] = [];
    for (const [i, [row]] of empty.entries()) {
      const one = async (side: "empty" | "scaled") =>
        (await measureRates([(side === "empty" ? empty : scaled)[i]], SECONDS, say(side, round))).get(row) as LoadStats;
      const [e, s] = round % 2 === 0 ? [await one("empty"), await one("scaled")] : [await one("scaled"), await one("empty")].reverse();
      rows.push({ row, empty: e.rate, scaled: s.rate, errors: e.errors + s.errors });
    }
    all.push(rows);
  }
  return medianRows(all);
}

/**
 * The seeded events carry a placeholder payload, which the events API cannot show: they take the
 * payload of an event the running system wrote itself (each with its own id), so that the API
 * answers them as its own.
 */
async function realEventPayloads(db: Database, organizationId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [real] = await db.query<{ payload: string }>(
      `SELECT payload::text AS payload FROM webhooks.events WHERE organization_id = $1 AND payload::text NOT LIKE '%"seeded"%' LIMIT 1`,
      [organizationId]
    );
    if (real) {
      await db.query(
        `UPDATE webhooks.events SET payload = CASE WHEN $1::jsonb ? 'id' THEN jsonb_set($1::jsonb, '{id}', to_jsonb(id::text))::json ELSE $1::json END
          WHERE payload::text LIKE '%"seeded"%'`,
        [real.payload]
      );
      await db.exec("VACUUM (ANALYZE) webhooks.events");
      return;
    }
    if (Date.now() > deadline) throw new Error("the system wrote no event for its first parcel within 30 s");
    await new Promise(resolve => setTimeout(resolve, 500));
  }
}

const FUNDS_DZD = 50_000_000;
/** A relay point of the directory the empty system holds (the scaled one also has the seeded ones). */
const EMPTY_RELAY = "DZ-16-ALGER-CENTRE";
const SECONDS = 5;

export interface ScaleOptions {
  jsonFile: string | null;
  /** Leave relay_scale in place at the end, for a later run to reuse (kept-seed.ts). */
  keep: boolean;
  /** Seed (or find the kept seed) and stop: no plans, no rates; implies keep. */
  seedOnly: boolean;
  /** Rounds of the rate rows, each side's median kept. */
  rounds: number;
}

/** A kept relay_scale seeded with exactly `parcels`, or null (none, or another count: seeded again). */
async function reusableSeed(url: string, parcels: number): Promise<KeptSeed | null> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
    if (!rowCount) return null;
  } finally {
    await client.end();
  }
  const db = openPostgres(url, 1, "relay-bench-scale-probe");
  try {
    const kept = await keptSeedOf(db);
    return kept?.parcels === parcels ? kept : null;
  } finally {
    await db.close();
  }
}

export async function runScale(parcels: number, options: ScaleOptions): Promise<void> {
  const { jsonFile, seedOnly, rounds } = options;
  const keep = options.keep || seedOnly;
  const url = ADMIN_URL.replace(/\/[^/]*$/, `/${DATABASE}`);
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-bench-scale-"));
  const kept = await reusableSeed(url, parcels);
  const empty = seedOnly ? null : await emptySide(logDir);
  if (!kept) {
    await admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${DATABASE}`);
  }
  const db = openPostgres(url, 2, "relay-bench-scale");
  let system: RunningSystem | null = null;
  try {
    // Again on a kept seed: a migration added since it was seeded applies to it as to a deployment.
    for (const schema of ["auth", "parcels", "wallet", "webhooks", "notifications"]) await migrateSchema(db, schema);
    // The system runs on the scaled database: the organisation holding a tenth is the one it made,
    // and the seeded recipients are sealed with its key, so its API reads them as its own.
    process.stderr.write("starting the distributed system on relay_scale\n");
    system = await startDistributed({ logLevel: "warn", logDir }, { name: DATABASE, url, encryptionKey: kept?.encryptionKey });
    let merchant: Merchant;
    let seedSeconds: number;
    if (kept) {
      process.stderr.write(
        `reusing relay_scale: ${parcels.toLocaleString("en")} parcels seeded ${kept.seededAt.toISOString()} in ${kept.seedSeconds} s\n`
      );
      merchant = await merchantOf(system.baseUrl, system.backofficeToken, kept.organizationId, FUNDS_DZD);
      seedSeconds = kept.seedSeconds;
    } else {
      merchant = await createMerchant(system.baseUrl, system.backofficeToken, "Bench Scale SARL", FUNDS_DZD);
      // Its first parcel's event, whose payload the seeded events take (realEventPayloads).
      await createParcel(system.baseUrl, merchant.liveKey);
      const key = system.encryptionKey as string;
      const sealed = {
        name: encryptField("Destinataire Scale", key),
        phone: encryptField("0555 12 34 56", key),
        nothing: encryptField("", key)
      };
      const started = Date.now();
      await seedScale(db, parcels, done => process.stderr.write(`\rseeded ${done.toLocaleString("en")} parcels`), {
        bigOrg: merchant.organizationId,
        sealed
      });
      seedSeconds = Math.round((Date.now() - started) / 1000);
      process.stderr.write(`\nseeded in ${seedSeconds} s\n`);
      await realEventPayloads(db, merchant.organizationId);
      await keepSeed(db, { parcels, seedSeconds, encryptionKey: key, organizationId: merchant.organizationId });
    }
    if (seedOnly || !empty) {
      process.stdout.write(
        `${DATABASE} kept with ${parcels.toLocaleString("en")} parcels: \`npm run bench -- --scale ${parcels} …\` reuses it\n`
      );
      return;
    }
    const bigOrg = merchant.organizationId;

    const owner = { organizationId: bigOrg, mode: "live" as const };
    // A seeded parcel (SC…), 5,000 deep, or half the organisation's at a small scale: on a kept seed,
    // earlier runs' creates are newer, and a parcel of theirs would be at the bench's own relay point.
    const [sample] = await db.query<{ id: string; tracking_number: string }>(
      `SELECT id, tracking_number FROM parcels.parcels WHERE organization_id = $1 AND tracking_number LIKE 'SC%'
        ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET $2`,
      [bigOrg, Math.min(5000, Math.floor(parcels / 20))]
    );
    // The shelf: one of the directory's relay points with nothing on or toward its shelf yet, given the
    // empty side's page (fillShelf), so that both sides read a shelf of the same size and only the
    // database around it differs. (The seeded relay points' shelves hold about 5,000 parcels each:
    // the seed spreads the in-flight statuses over the whole year, which no counter ever holds.)
    const [shelf] = await db.query<{ code: string }>(
      `SELECT r.code FROM parcels.relay_points r
        WHERE r.code NOT LIKE 'DZ-__-S%' AND r.code <> $1
          AND NOT EXISTS (SELECT 1 FROM parcels.parcels p WHERE p.destination_relay_code = r.code AND p.status <> 'PENDING')
        ORDER BY r.code LIMIT 1`,
      [EMPTY_RELAY]
    );
    if (!shelf) throw new Error("no relay point of the directory is left without parcels: drop relay_scale and seed again");
    await fillShelf(system, merchant, shelf.code);
    // The cursor as deep as page 2000 of size 20, in one status.
    const [deep] = await db.query<{ id: string; position_at: string }>(
      `SELECT id, ${POSITION_AT_SQL} AS position_at FROM parcels.parcels WHERE organization_id = $1 AND mode = 'live' AND status = 'DELIVERED'
        ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET $2`,
      // As deep as page 2000 where the organisation has that many (a small scale: half its delivered ones).
      [bigOrg, Math.min(40_000, Math.floor(parcels * 0.03))]
    );
    const reads: [string, (q: ReturnType<typeof recording>) => Promise<unknown>][] = [
      ["get by id", q => findVisible(q, owner, { id: sample.id })],
      ["tracking lookup", q => findVisible(q, owner, { trackingNumber: sample.tracking_number })],
      ["list, first page", q => listVisible(q, owner, { status: null, page: 0, size: 20 })],
      // Read once unrecorded first: that read walks the offset and records a mark (decision 0067); the
      // plans are those of the reads after it, from the mark.
      [
        "list, page=2000 (SPEC)",
        async q => {
          await listVisible(db, owner, { status: null, page: 2000, size: 20 });
          return listVisible(q, owner, { status: null, page: 2000, size: 20 });
        }
      ],
      [
        "list, cursor as deep, status filter",
        q => listVisible(q, owner, { status: "DELIVERED", page: 0, size: 20, after: { createdAt: deep.position_at, id: deep.id } })
      ],
      ["public tracking", q => publicTrackingSource(q, sample.tracking_number)],
      ["relay shelf", q => listAtCounter(q, shelf.code, { status: null, page: 0, size: 20 })],
      [
        "events API",
        q => listEvents(q, { organizationId: bigOrg, mode: "live", after: null, type: null, parcelId: null, limit: 50, retentionDays: 30 })
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

    const target = await targetOn(system, merchant, shelf.code, encodeCursor({ createdAt: deep.position_at, id: deep.id }), "DELIVERED");
    const rates = await interleavedRates(rateRows(empty.system, empty.target, CREATE_BODY), rateRows(system, target, CREATE_BODY), rounds);

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
    process.stdout.write(
      `\nrequests/s, c${CONNECTIONS}, ${SECONDS} s each, median of ${rounds} rounds, the distributed system:\n\n${rateTable(rates)}\n`
    );
    const deepRatio = deepPageRatio(rates);
    if (deepRatio !== null)
      process.stdout.write(
        `\nthe SPEC's page=2000 on the scaled database: ${deepRatio.toFixed(2)} of its first page (goal: at least 0.25)\n`
      );
    if (jsonFile)
      fs.writeFileSync(
        jsonFile,
        `${JSON.stringify({ parcels, seedSeconds, rounds, rows: rateJson(rates, bytes.total), deepPageOfFirstPage: deepRatio, bytesPerParcel: bytes, plans: rows }, null, 2)}\n`
      );
  } finally {
    await system?.stop();
    await empty?.system.stop();
    await db.close();
    if (!keep) await admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    fs.rmSync(logDir, { recursive: true, force: true });
  }
}
