/**
 * The auth service. Owns organisations and API keys (creation shown once, hashing, scopes,
 * revocation) in the `auth` schema; its code is this file and services/auth/.
 * Others may call (types in auth/auth.contract.ts): `auth.resolveKey` (gateway: an API key to its
 * principal), `auth.getOrganization` (labels, parcels, wallet, webhooks); the back-office and
 * bin/demo.ts use `auth.createOrganization`, `auth.createApiKey`, `auth.health`. Everything else
 * is reached over HTTP through the gateway.
 */
import { randomUUID } from "node:crypto";
import { forgetOnEveryGateway } from "./auth/forget-everywhere";
import type { Logger, ServiceSchema } from "moleculer";
import { defineAction, IDEMPOTENT_RETRY } from "../lib/action";
import { detached } from "../lib/endpoint";
import { generateApiKey } from "../lib/api-keys";
import { call } from "../lib/contract";
import { AppError } from "../lib/errors";
import { healthOf } from "../lib/health";
import { requestLogger } from "../lib/request-context";
import type { PartnerMeta, Principal } from "../lib/principal";
import { DbMixin, DbVars } from "../mixins/db.mixin";
import { AGENT_KEYS_TAG } from "./auth/agent-keys.params";
import { STAFF_KEYS_TAG } from "./auth/staff-keys.params";
import { AgentKeysMixin } from "./auth/agent-keys.mixin";
import { StaffKeysMixin } from "./auth/staff-keys.mixin";
import { PairingMixin } from "./auth/pairing.mixin";
import { CourierPairingMixin } from "./auth/courier-pairing.mixin";
import { PickupAddressMixin } from "./auth/pickup-address.mixin";
import { PAIRING_TAG } from "./auth/pairing.params";
import { configOf } from "../mixins/config.mixin";
import { requireSecret } from "../lib/secrets";
import type { NewApiKey, Organization } from "./auth/auth.contract";
import {
  ApiKeyView,
  AUTH_DOCS,
  CreateApiKeyParams,
  CreateApiKeySchema,
  CreateOrganizationParams,
  CreateOrganizationSchema,
  HealthResponse,
  HealthView,
  NewApiKeyView,
  NoParams,
  NoParamsSchema,
  OrganizationIdParams,
  OrganizationIdSchema,
  OrganizationOverviewView,
  OrganizationView,
  ResolveKeyParams,
  ResolveKeySchema,
  RevokeApiKeyParams,
  RevokeApiKeySchema
} from "./auth/auth.params";
import * as store from "./auth/auth.store";

type AuthThis = DbVars & { logger: Logger; publicBaseUrl: string; encryptionKey: string };

const ORGANIZATION_NOT_FOUND = () => new AppError("ORGANIZATION_NOT_FOUND", "Organization not found");

async function existingOrganization(db: DbVars["db"], organizationId: string): Promise<Organization> {
  const org = await store.findOrganization(db, organizationId);
  if (!org) throw ORGANIZATION_NOT_FOUND();
  return org;
}

