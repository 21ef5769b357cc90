import type { Queryable } from "../../lib/db/database";

/**
 * The SQL of pairing codes (`auth.pairing_codes`, migrations auth/004 and 007), returning camelCase
 * records. A code pairs a phone with a relay point (an agent key) or with a courier (a staff key).
 */

export type PairingSubject = { kind: "relay"; relayCode: string } | { kind: "courier"; courierId: string };
export type PairingKind = PairingSubject["kind"];

export interface PairingCodeRecord {
  id: string;
  subject: PairingSubject;
  deviceName: string | null;
  expiresAt: Date;
  usedAt: Date | null;
  /** The key the code gave: an agent key (relay) or a staff key (courier). */
  keyId: string | null;
  idempotencyKey: string | null;
  requestFingerprint: string | null;
  keySealed: string | null;
}

interface PairingCodeRow {
  id: string;
  relay_code: string | null;
  courier_id: string | null;
  device_name: string | null;
  expires_at: Date;
  used_at: Date | null;
  agent_key_id: string | null;
  staff_key_id: string | null;
  idempotency_key: string | null;
  request_fingerprint: string | null;
  key_sealed: string | null;
}

const toPairingCode = (row: PairingCodeRow): PairingCodeRecord => ({
  id: row.id,
  subject: row.relay_code !== null ? { kind: "relay", relayCode: row.relay_code } : { kind: "courier", courierId: row.courier_id ?? "" },
  deviceName: row.device_name,
  expiresAt: row.expires_at,
  usedAt: row.used_at,
  keyId: row.agent_key_id ?? row.staff_key_id,
  idempotencyKey: row.idempotency_key,
  requestFingerprint: row.request_fingerprint,
  keySealed: row.key_sealed
});

export async function insertPairingCode(
  db: Queryable,
  code: { id: string; subject: PairingSubject; deviceName: string | null; codeHash: string; validMinutes: number }
): Promise<PairingCodeRecord> {
  const { subject } = code;
  const [row] = await db.query<PairingCodeRow>(
    `INSERT INTO auth.pairing_codes (id, relay_code, courier_id, device_name, code_hash, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(mins => $6::int)) RETURNING *`,
    [
      code.id,
      subject.kind === "relay" ? subject.relayCode : null,
      subject.kind === "courier" ? subject.courierId : null,
      code.deviceName,
      code.codeHash,
      code.validMinutes
    ]
  );
  return toPairingCode(row);
}

/** A code of this kind only: a courier's code typed in the counter app is as unknown as a wrong one. */
export async function findPairingCode(db: Queryable, codeHash: string, kind: PairingKind): Promise<PairingCodeRecord | null> {
  const [row] = await db.query<PairingCodeRow>(
    `SELECT * FROM auth.pairing_codes WHERE code_hash = $1 AND ${kind === "relay" ? "relay_code" : "courier_id"} IS NOT NULL`,
    [codeHash]
  );
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

export async function attachKey(tx: Queryable, code: PairingCodeRecord, keyId: string, keySealed: string | null): Promise<void> {
  const column = code.subject.kind === "relay" ? "agent_key_id" : "staff_key_id";
  await tx.query(`UPDATE auth.pairing_codes SET ${column} = $2, key_sealed = $3 WHERE id = $1`, [code.id, keyId, keySealed]);
}

/** The sealed keys kept for a replay are dropped once their Idempotency-Key's hours are over. */
export async function dropOldSealedKeys(db: Queryable, hours: number): Promise<void> {
  await db.query(
    "UPDATE auth.pairing_codes SET key_sealed = NULL WHERE key_sealed IS NOT NULL AND used_at < now() - make_interval(hours => $1::int)",
    [hours]
  );
}
