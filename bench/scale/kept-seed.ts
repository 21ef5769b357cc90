import type { Database } from "../../lib/db/database";

/**
 * A seeded relay_scale kept for a later run (`--keep`, `--seed-only`): ten million parcels take
 * most of an hour to grow, the rates a few minutes; kept, the seeding can run while the machine is
 * busy and the rates later on a quiet one. What a later run needs to read the seed as its own is
 * kept beside it: the encryption key the recipients were sealed with and the organisation that
 * holds a tenth (its API key is not kept: the later run draws a new one through the back office).
 * This is a bench's throw-away database, never a deployment's.
 */
export interface KeptSeed {
  parcels: number;
  seedSeconds: number;
  encryptionKey: string;
  organizationId: string;
  seededAt: Date;
}

const TABLE = "public.bench_scale_seed";

export async function keptSeedOf(db: Database): Promise<KeptSeed | null> {
  const [exists] = await db.query<{ present: boolean }>(`SELECT to_regclass('${TABLE}') IS NOT NULL AS present`);
  if (!exists?.present) return null;
  const [row] = await db.query<{ parcels: string; seed_seconds: number; encryption_key: string; organization_id: string; seeded_at: Date }>(
    `SELECT parcels, seed_seconds, encryption_key, organization_id, seeded_at FROM ${TABLE} LIMIT 1`
  );
  return row
    ? {
        parcels: Number(row.parcels),
        seedSeconds: row.seed_seconds,
        encryptionKey: row.encryption_key,
        organizationId: row.organization_id,
        seededAt: row.seeded_at
      }
    : null;
}

export async function keepSeed(db: Database, seed: Omit<KeptSeed, "seededAt">): Promise<void> {
  await db.exec(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (parcels bigint NOT NULL, seed_seconds int NOT NULL, encryption_key text NOT NULL, organization_id uuid NOT NULL, seeded_at timestamptz NOT NULL DEFAULT now())`
  );
  await db.query(`DELETE FROM ${TABLE}`);
  await db.query(`INSERT INTO ${TABLE} (parcels, seed_seconds, encryption_key, organization_id) VALUES ($1, $2, $3, $4)`, [
    seed.parcels,
    seed.seedSeconds,
    seed.encryptionKey,
    seed.organizationId
  ]);
}