/** Organisations, API keys and relay-agent keys: creation (shown once), hashing, lookup, revocation, scopes. */
const AuthService: ServiceSchema<{ openapi: typeof AUTH_DOCS }, object, AuthThis> = {
  name: "auth",
  mixins: [DbMixin({ schema: "auth" }), AgentKeysMixin, StaffKeysMixin, PairingMixin, CourierPairingMixin, PickupAddressMixin],
  settings: { openapi: detached({ tags: [...AUTH_DOCS.tags, AGENT_KEYS_TAG, STAFF_KEYS_TAG, PAIRING_TAG] }) },

  actions: {
    // call auth.createOrganization --name "Boutique Amel"
    createOrganization: defineAction<CreateOrganizationParams, AuthThis>({
      rest: "POST /organizations",
      api: "backoffice",
      schema: CreateOrganizationSchema,
      endpoint: {
        operationId: "createOrganization",
        summary: "Create an organisation",
        description:
          "An organisation is one merchant: it owns API keys, a live and a sandbox wallet (both empty at first) and a webhook endpoint.",
        tag: "Organisations",
        status: 201,
        location: { action: "auth.organizationOverview", params: { organizationId: "response.id" } },
        response: OrganizationView,
        responseDescription: "Created.",
        body: { name: "OrganizationCreateRequest", description: "The new organisation." }
      },
      handler(ctx): Promise<Organization> {
        return store.insertOrganization(this.db, { id: randomUUID(), name: ctx.params.name });
      }
    }),

    // call auth.getOrganization --organizationId <uuid>
    getOrganization: defineAction<OrganizationIdParams, AuthThis>({
      visibility: "public",
      schema: OrganizationIdSchema,
      handler(ctx) {
        return existingOrganization(this.db, ctx.params.organizationId);
      }
    }),

    /** The back-office view of an organisation: the record and its two wallet balances. */
    organizationOverview: defineAction<OrganizationIdParams, AuthThis>({
      rest: "GET /organizations/:organizationId",
      api: "backoffice",
      schema: OrganizationIdSchema,
      endpoint: {
        operationId: "getOrganization",
        summary: "Read an organisation with its wallet balances",
        description: "The organisation and the balances of its two wallets; `wallets` is null while the wallet service does not answer.",
        tag: "Organisations",
        response: OrganizationOverviewView,
        responseDescription: "The organisation.",
        errors: ["ORGANIZATION_NOT_FOUND"]
      },
      async handler(ctx) {
        const org = await existingOrganization(this.db, ctx.params.organizationId);
        const wallets = await call(ctx, "wallet.balances", { organizationId: org.id }).catch(() => null);
        return { ...org, wallets };
      }
    }),

    // call auth.createApiKey --organizationId <uuid> --mode sandbox
    createApiKey: defineAction<CreateApiKeyParams, AuthThis>({
      rest: "POST /organizations/:organizationId/api-keys",
      api: "backoffice",
      schema: CreateApiKeySchema,
      endpoint: {
        operationId: "createApiKey",
        summary: "Create an API key (shown once)",
        description: "A live or sandbox key with its scopes and its own rate limit. The full key is in this answer only: we keep its hash.",
        tag: "API keys",
        status: 201,
        location: { action: "auth.listApiKeys", params: { organizationId: "params.organizationId" } },
        response: NewApiKeyView,
        responseDescription: "Created. `key` is shown here only, never again.",
        errors: ["ORGANIZATION_NOT_FOUND"],
        body: { name: "ApiKeyCreateRequest", description: "The key to create." }
      },
      async handler(ctx): Promise<NewApiKey> {
        const { organizationId, mode, scopes, name, rateLimitPerMinute } = ctx.params;
        await existingOrganization(this.db, organizationId);
        const generated = generateApiKey(mode);
        const record = await store.insertApiKey(this.db, {
          id: randomUUID(),
          organizationId,
          name,
          mode,
          keyPrefix: generated.keyPrefix,
          keyHash: generated.keyHash,
          scopes,
          rateLimitPerMinute
        });
        // The only moment the key exists outside the caller's hands.
        return { ...record, key: generated.key };
      }
    }),

    listApiKeys: defineAction<OrganizationIdParams, AuthThis>({
      rest: "GET /organizations/:organizationId/api-keys",
      api: "backoffice",
      schema: OrganizationIdSchema,
      endpoint: {
        operationId: "listApiKeys",
        summary: "List an organisation's API keys (without secrets)",
        description: "Every key of the organisation, revoked ones included, by its prefix: never the secret, which we do not have.",
        tag: "API keys",
        response: { type: "array", items: ApiKeyView },
        responseDescription: "The keys, newest first.",
        errors: ["ORGANIZATION_NOT_FOUND"]
      },
      async handler(ctx) {
        await existingOrganization(this.db, ctx.params.organizationId);
        return store.listApiKeys(this.db, ctx.params.organizationId);
      }
    }),

    revokeApiKey: defineAction<RevokeApiKeyParams, AuthThis>({
      rest: "DELETE /organizations/:organizationId/api-keys/:keyId",
      api: "backoffice",
      schema: RevokeApiKeySchema,
      endpoint: {
        operationId: "revokeApiKey",
        summary: "Revoke an API key",
        description: "The key stops working on the very next request, in every gateway.",
        tag: "API keys",
        status: 204,
        responseDescription: "Revoked (also when it already was).",
        errors: ["API_KEY_NOT_FOUND"]
      },
      async handler(ctx) {
        const revoked = await store.revokeApiKey(this.db, ctx.params.organizationId, ctx.params.keyId);
        if (!revoked) throw new AppError("API_KEY_NOT_FOUND", "API key not found");
        await forgetOnEveryGateway(ctx, ctx.params.keyId, requestLogger(ctx, this.logger));
        return null;
      }
    }),

    /**
     * A gateway asks when a key is not in its principal cache (services/gateway/principal-cache.ts). The
     * gateway sends only the hash, so the secret never crosses the transporter.
     */
    resolveKey: defineAction<ResolveKeyParams, AuthThis>({
      visibility: "public",
      schema: ResolveKeySchema,
      // A read, on every request whose key is not cached: worth sending again when a NATS node dies under it.
      retryPolicy: IDEMPOTENT_RETRY,
      handler(ctx): Promise<Principal | null> {
        return store.findActivePrincipal(this.db, ctx.params.keyHash);
      }
    }),

    /** SPEC §2.5. Any valid key may ping, whatever its scopes ("ok when the key is valid"). */
    health: defineAction<NoParams, AuthThis, PartnerMeta>({
      rest: "GET /health",
      api: "partner",
      scope: "any",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "getHealth",
        summary: "Check the API key",
        description: "Authenticated ping with no side effect: which organisation the key belongs to, and the server clock.",
        tag: "Health",
        response: HealthView,
        responseDescription: "The key is valid."
      },
      // The gateway answers GET /health itself, with the same function (services/gateway/edge.mixin.ts).
      handler(ctx): HealthResponse {
        return healthOf(ctx.meta.auth);
      }
    })
  },

  created() {
    const config = configOf(this.broker);
    this.publicBaseUrl = config.publicBaseUrl;
    this.encryptionKey = requireSecret(config, "encryptionKey");
  }
};

export default AuthService;
