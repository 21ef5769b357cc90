import { randomUUID } from "node:crypto";
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import { call } from "../../lib/contract";
import { generateStaffKey } from "../../lib/staff-keys";
import {
  CourierPairingCodeViewSchema,
  CreateCourierPairingCodeParams,
  CreateCourierPairingCodeSchema,
  PairedCourierDevice,
  PairedCourierDeviceSchema
} from "./courier-pairing.params";
import { drawPairingCode, exchangeEndpoint, exchangePairingCode, PAIRING_CODES, PairingFlow, PairingThis, VALID_MINUTES } from "./pairing";
import { PairingCodeView, PairingParams, PairingSchema } from "./pairing.params";
import type { PairingCodeRecord } from "./pairing.store";
import * as staffKeys from "./staff-keys.store";

const COURIER_APP = "/courier/";
const courierIdOf = (code: PairingCodeRecord) => (code.subject.kind === "courier" ? code.subject.courierId : "");

/** The courier's side of a pairing: a staff key of role courier, on the courier's home hub as it is at the exchange. */
const courierFlow = (self: PairingThis): PairingFlow<{ hubId: string; name: string }, PairedCourierDevice> => ({
  kind: "courier",
  prepare(ctx, code) {
    return call(ctx, "logistics.staffSubject", { role: "courier", subjectId: courierIdOf(code) });
  },
  async mintKey(tx, code, name, courier) {
    const generated = generateStaffKey();
    const key = await staffKeys.insertStaffKey(tx, {
      id: randomUUID(),
      role: "courier",
      subjectId: courierIdOf(code),
      hubId: courier.hubId,
      name,
      keyPrefix: generated.keyPrefix,
      keyHash: generated.keyHash
    });
    return { keyId: key.id, key: generated.key };
  },
  async answer(ctx, code, keyId, key) {
    const listed = (await staffKeys.listStaffKeys(self.db, courierIdOf(code))).find(k => k.id === keyId);
    if (!listed || listed.revokedAt !== null) return null;
    const courier = await call(ctx, "logistics.staffSubject", { role: "courier", subjectId: listed.subjectId });
    return { key, id: listed.id, name: listed.name, courierId: listed.subjectId, courierName: courier.name, hubId: listed.hubId };
  }
});

/**
 * Issue 45 A (decision 0065): a courier's phone paired like a counter's, by a one-time code the
 * back-office draws; the courier app exchanges it for a staff key of its own (listed and revoked
 * with the other staff keys). Attempts are limited per client address, as the relay's.
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, PairingThis>> = {
  actions: {
    createCourierPairingCode: defineAction<CreateCourierPairingCodeParams, PairingThis>({
      rest: `POST /couriers/:id${PAIRING_CODES}`,
      api: "backoffice",
      schema: CreateCourierPairingCodeSchema,
      endpoint: {
        operationId: "createCourierPairingCode",
        summary: "Draw a code that pairs a courier's phone (shown once)",
        description:
          `A one-time code of 8 characters, valid ${VALID_MINUTES} minutes, and its QR code: the courier app exchanges it ` +
          "(POST /api/courier/v1/pairings) for a courier key of its own. We keep only the code's hash.",
        tag: "Staff keys",
        status: 201,
        response: CourierPairingCodeViewSchema,
        responseDescription: "Drawn. `code` is shown here only.",
        errors: ["NOT_FOUND"],
        body: { name: "CourierPairingCodeRequest", required: false, description: "The phone to pair." }
      },
      async handler(ctx): Promise<PairingCodeView> {
        await call(ctx, "logistics.staffSubject", { role: "courier", subjectId: ctx.params.id });
        return drawPairingCode(this, { kind: "courier", courierId: ctx.params.id }, ctx.params.deviceName, COURIER_APP);
      }
    }),

    pairCourierDevice: defineAction<PairingParams, PairingThis, { idempotencyKey?: string }>({
      rest: "POST /pairings",
      api: "courier",
      schema: PairingSchema,
      endpoint: exchangeEndpoint({
        operationId: "pairCourierDevice",
        tag: "Courier",
        keyKind: "courier key",
        response: PairedCourierDeviceSchema,
        bodyName: "CourierPairingRequest"
      }),
      handler(ctx): Promise<PairedCourierDevice> {
        return exchangePairingCode(this, ctx, courierFlow(this));
      }
    })
  }
};

export const CourierPairingMixin = mixin as Partial<ServiceSchema>;
