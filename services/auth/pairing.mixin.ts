import { randomUUID } from "node:crypto";
import type { Context, Logger, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { renderSVG } from "uqr";
import { defineAction } from "../../lib/action";
import { generateAgentKey } from "../../lib/agent-keys";
import { hashApiKey } from "../../lib/api-keys";
import { call } from "../../lib/contract";
import { decryptField, encryptField } from "../../lib/crypto";
import type { Database } from "../../lib/db/database";
import { RELAY_POINTS_PATH } from "../../lib/endpoint";
import { AppError } from "../../lib/errors";
import { fingerprintOf, IDEMPOTENCY_HOURS, idempotencyKeyOf, keyReused, RELAY_IDEMPOTENCY_KEY_HEADER } from "../../lib/idempotency";
import { generateSpokenCode, normaliseSpokenCode } from "../../lib/spoken-code";
import { existingRelayPoint } from "./agent-keys.mixin";
import * as agentKeys from "./agent-keys.store";
import {
  CreatePairingCodeParams,
  CreatePairingCodeSchema,
  PairedDevice,
  PairedDeviceSchema,
  PairingCodeView,
  PairingCodeViewSchema,
  PairingParams,
  PairingSchema
} from "./pairing.params";
import * as store from "./pairing.store";

interface PairingThis {
  db: Database;
  logger: Logger;
  /** PUBLIC_BASE_URL, for the QR code a phone's camera opens. */
  publicBaseUrl: string;
  /** ENCRYPTION_KEY: seals a paired key for the replay of its exchange. */
  encryptionKey: string;
}

const VALID_MINUTES = 15;
const DEFAULT_DEVICE_NAME = "Paired device";
const pairUrlOf = (code: string) => `/counter/#pair=${code}`;
const codeHashOf = (typed: string) => hashApiKey(`pairing:${normaliseSpokenCode(typed)}`);
const notFound = () => new AppError("PAIRING_CODE_NOT_FOUND", "This pairing code is unknown or was already used: ask for a new one");

/**
 * Pairing a phone (issue 27): the back-office draws a one-time code for a relay point, the
 * counter app exchanges it for an agent key of its own; the agent never types or sees a key. The
 * key is an ordinary agent key (listed, revoked like the others), named after the device.
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, PairingThis>> = {
  actions: {
    // call auth.createPairingCode --code DZ-16-ALGER-CENTRE --deviceName "Comptoir"
    createPairingCode: defineAction<CreatePairingCodeParams, PairingThis>({
      rest: `POST ${RELAY_POINTS_PATH}/:code/pairing-codes`,
      api: "backoffice",
      schema: CreatePairingCodeSchema,
      endpoint: {
        operationId: "createRelayPairingCode",
        summary: "Draw a code that pairs a phone (shown once)",
        description:
          `A one-time code of 8 characters, valid ${VALID_MINUTES} minutes, and its QR code: the counter app exchanges it ` +
          "(POST /api/relay/v1/pairings) for an agent key of its own. We keep only the code's hash.",
        tag: "Relay agent keys",
        status: 201,
        response: PairingCodeViewSchema,
        responseDescription: "Drawn. `code` is shown here only.",
        errors: ["RELAY_POINT_NOT_FOUND"],
        body: { name: "RelayPairingCodeRequest", required: false, description: "The phone to pair." }
      },
      async handler(ctx): Promise<PairingCodeView> {
        await existingRelayPoint(ctx, ctx.params.code);
        const code = generateSpokenCode();
        const saved = await store.insertPairingCode(this.db, {
          id: randomUUID(),
          relayCode: ctx.params.code,
          deviceName: ctx.params.deviceName,
          codeHash: codeHashOf(code),
          validMinutes: VALID_MINUTES
        });
        return {
          code,
          expiresAt: saved.expiresAt.toISOString(),
          qrSvg: renderSVG(this.publicBaseUrl + pairUrlOf(code), { border: 2 }),
          pairUrl: pairUrlOf(code)
        };
      }
    }),

    pairDevice: defineAction<PairingParams, PairingThis, { idempotencyKey?: string }>({
      rest: "POST /pairings",
      api: "relay",
      schema: PairingSchema,
      endpoint: {
        operationId: "pairDevice",
        summary: "Pair this phone (no key)",
        description:
          "Exchanges a pairing code from the back-office for this device's agent key. No key is needed; attempts are limited per " +
          "client address. 404 PAIRING_CODE_NOT_FOUND for an unknown or already used code (the answer does not say which), 410 " +
          "PAIRING_CODE_EXPIRED past its 15 minutes. Of two exchanges of one code at once, one gets a key. With an Idempotency-Key, " +
          "the exchange sent again after a lost answer gets the same key back.",
        tag: "Pairing",
        status: 201,
        keyless: true,
        response: PairedDeviceSchema,
        responseDescription: "Paired: the key is in this answer only.",
        errors: ["PAIRING_CODE_NOT_FOUND", "PAIRING_CODE_EXPIRED", "IDEMPOTENCY_KEY_REUSED"],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "RelayPairingRequest", description: "The code, and this phone's name." }
      },
      async handler(ctx): Promise<PairedDevice> {
        const idempotencyKey = idempotencyKeyOf(ctx.meta);
        const codeHash = codeHashOf(ctx.params.code);
        const fingerprint = fingerprintOf({ code: normaliseSpokenCode(ctx.params.code), deviceName: ctx.params.deviceName });
        await store.dropOldSealedKeys(this.db, IDEMPOTENCY_HOURS);
        const code = await store.findPairingCode(this.db, codeHash);
        if (!code) throw notFound();
        if (code.usedAt !== null) return replay(this, ctx, code, { idempotencyKey, fingerprint });
        const relay = await call(ctx, "parcels.relayPoint", { code: code.relayCode });
        const generated = generateAgentKey();
        const paired = await this.db.transaction(async tx => {
          const claimed = await store.claimPairingCode(tx, codeHash, { idempotencyKey, fingerprint });
          if (!claimed) return null;
          const key = await agentKeys.insertAgentKey(tx, {
            id: randomUUID(),
            relayCode: claimed.relayCode,
            name: ctx.params.deviceName ?? claimed.deviceName ?? DEFAULT_DEVICE_NAME,
            keyPrefix: generated.keyPrefix,
            keyHash: generated.keyHash
          });
          const sealed = idempotencyKey === null ? null : encryptField(generated.key, this.encryptionKey);
          await store.attachAgentKey(tx, claimed.id, key.id, sealed);
          return key;
        });
        if (!paired) {
          // Another exchange took it meanwhile, or it expired: answer as if it had come first.
          const now = await store.findPairingCode(this.db, codeHash);
          if (now && now.usedAt !== null) return replay(this, ctx, now, { idempotencyKey, fingerprint });
          throw new AppError("PAIRING_CODE_EXPIRED", "This pairing code has expired: ask for a new one");
        }
        this.logger.info(`relay point ${paired.relayCode}: device "${paired.name}" paired (key ${paired.keyPrefix}…)`);
        return { key: generated.key, id: paired.id, name: paired.name, relayCode: paired.relayCode, relayName: relay.name };
      }
    })
  }
};

/**
 * A used code: its key again for the exchange that used it (same Idempotency-Key and body), 422
 * for that key with another body, and for anyone else the same 404 as an unknown code. An expired,
 * unused code is 410.
 */
async function replay(
  self: PairingThis,
  ctx: Context,
  code: store.PairingCodeRecord,
  request: { idempotencyKey: string | null; fingerprint: string }
): Promise<PairedDevice> {
  if (request.idempotencyKey === null || code.idempotencyKey !== request.idempotencyKey || code.keySealed === null) throw notFound();
  if (code.requestFingerprint !== request.fingerprint) throw keyReused();
  const key = (await agentKeys.listAgentKeys(self.db, code.relayCode)).find(k => k.id === code.agentKeyId);
  if (!key || key.revokedAt !== null) throw notFound();
  const relay = await call(ctx, "parcels.relayPoint", { code: code.relayCode });
  return {
    key: decryptField(code.keySealed, self.encryptionKey),
    id: key.id,
    name: key.name,
    relayCode: key.relayCode,
    relayName: relay.name
  };
}

export const PairingMixin = mixin as Partial<ServiceSchema>;
