import { randomUUID } from "node:crypto";
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import { generateAgentKey } from "../../lib/agent-keys";
import { call } from "../../lib/contract";
import { RELAY_POINTS_PATH } from "../../lib/endpoint";
import { existingRelayPoint } from "./agent-keys.mixin";
import * as agentKeys from "./agent-keys.store";
import { drawPairingCode, exchangeEndpoint, exchangePairingCode, PAIRING_CODES, PairingFlow, PairingThis, VALID_MINUTES } from "./pairing";
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
import type { PairingCodeRecord } from "./pairing.store";

const RELAY_APP = "/counter/";
const relayCodeOf = (code: PairingCodeRecord) => (code.subject.kind === "relay" ? code.subject.relayCode : "");

/** The relay point's side of a pairing: an agent key, named after the device. */
const relayFlow = (self: PairingThis): PairingFlow<unknown, PairedDevice> => ({
  kind: "relay",
  async prepare(ctx, code) {
    // A relay point gone leaves its code unused.
    return call(ctx, "parcels.relayPoint", { code: relayCodeOf(code) });
  },
  async mintKey(tx, code, name) {
    const generated = generateAgentKey();
    const key = await agentKeys.insertAgentKey(tx, {
      id: randomUUID(),
      relayCode: relayCodeOf(code),
      name,
      keyPrefix: generated.keyPrefix,
      keyHash: generated.keyHash
    });
    return { keyId: key.id, key: generated.key };
  },
  async answer(ctx, code, keyId, key) {
    const listed = (await agentKeys.listAgentKeys(self.db, relayCodeOf(code))).find(k => k.id === keyId);
    if (!listed || listed.revokedAt !== null) return null;
    const relay = await call(ctx, "parcels.relayPoint", { code: listed.relayCode });
    return { key, id: listed.id, name: listed.name, relayCode: listed.relayCode, relayName: relay.name };
  }
});

/**
 * Pairing a phone (issue 27): the back-office draws a one-time code for a relay point, the
 * counter app exchanges it for an agent key of its own; the agent never types or sees a key. The
 * key is an ordinary agent key (listed, revoked like the others), named after the device.
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, PairingThis>> = {
  actions: {
    // call auth.createPairingCode --code DZ-16-ALGER-CENTRE --deviceName "Comptoir"
    createPairingCode: defineAction<CreatePairingCodeParams, PairingThis>({
      rest: `POST ${RELAY_POINTS_PATH}/:code${PAIRING_CODES}`,
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
        return drawPairingCode(this, { kind: "relay", relayCode: ctx.params.code }, ctx.params.deviceName, RELAY_APP);
      }
    }),

    pairDevice: defineAction<PairingParams, PairingThis, { idempotencyKey?: string }>({
      rest: "POST /pairings",
      api: "relay",
      schema: PairingSchema,
      endpoint: exchangeEndpoint({
        operationId: "pairDevice",
        tag: "Pairing",
        keyKind: "agent key",
        response: PairedDeviceSchema,
        bodyName: "RelayPairingRequest"
      }),
      handler(ctx): Promise<PairedDevice> {
        return exchangePairingCode(this, ctx, relayFlow(this));
      }
    })
  }
};

export const PairingMixin = mixin as Partial<ServiceSchema>;
