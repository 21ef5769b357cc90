import { randomUUID } from "node:crypto";
import type { Context, Logger } from "moleculer";
import { renderSVG } from "uqr";
import { hashApiKey } from "../../lib/api-keys";
import { decryptField, encryptField } from "../../lib/crypto";
import type { Database, Queryable } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { fingerprintOf, IDEMPOTENCY_HOURS, idempotencyKeyOf, keyReused } from "../../lib/idempotency";
import { generateSpokenCode, normaliseSpokenCode } from "../../lib/spoken-code";
import type { EndpointDocs } from "../../lib/endpoint";
import { RELAY_IDEMPOTENCY_KEY_HEADER } from "../../lib/idempotency";
import type { JsonSchema } from "../../lib/openapi/types";
import type { PairingCodeView } from "./pairing.params";
import * as store from "./pairing.store";

/**
 * Pairing a phone by a one-time code (issue 27, generalised for couriers by decision 0065): the
 * back-office draws a code for a subject (a relay point, a courier); the phone exchanges it once,
 * without a key, for a key of its own. What differs per kind (the app's address, the key made, the
 * answer) is a `PairingFlow`; the code's life (hash, 15 minutes, one winner, replay) is here.
 */

export interface PairingThis {
  db: Database;
  logger: Logger;
  /** PUBLIC_BASE_URL, for the QR code a phone's camera opens. */
  publicBaseUrl: string;
  /** ENCRYPTION_KEY: seals a paired key for the replay of its exchange. */
  encryptionKey: string;
}

/** The back-office path segment that draws a code, under the subject: `/relay-points/{code}`, `/couriers/{id}`. */
export const PAIRING_CODES = "/pairing-codes";
export const VALID_MINUTES = 15;
export const DEFAULT_DEVICE_NAME = "Paired device";
const codeHashOf = (typed: string) => hashApiKey(`pairing:${normaliseSpokenCode(typed)}`);
const notFound = () => new AppError("PAIRING_CODE_NOT_FOUND", "This pairing code is unknown or was already used: ask for a new one");

export interface PairingFlow<Prepared, Paired> {
  kind: store.PairingKind;
  /** Read before the code is taken (a subject gone leaves the code unused). */
  prepare(ctx: Context, code: store.PairingCodeRecord): Promise<Prepared>;
  /** Makes the device's key, in the transaction that takes the code. */
  mintKey(tx: Queryable, code: store.PairingCodeRecord, name: string, prepared: Prepared): Promise<{ keyId: string; key: string }>;
  /** The answer with this key (new, or again for a replay); null when the key is gone or revoked. */
  answer(ctx: Context, code: store.PairingCodeRecord, keyId: string, key: string): Promise<Paired | null>;
}

/** The phone's exchange as documented, for a key of `keyKind` ("agent key", "courier key"). */
export function exchangeEndpoint(doc: {
  operationId: string;
  tag: string;
  keyKind: string;
  response: JsonSchema;
  bodyName: string;
}): EndpointDocs {
  return {
    operationId: doc.operationId,
    summary: "Pair this phone (no key)",
    description:
      `Exchanges a pairing code from the back-office for this device's ${doc.keyKind}. No key is needed; attempts are limited per ` +
      "client address. 404 PAIRING_CODE_NOT_FOUND for an unknown or already used code (the answer does not say which), 410 " +
      "PAIRING_CODE_EXPIRED past its 15 minutes. Of two exchanges of one code at once, one gets a key. With an Idempotency-Key, " +
      "the exchange sent again after a lost answer gets the same key back.",
    tag: doc.tag,
    status: 201,
    keyless: true,
    response: doc.response,
    responseDescription: "Paired: the key is in this answer only.",
    errors: ["PAIRING_CODE_NOT_FOUND", "PAIRING_CODE_EXPIRED", "IDEMPOTENCY_KEY_REUSED"],
    parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
    body: { name: doc.bodyName, description: "The code, and this phone's name." }
  };
}

