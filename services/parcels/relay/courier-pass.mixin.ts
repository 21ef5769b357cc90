import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { renderSVG } from "uqr";
import { defineAction } from "../../../lib/action";
import type { AgentMeta } from "../../../lib/agent-keys";
import { COURIER_PASS_TTL_SECONDS, signCourierPass } from "../../../lib/courier-pass";
import { objectOf, component, dateTime } from "../../../lib/openapi/json-schema";
import { NoParams, NoParamsSchema } from "../../../lib/schemas";

interface CourierPassView {
  pass: string;
  relayCode: string;
  expiresAt: string;
  qrSvg: string;
}

const CourierPassViewSchema = component(
  "CourierPass",
  objectOf<CourierPassView>({
    pass: { type: "string", description: "The signed pass: RC1.<relay code>.<expiry>.<signature>. The courier's app scans it." },
    relayCode: { type: "string" },
    expiresAt: dateTime(`When it stops being accepted (${COURIER_PASS_TTL_SECONDS} s after it was made).`),
    qrSvg: { type: "string", description: "The pass as a QR code (SVG), for the counter's screen." }
  })
);

/**
 * The relay API's courier pass (issue 44 C, decision 0057): the counter app's "Courier" screen
 * shows it as a QR, the courier scans it (POST /api/courier/v1/relays/{code}/arrive) to prove it
 * stands at this counter. Signed here with a key derived from the encryption key; it changes
 * nothing, so a repeat (with or without Idempotency-Key) simply gives a fresh pass.
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, { encryptionKey: string }>> = {
  actions: {
    relayCourierPass: defineAction<NoParams, { encryptionKey: string }, AgentMeta>({
      rest: "POST /courier-pass",
      api: "relay",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "createCourierPass",
        summary: "Show the courier pass",
        description:
          `A pass for the courier who stands at the counter: this relay point's code and an expiry (${COURIER_PASS_TTL_SECONDS} s), ` +
          "signed by the server, and its QR. The courier's app scans it when it arrives. It changes nothing: ask for a new one " +
          "whenever the screen shows it.",
        tag: "Counter",
        response: CourierPassViewSchema,
        responseDescription: "A fresh pass."
      },
      handler(ctx): CourierPassView {
        const { token, expiresAt } = signCourierPass(this.encryptionKey, ctx.meta.agent.relayCode);
        return {
          pass: token,
          relayCode: ctx.meta.agent.relayCode,
          expiresAt: expiresAt.toISOString(),
          qrSvg: renderSVG(token, { border: 2 })
        };
      }
    })
  }
};

export const CourierPassMixin = mixin as Partial<ServiceSchema>;
