import { KEY_PREFIX, KeyMode, Scope, SCOPES } from "../../lib/api-keys";
import { Joi } from "../../lib/joi";
import { arrayOf, component, dateTime, nullable, objectOf, uuidSchema } from "../../lib/openapi/json-schema";
import type { JsonSchema } from "../../lib/openapi/types";
import { keyMode, NoParams, NoParamsSchema, uuid } from "../../lib/schemas";
import type { ApiKeyRecord, NewApiKey, Organization } from "./auth.contract";
import type { HealthResponse } from "../../lib/health";

/** The params of every auth action (each interface beside the Joi schema that validates it) and the answers' schemas. */

export type { NoParams };
export { NoParamsSchema };

const organizationId = () => uuid().description("Organisation id (uuid).");

export interface CreateOrganizationParams {
  name: string;
}
export const CreateOrganizationSchema = Joi.object<CreateOrganizationParams, true>({
  name: Joi.string()
    .trim()
    .min(1)
    .max(200)
    .required()
    .description("Legal name, 1 to 200 characters, no surrounding spaces.")
    .example("Boutique Amel")
});

export interface OrganizationIdParams {
  organizationId: string;
}
export const OrganizationIdSchema = Joi.object<OrganizationIdParams, true>({ organizationId: organizationId().required() });

export interface CreateApiKeyParams {
  organizationId: string;
  mode: KeyMode;
  scopes: Scope[];
  name: string | null;
  rateLimitPerMinute: number | null;
}
export const CreateApiKeySchema = Joi.object<CreateApiKeyParams, true>({
  organizationId: organizationId().required(),
  mode: keyMode().required().description(`live (prefix ${KEY_PREFIX.live}) or sandbox (prefix ${KEY_PREFIX.sandbox}).`),
  scopes: Joi.array()
    .items(Joi.string().valid(...SCOPES))
    .min(1)
    .unique()
    .default([...SCOPES])
    .description("Scopes of the key; all of them when omitted."),
  name: Joi.string().trim().max(100).allow(null).default(null).description("A label for the key, at most 100 characters."),
  rateLimitPerMinute: Joi.number()
    .integer()
    .min(1)
    .max(1_000_000)
    .allow(null)
    .default(null)
    .description("This key's own limit; the server default when null.")
});

export interface RevokeApiKeyParams {
  organizationId: string;
  keyId: string;
}
export const RevokeApiKeySchema = Joi.object<RevokeApiKeyParams, true>({
  organizationId: organizationId().required(),
  keyId: uuid().required().description("API key id (uuid).")
});

export interface ResolveKeyParams {
  keyHash: string;
}
export const ResolveKeySchema = Joi.object<ResolveKeyParams, true>({ keyHash: Joi.string().hex().length(64).required() });

/** SPEC §2.5, answered from the principal (lib/health.ts). */
export type { HealthResponse };

// --- answers ------------------------------------------------------------------------------------

const organizationFields = { id: uuidSchema(), name: { type: "string" } as JsonSchema, createdAt: dateTime("Creation time, UTC.") };

export const OrganizationView = component("Organization", objectOf<Organization>(organizationFields));

export const OrganizationOverviewView = component(
  "OrganizationOverview",
  objectOf<Organization & { wallets: { liveDzd: number; sandboxDzd: number } | null }>({
    ...organizationFields,
    wallets: nullable(
      objectOf<{ liveDzd: number; sandboxDzd: number }>(
        {
          liveDzd: { type: "number", description: "Live wallet balance, in DZD." },
          sandboxDzd: { type: "number", description: "Sandbox wallet balance, in DZD." }
        },
        { description: "null when the wallet service could not answer." }
      )
    )
  })
);

const apiKeyFields = {
  id: uuidSchema(),
  organizationId: uuidSchema(),
  name: { type: ["string", "null"] } as JsonSchema,
  mode: { type: "string", enum: ["live", "sandbox"] } as JsonSchema,
  keyPrefix: { type: "string", pattern: "^rp_(live|sandbox)_[A-Za-z0-9]{8}$" } as JsonSchema,
  scopes: arrayOf({ type: "string", enum: [...SCOPES] }),
  rateLimitPerMinute: { type: ["integer", "null"], minimum: 1 } as JsonSchema,
  createdAt: dateTime("Creation time, UTC."),
  revokedAt: nullable(dateTime("Revocation time, UTC; null while the key works."))
};

export const ApiKeyView = component("ApiKey", objectOf<ApiKeyRecord>(apiKeyFields));

export const NewApiKeyView = component(
  "NewApiKey",
  objectOf<NewApiKey>({
    ...apiKeyFields,
    key: { type: "string", pattern: "^rp_(live|sandbox)_[A-Za-z0-9]{40}$", description: "The key itself: shown only in this answer." }
  })
);

export const HealthView = component(
  "HealthResponse",
  objectOf<HealthResponse>({
    status: { type: "string", const: "ok", description: "Always ok when the key is valid." },
    organizationId: uuidSchema("The key's organisation."),
    organizationName: { type: "string", description: "Legal name of the organisation." },
    keyPrefix: {
      type: "string",
      pattern: "^rp_(live|sandbox)_[A-Za-z0-9]{8}$",
      description: "Readable prefix of the key used (without the secret part)."
    },
    serverTime: dateTime("Server clock, UTC, to diagnose clock skew.")
  })
);

export const AUTH_DOCS = {
  tags: [
    { name: "Health", description: "Check a key." },
    { name: "Organisations", description: "Merchant organisations and their wallet balances." },
    { name: "API keys", description: "Keys of an organisation: created (and shown) once, listed without secrets, revoked at once." }
  ]
};
