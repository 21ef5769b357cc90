import type { KeyMode, Scope } from "../../lib/api-keys";
import { named } from "../../lib/db/statement";
import type { Queryable } from "../../lib/db/database";
import type { Principal } from "../../lib/principal";
import type { ApiKeyRecord, Organization } from "./auth.contract";
import { isoOrNull } from "../../lib/db/rows";

/** All SQL of the auth service (schema `auth`, migrations/auth/), returning camelCase records. */

interface OrganizationRow {
  id: string;
  name: string;
  created_at: Date;
}

interface ApiKeyRow {
  id: string;
  organization_id: string;
  name: string | null;
  mode: KeyMode;
  key_prefix: string;
  scopes: Scope[];
  rate_limit_per_minute: number | null;
  created_at: Date;
  revoked_at: Date | null;
}

const KEY_COLUMNS = "id, organization_id, name, mode, key_prefix, scopes, rate_limit_per_minute, created_at, revoked_at";

function toOrganization(row: OrganizationRow): Organization {
  return { id: row.id, name: row.name, createdAt: row.created_at.toISOString() };
}

function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    mode: row.mode,
    keyPrefix: row.key_prefix,
    scopes: row.scopes,
    rateLimitPerMinute: row.rate_limit_per_minute,
    createdAt: row.created_at.toISOString(),
    revokedAt: isoOrNull(row.revoked_at)
  };
}

export async function insertOrganization(db: Queryable, org: { id: string; name: string }): Promise<Organization> {
  const [row] = await db.query<OrganizationRow>(
    "INSERT INTO auth.organizations (id, name) VALUES ($1, $2) RETURNING id, name, created_at",
    [org.id, org.name]
  );
  return toOrganization(row);
}

export async function findOrganization(db: Queryable, id: string): Promise<Organization | null> {
  const [row] = await db.query<OrganizationRow>("SELECT id, name, created_at FROM auth.organizations WHERE id = $1", [id]);
  return row ? toOrganization(row) : null;
}

export async function insertApiKey(
  db: Queryable,
  key: Omit<ApiKeyRecord, "createdAt" | "revokedAt"> & { keyHash: string }
): Promise<ApiKeyRecord> {
  const [row] = await db.query<ApiKeyRow>(
    `INSERT INTO auth.api_keys (id, organization_id, name, mode, key_prefix, key_hash, scopes, rate_limit_per_minute)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${KEY_COLUMNS}`,
    [key.id, key.organizationId, key.name, key.mode, key.keyPrefix, key.keyHash, key.scopes, key.rateLimitPerMinute]
  );
  return toApiKey(row);
}

export async function listApiKeys(db: Queryable, organizationId: string): Promise<ApiKeyRecord[]> {
  const rows = await db.query<ApiKeyRow>(
    `SELECT ${KEY_COLUMNS} FROM auth.api_keys WHERE organization_id = $1 ORDER BY created_at DESC, id`,
    [organizationId]
  );
  return rows.map(toApiKey);
}

export async function revokeApiKey(db: Queryable, organizationId: string, keyId: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE auth.api_keys SET revoked_at = coalesce(revoked_at, now())
     WHERE id = $1 AND organization_id = $2 RETURNING id`,
    [keyId, organizationId]
  );
  return rows.length > 0;
}

// Every partner request's key, when not cached: prepared once per connection (lib/db/statement.ts).
const ACTIVE_PRINCIPAL = named(
  "auth_active_principal",
  `SELECT k.id, k.organization_id, k.key_prefix, k.mode, k.scopes, k.rate_limit_per_minute,
          o.name AS organization_name
     FROM auth.api_keys k JOIN auth.organizations o ON o.id = k.organization_id
    WHERE k.key_hash = $1 AND k.revoked_at IS NULL`
);

export async function findActivePrincipal(db: Queryable, keyHash: string): Promise<Principal | null> {
  const [row] = await db.query<ApiKeyRow & { organization_name: string }>(ACTIVE_PRINCIPAL, [keyHash]);
  if (!row) return null;
  return {
    keyId: row.id,
    keyPrefix: row.key_prefix,
    organizationId: row.organization_id,
    organizationName: row.organization_name,
    mode: row.mode,
    scopes: row.scopes,
    rateLimitPerMinute: row.rate_limit_per_minute
  };
}
