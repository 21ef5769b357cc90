import type { Queryable } from "../../lib/db/database";
import { isoOrNull } from "../../lib/db/rows";
import type { StaffPrincipal, StaffRole } from "../../lib/staff-keys";
import type { StaffKeyRecord } from "./auth.contract";

/** The SQL of staff keys (`auth.staff_keys`, migration auth/005), returning camelCase records. */

interface StaffKeyRow {
  id: string;
  role: StaffRole;
  subject_id: string;
  hub_id: string;
  name: string | null;
  key_prefix: string;
  created_at: Date;
  revoked_at: Date | null;
}

const COLUMNS = "id, role, subject_id, hub_id, name, key_prefix, created_at, revoked_at";

const toStaffKey = (row: StaffKeyRow): StaffKeyRecord => ({
  id: row.id,
  role: row.role,
  subjectId: row.subject_id,
  hubId: row.hub_id,
  name: row.name,
  keyPrefix: row.key_prefix,
  createdAt: row.created_at.toISOString(),
  revokedAt: isoOrNull(row.revoked_at)
});

export async function insertStaffKey(
  db: Queryable,
  key: { id: string; role: StaffRole; subjectId: string; hubId: string; name: string | null; keyPrefix: string; keyHash: string }
): Promise<StaffKeyRecord> {
  const [row] = await db.query<StaffKeyRow>(
    `INSERT INTO auth.staff_keys (id, role, subject_id, hub_id, name, key_prefix, key_hash) VALUES ($1, $2, $3, $4, $5, $6, $7)
     RETURNING ${COLUMNS}`,
    [key.id, key.role, key.subjectId, key.hubId, key.name, key.keyPrefix, key.keyHash]
  );
  return toStaffKey(row);
}

export async function listStaffKeys(db: Queryable, subjectId: string | null): Promise<StaffKeyRecord[]> {
  const rows = await db.query<StaffKeyRow>(
    `SELECT ${COLUMNS} FROM auth.staff_keys WHERE ($1::uuid IS NULL OR subject_id = $1::uuid) ORDER BY created_at DESC, id LIMIT 500`,
    [subjectId]
  );
  return rows.map(toStaffKey);
}

export async function revokeStaffKey(db: Queryable, keyId: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    "UPDATE auth.staff_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING id",
    [keyId]
  );
  return rows.length > 0;
}

export async function findActiveStaff(db: Queryable, keyHash: string): Promise<StaffPrincipal | null> {
  const [row] = await db.query<StaffKeyRow>(`SELECT ${COLUMNS} FROM auth.staff_keys WHERE key_hash = $1 AND revoked_at IS NULL`, [keyHash]);
  return row
    ? {
        keyId: row.id,
        keyPrefix: row.key_prefix,
        role: row.role,
        subjectId: row.subject_id,
        hubId: row.hub_id,
        issuedAt: row.created_at.toISOString()
      }
    : null;
}
