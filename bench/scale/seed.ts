import type { Database } from "../../lib/db/database";

/**
 * Issue 48: a database grown in SQL (generate_series, minutes not hours): `parcels` parcels over
 * 1,000 organisations and 2,000 relay points, with realistic statuses (most delivered, a share at
 * the counter, in transit, returned, cancelled), three history lines each, one webhook event each
 * for the last 30 days' (older ones are purged),
 * and the counters the list's totals read. Spread over a year, newest last. One organisation
 * (BIG_ORG) holds a tenth of them, as the probe's did, for the deep pages.
 */

export const ORGS = 1_000;
export const RELAYS = 2_000;
export const BIG_ORG = "00000000-0000-4000-8000-000000000001";
const CHUNK = 500_000;

const org = (n: string) => `('00000000-0000-4000-8000-' || lpad(to_hex(${n}), 12, '0'))::uuid`;
const relay = (n: string) => `'DZ-16-S' || lpad(((${n}) % ${RELAYS})::text, 5, '0')`;

/**
 * `bigOrg`: the organisation holding a tenth (the scale bench passes the one it made through the
 * running system, so that its key reads them); `sealed`: the recipient's name and phone sealed with
 * that system's ENCRYPTION_KEY, so that the API can open what it lists.
 */
export interface SeedShape {
  bigOrg: string;
  /** `nothing`: the empty text sealed, what the erasure pass writes over a name and a phone. */
  sealed: { name: string; phone: string; nothing: string } | null;
}

/**
 * The system's PII_RETENTION_DAYS (its default): a parcel ended longer ago than this is seeded as
 * the erasure pass leaves it (decision 0061), as in a database that has run that long, so that the
 * system started on the seed does not spend the measured minutes working off a year's backlog.
 */
export const SEED_RETENTION_DAYS = 180;

const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;

export async function seedScale(
  db: Database,
  parcels: number,
  onChunk: (done: number) => void,
  shape: SeedShape = { bigOrg: BIG_ORG, sealed: null }
): Promise<void> {
  const bigOrg = shape.bigOrg;
  const name = quoted(shape.sealed?.name ?? "v1:seeded-name");
  const phone = quoted(shape.sealed?.phone ?? "v1:seeded-phone");
  const nothing = quoted(shape.sealed?.nothing ?? "v1:seeded-erased");
  await db.exec(`
    INSERT INTO parcels.relay_points (code, name, city, wilaya, active, capacity)
    SELECT ${relay("g")}, 'Relais ' || g, 'Alger', '16', true, 100000 FROM generate_series(0, ${RELAYS - 1}) g
    ON CONFLICT DO NOTHING;`);
  for (let from = 0; from < parcels; from += CHUNK) {
    const to = Math.min(parcels, from + CHUNK) - 1;
    // A tenth on bigOrg (every 10th parcel), the rest spread over the others.
    await db.exec(`
      INSERT INTO parcels.parcels (id, organization_id, mode, tracking_number, status, destination_relay_code,
          recipient_name_enc, recipient_phone_enc, weight_g, price_centimes, direction, created_at, updated_at, pii_erased_at)
      SELECT md5('p' || g)::uuid,
             CASE WHEN g % 10 = 0 THEN '${bigOrg}'::uuid ELSE ${org("2 + g % " + (ORGS - 1))} END,
             'live', 'SC' || lpad(g::text, 9, '0') || 'DZ', p.status, ${relay("g")},
             CASE WHEN p.erased THEN ${nothing} ELSE ${name} END, CASE WHEN p.erased THEN ${nothing} ELSE ${phone} END,
             800, 45000, 'OUTBOUND', p.created_at, p.ended_at,
             CASE WHEN p.erased THEN p.ended_at + make_interval(days => ${SEED_RETENTION_DAYS}) END
        FROM generate_series(${from}, ${to}) g,
             LATERAL (SELECT (ARRAY['DELIVERED','DELIVERED','DELIVERED','DELIVERED','DELIVERED','DELIVERED','RELAY_NOTIFIED','IN_TRANSIT','RETURNED','CANCELLED'])[1 + (g * 7) % 10] AS status,
                             now() - make_interval(secs => (${parcels} - g) * (31536000.0 / ${parcels})) AS created_at) AS c,
             LATERAL (SELECT c.status, c.created_at, c.created_at + interval '2 days' AS ended_at,
                             c.status IN ('DELIVERED', 'RETURNED', 'CANCELLED')
                               AND c.created_at + interval '2 days' < now() - make_interval(days => ${SEED_RETENTION_DAYS}) AS erased) AS p;
      INSERT INTO parcels.status_history (parcel_id, from_status, to_status, reason, actor, created_at)
      SELECT md5('p' || g)::uuid, s.from_status, s.to_status, NULL, 'system', now() - make_interval(secs => (${parcels} - g) * (31536000.0 / ${parcels}))
        FROM generate_series(${from}, ${to}) g,
             (VALUES (NULL, 'CREATED'), ('CREATED', 'READY_FOR_PICKUP'), ('READY_FOR_PICKUP', 'PICKED_UP')) AS s (from_status, to_status);
      INSERT INTO webhooks.events (id, organization_id, mode, parcel_id, type, payload, created_at)
      SELECT md5('e' || g)::uuid,
             CASE WHEN g % 10 = 0 THEN '${bigOrg}'::uuid ELSE ${org("2 + g % " + (ORGS - 1))} END,
             'live', md5('p' || g)::uuid, 'parcel.created', '{"seeded": true}'::json,
             now() - make_interval(secs => (${parcels} - g) * (31536000.0 / ${parcels}))
        FROM generate_series(${from}, ${to}) g
       -- The webhooks service deletes events after 30 days (EVENT_RETENTION_DAYS): a steady table holds a month's.
       WHERE g >= ${parcels} - ${parcels} * 30 / 365;`);
    onChunk(to + 1);
  }
  // The counters the list's totals read (migration parcels/005), from what was seeded.
  await db.exec(`
    DELETE FROM parcels.parcel_counts;
    INSERT INTO parcels.parcel_counts (organization_id, mode, status, shard, n)
    SELECT organization_id, mode, status, 0, count(*) FROM parcels.parcels GROUP BY 1, 2, 3;`);
  // The visibility map, so that an index-only scan is one (autovacuum would do it, later).
  for (const table of ["parcels.parcels", "parcels.status_history", "webhooks.events", "parcels.parcel_counts", "parcels.relay_points"])
    await db.exec(`VACUUM (ANALYZE) ${table}`);
}
