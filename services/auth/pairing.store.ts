import type { Queryable } from "../../lib/db/database";

/** The SQL of pairing codes (`auth.pairing_codes`, migration auth/004), returning camelCase records. */

export interface PairingCodeRecord {
  id: string;
  relayCode: string;
  deviceName: string | null;
  expiresAt: Date;
  usedAt: Date | null;
  agentKeyId: string | null;
  idempotencyKey: string | null;
  requestFingerprint: string | null;
  keySealed: string | null;
}

interface PairingCodeRow {
  id: string;
  relay_code: string;
  device_name: string | null;
  expires_at: Date;
  used_at: Date | null;
  agent_key_id: string | null;
  idempotency_key: string | null;
  request_fingerprint: string | null;
  key_sealed: string | null;
}

const toPairingCode = (row: PairingCodeRow): PairingCodeRecord => ({
  id: row.id,
  relayCode: row.relay_code,
  deviceName: row.device_name,
  expiresAt: row.expires_at,
  usedAt: row.used_at,
  agentKeyId: row.agent_key_id,
  idempotencyKey: row.idempotency_key,
  requestFingerprint: row.request_fingerprint,
  keySealed: row.key_sealed
});

export async function insertPairingCode(
  db: Queryable,
  code: { id: string; relayCode: string; deviceName: string | null; codeHash: string; validMinutes: number }
): Promise<PairingCodeRecord> {
  const [row] = await db.query<PairingCodeRow>(
    `INSERT INTO auth.pairing_codes (id, relay_code, device_name, code_hash, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(mins => $5::int)) RETURNING *`,
    [code.id, code.relayCode, code.deviceName, code.codeHash, code.validMinutes]
  );
  return toPairingCode(row);
}

export async function findPairingCode(db: Queryable, codeHash: string): Promise<PairingCodeRecord | null> {
  const [row] = await db.query<PairingCodeRow>("SELECT * FROM auth.pairing_codes WHERE code_hash = $1", [codeHash]);
  return row ? toPairingCode(row) : null;
}

/**
 * Takes the code for this exchange, if it is still unused and valid: one statement, so of two
 * exchanges at once exactly one gets the row (the other waits for it, then finds it used).
 */
export async function claimPairingCode(
  tx: Queryable,
  codeHash: string,
  request: { idempotencyKey: string | null; fingerprint: string }
): Promise<PairingCodeRecord | null> {
  const [row] = await tx.query<PairingCodeRow>(
    `UPDATE auth.pairing_codes SET used_at = now(), idempotency_key = $2, request_fingerprint = $3
      WHERE code_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING *`,
    [codeHash, request.idempotencyKey, request.fingerprint]
  );
  return row ? toPairingCode(row) : null;
}

export async function attachAgentKey(tx: Queryable, id: string, agentKeyId: string, keySealed: string | null): Promise<void> {
  await tx.query("UPDATE auth.pairing_codes SET agent_key_id = $2, key_sealed = $3 WHERE id = $1", [id, agentKeyId, keySealed]);
}

/** The sealed keys kept for a replay are dropped once their Idempotency-Key's hours are over. */
export async function dropOldSealedKeys(db: Queryable, hours: number): Promise<void> {
  await db.query(
    "UPDATE auth.pairing_codes SET key_sealed = NULL WHERE key_sealed IS NOT NULL AND used_at < now() - make_interval(hours => $1::int)",
    [hours]
  );
}