export const pairUrlOf = (appPath: string, code: string) => `${appPath}#pair=${code}`;

/** A new one-time code for this subject; only its hash is kept. */
export async function drawPairingCode(
  self: PairingThis,
  subject: store.PairingSubject,
  deviceName: string | null,
  /** The app that exchanges the code: `/counter/`, `/courier/`. */
  appPath: string
): Promise<PairingCodeView> {
  const code = generateSpokenCode();
  const saved = await store.insertPairingCode(self.db, {
    id: randomUUID(),
    subject,
    deviceName,
    codeHash: codeHashOf(code),
    validMinutes: VALID_MINUTES
  });
  const pairUrl = pairUrlOf(appPath, code);
  return { code, expiresAt: saved.expiresAt.toISOString(), qrSvg: renderSVG(self.publicBaseUrl + pairUrl, { border: 2 }), pairUrl };
}

/** The phone's exchange of a code for its key: one winner of concurrent exchanges, a lost answer replayed by its Idempotency-Key. */
export async function exchangePairingCode<Prepared, Paired>(
  self: PairingThis,
  ctx: Context<{ code: string; deviceName: string | null }, { idempotencyKey?: string }>,
  flow: PairingFlow<Prepared, Paired>
): Promise<Paired> {
  const idempotencyKey = idempotencyKeyOf(ctx.meta);
  const codeHash = codeHashOf(ctx.params.code);
  const request = {
    idempotencyKey,
    fingerprint: fingerprintOf({ code: normaliseSpokenCode(ctx.params.code), deviceName: ctx.params.deviceName })
  };
  await store.dropOldSealedKeys(self.db, IDEMPOTENCY_HOURS);
  const code = await store.findPairingCode(self.db, codeHash, flow.kind);
  if (!code) throw notFound();
  if (code.usedAt !== null) return replay(self, ctx, flow, code, request);
  const prepared = await flow.prepare(ctx, code);
  const minted = await self.db.transaction(async tx => {
    const claimed = await store.claimPairingCode(tx, codeHash, request);
    if (!claimed) return null;
    const name = ctx.params.deviceName ?? claimed.deviceName ?? DEFAULT_DEVICE_NAME;
    const key = await flow.mintKey(tx, claimed, name, prepared);
    await store.attachKey(tx, claimed, key.keyId, idempotencyKey === null ? null : encryptField(key.key, self.encryptionKey));
    return { claimed, ...key, name };
  });
  if (!minted) {
    // Another exchange took it meanwhile, or it expired: answer as if it had come first.
    const now = await store.findPairingCode(self.db, codeHash, flow.kind);
    if (now && now.usedAt !== null) return replay(self, ctx, flow, now, request);
    throw new AppError("PAIRING_CODE_EXPIRED", "This pairing code has expired: ask for a new one");
  }
  const subject = minted.claimed.subject;
  self.logger.info(
    `${subject.kind === "relay" ? `relay point ${subject.relayCode}` : `courier ${subject.courierId}`}: device "${minted.name}" paired`
  );
  const answer = await flow.answer(ctx, minted.claimed, minted.keyId, minted.key);
  if (!answer) throw notFound();
  return answer;
}

/**
 * A used code: its key again for the exchange that used it (same Idempotency-Key and body), 422
 * for that key with another body, and for anyone else the same 404 as an unknown code.
 */
async function replay<Prepared, Paired>(
  self: PairingThis,
  ctx: Context,
  flow: PairingFlow<Prepared, Paired>,
  code: store.PairingCodeRecord,
  request: { idempotencyKey: string | null; fingerprint: string }
): Promise<Paired> {
  if (request.idempotencyKey === null || code.idempotencyKey !== request.idempotencyKey || code.keySealed === null) throw notFound();
  if (code.requestFingerprint !== request.fingerprint) throw keyReused();
  if (code.keyId === null) throw notFound();
  const answer = await flow.answer(ctx, code, code.keyId, decryptField(code.keySealed, self.encryptionKey));
  if (!answer) throw notFound();
  return answer;
}
