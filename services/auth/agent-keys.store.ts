import type { AgentPrincipal } from "../../lib/agent-keys";
import type { Queryable } from "../../lib/db/database";
import { isoOrNull } from "../../lib/db/rows";
import type { AgentKeyRecord } from "./auth.contract";

/** The SQL of relay-agent keys (`auth.agent_keys`, migration auth/003), returning camelCase records. */

interface AgentKeyRow {
  id: string;
  relay_code: string;
  name: string | null;
  key_prefix: string;
  created_at: Date;
  revoked_at: Date | null;
}

const COLUMNS = "id, relay_code, name, key_prefix, created_at, revoked_at";

function toAgentKey(row: AgentKeyRow): AgentKeyRecord {
  return {
    id: row.id,
    relayCode: row.relay_code,
    name: row.name,
    keyPrefix: row.key_prefix,
    createdAt: row.created_at.toISOString(),
    revokedAt: isoOrNull(row.revoked_at)
  };
}

export async function insertAgentKey(
  db: Queryable,
  key: { id: string; relayCode: string; name: string | null; keyPrefix: string; keyHash: string }
): Promise<AgentKeyRecord> {
  const [row] = await db.query<AgentKeyRow>(
    `INSERT INTO auth.agent_keys (id, relay_code, name, key_prefix, key_hash) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [key.id, key.relayCode, key.name, key.keyPrefix, key.keyHash]
  );
  return toAgentKey(row);
}

export async function listAgentKeys(db: Queryable, relayCode: string): Promise<AgentKeyRecord[]> {
  const rows = await db.query<AgentKeyRow>(`SELECT ${COLUMNS} FROM auth.agent_keys WHERE relay_code = $1 ORDER BY created_at DESC, id`, [
    relayCode
  ]);
  return rows.map(toAgentKey);
}

export async function revokeAgentKey(db: Queryable, relayCode: string, keyId: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE auth.agent_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 AND relay_code = $2 RETURNING id`,
    [keyId, relayCode]
  );
  return rows.length > 0;
}

export async function findActiveAgent(db: Queryable, keyHash: string): Promise<AgentPrincipal | null> {
  const [row] = await db.query<Pick<AgentKeyRow, "id" | "key_prefix" | "relay_code" | "created_at">>(
    "SELECT id, key_prefix, relay_code, created_at FROM auth.agent_keys WHERE key_hash = $1 AND revoked_at IS NULL",
    [keyHash]
  );
  return row ? { keyId: row.id, keyPrefix: row.key_prefix, relayCode: row.relay_code, pairedAt: row.created_at.toISOString() } : null;
}
