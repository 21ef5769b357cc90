import { AGENT_KEY_PREFIX, AGENT_KEY_PREFIX_PATTERN } from "../../lib/agent-keys";
import { Joi } from "../../lib/joi";
import { component, dateTime, nullable, objectOf, uuidSchema } from "../../lib/openapi/json-schema";
import type { JsonSchema } from "../../lib/openapi/types";
import { relayCode, uuid } from "../../lib/schemas";
import type { AgentKeyRecord, NewAgentKey } from "./auth.contract";

/** Relay-agent keys: the back-office's params and answers (each interface beside the Joi schema that validates it). */

const code = () => relayCode().description("The relay point's code.").example("DZ-16-ALGER-CENTRE");

export interface RelayCodeParams {
  code: string;
}
export const RelayCodeSchema = Joi.object<RelayCodeParams, true>({ code: code().required() });

export interface CreateAgentKeyParams {
  code: string;
  name: string | null;
}
export const CreateAgentKeySchema = Joi.object<CreateAgentKeyParams, true>({
  code: code().required(),
  name: Joi.string()
    .trim()
    .max(100)
    .allow(null)
    .default(null)
    .description("A label for the key (the device or the agent), at most 100 characters.")
});

export interface RevokeAgentKeyParams {
  code: string;
  keyId: string;
}
export const RevokeAgentKeySchema = Joi.object<RevokeAgentKeyParams, true>({
  code: code().required(),
  keyId: uuid().required().description("Agent key id (uuid).")
});

export interface ResolveAgentKeyParams {
  keyHash: string;
}
export const ResolveAgentKeySchema = Joi.object<ResolveAgentKeyParams, true>({ keyHash: Joi.string().hex().length(64).required() });

const agentKeyFields = {
  id: uuidSchema(),
  relayCode: { type: "string", description: "The relay point the key works for." } as JsonSchema,
  name: { type: ["string", "null"] } as JsonSchema,
  keyPrefix: { type: "string", pattern: AGENT_KEY_PREFIX_PATTERN, description: "Readable start of the key." } as JsonSchema,
  createdAt: dateTime("Creation time, UTC."),
  revokedAt: nullable(dateTime("Revocation time, UTC; null while the key works."))
};

export const AgentKeyView = component("AgentKey", objectOf<AgentKeyRecord>(agentKeyFields));

export const NewAgentKeyView = component(
  "NewAgentKey",
  objectOf<NewAgentKey>({
    ...agentKeyFields,
    key: { type: "string", pattern: "^rp_agent_[A-Za-z0-9]{40}$", description: "The key itself: shown only in this answer." }
  })
);

export const CREATE_AGENT_KEY_DESCRIPTION =
  `A key for the app at a relay point's counter (prefix \`${AGENT_KEY_PREFIX}\`): it opens the relay API for this relay ` +
  "point only, and never the partner API. The full key is in this answer only: we keep its hash.";

export const AGENT_KEYS_TAG = {
  name: "Relay agent keys",
  description: "Keys of relay points' counter apps: created (and shown) once, revoked at once."
};
