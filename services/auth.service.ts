import { randomUUID } from "node:crypto";
import { Joi } from "../lib/joi";
import type { ServiceSchema } from "moleculer";
import { defineAction } from "../lib/action";
import { generateApiKey, KeyMode, Scope, SCOPES } from "../lib/api-keys";
import { AppError } from "../lib/errors";
import { PartnerMeta, Principal } from "../lib/principal";
import { NoParams, NoParamsSchema } from "../lib/schemas";
import { DbMixin, DbVars } from "../mixins/db.mixin";
import * as store from "./auth/auth.store";

interface CreateOrganizationParams {
  name: string;
}
const CreateOrganizationSchema = Joi.object<CreateOrganizationParams, true>({
  name: Joi.string().trim().min(1).max(200).required()
});

interface OrganizationIdParams {
  organizationId: string;
}
const OrganizationIdSchema = Joi.object<OrganizationIdParams, true>({
  organizationId: Joi.string().guid().required()
});

interface CreateApiKeyParams {
  organizationId: string;
  mode: KeyMode;
  scopes: Scope[];
  name: string | null;
  rateLimitPerMinute: number | null;
}
const CreateApiKeySchema = Joi.object<CreateApiKeyParams, true>({
  organizationId: Joi.string().guid().required(),
  mode: Joi.string().valid("live", "sandbox").required(),
  scopes: Joi.array().items(Joi.string().valid(...SCOPES)).min(1).unique().default([...SCOPES]),
  name: Joi.string().trim().max(100).allow(null).default(null),
  rateLimitPerMinute: Joi.number().integer().min(1).max(1_000_000).allow(null).default(null)
});

interface RevokeApiKeyParams {
  organizationId: string;
  keyId: string;
}
const RevokeApiKeySchema = Joi.object<RevokeApiKeyParams, true>({
  organizationId: Joi.string().guid().required(),
  keyId: Joi.string().guid().required()
});

interface ResolveKeyParams {
  keyHash: string;
}
const ResolveKeySchema = Joi.object<ResolveKeyParams, true>({
  keyHash: Joi.string().hex().length(64).required()
});

type AuthThis = DbVars;

/** Organisations and API keys: creation (shown once), hashing, lookup, revocation, scopes. */
const AuthService: ServiceSchema<{}, {}, AuthThis> = {
  name: "auth",
  mixins: [DbMixin({ schema: "auth" })],

  actions: {
    // call auth.createOrganization --name "Boutique Amel"
    createOrganization: defineAction<CreateOrganizationParams, AuthThis>({
      schema: CreateOrganizationSchema,
      async handler(ctx) {
        return store.insertOrganization(this.db, { id: randomUUID(), name: ctx.params.name });
      }
    }),

    // call auth.getOrganization --organizationId <uuid>
    getOrganization: defineAction<OrganizationIdParams, AuthThis>({
      schema: OrganizationIdSchema,
      async handler(ctx) {
        const org = await store.findOrganization(this.db, ctx.params.organizationId);
        if (!org) throw new AppError("ORGANIZATION_NOT_FOUND", "Organization not found");
        return org;
      }
    }),

    /** Back-office view of an organisation: the record and its two wallet balances. */
    organizationOverview: defineAction<OrganizationIdParams, AuthThis>({
      schema: OrganizationIdSchema,
      async handler(ctx) {
        const org = await store.findOrganization(this.db, ctx.params.organizationId);
        if (!org) throw new AppError("ORGANIZATION_NOT_FOUND", "Organization not found");
        const wallets = await ctx
          .call<{ liveDzd: number; sandboxDzd: number }, OrganizationIdParams>("wallet.balances", { organizationId: org.id })
          .catch(() => null);
        return { ...org, wallets };
      }
    }),

    // call auth.createApiKey --organizationId <uuid> --mode sandbox
    createApiKey: defineAction<CreateApiKeyParams, AuthThis>({
      schema: CreateApiKeySchema,
      async handler(ctx) {
        const { organizationId, mode, scopes, name, rateLimitPerMinute } = ctx.params;
        if (!(await store.findOrganization(this.db, organizationId))) {
          throw new AppError("ORGANIZATION_NOT_FOUND", "Organization not found");
        }
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
      schema: OrganizationIdSchema,
      async handler(ctx) {
        if (!(await store.findOrganization(this.db, ctx.params.organizationId))) {
          throw new AppError("ORGANIZATION_NOT_FOUND", "Organization not found");
        }
        return store.listApiKeys(this.db, ctx.params.organizationId);
      }
    }),

    revokeApiKey: defineAction<RevokeApiKeyParams, AuthThis>({
      schema: RevokeApiKeySchema,
      async handler(ctx) {
        const revoked = await store.revokeApiKey(this.db, ctx.params.organizationId, ctx.params.keyId);
        if (!revoked) throw new AppError("API_KEY_NOT_FOUND", "API key not found");
        return null;
      }
    }),

    /**
     * Looked up on every request, with no cache anywhere: a revoked key stops working on the
     * very next call, in every gateway. The gateway sends only the hash, so the secret never
     * crosses the transporter.
     */
    resolveKey: defineAction<ResolveKeyParams, AuthThis>({
      visibility: "public",
      schema: ResolveKeySchema,
      async handler(ctx): Promise<Principal | null> {
        return store.findActivePrincipal(this.db, ctx.params.keyHash);
      }
    }),

    /** GET /api/partner/v1/health (SPEC §2.5). */
    health: defineAction<NoParams, AuthThis, PartnerMeta>({
      // Any valid key may ping, whatever its scopes (SPEC §2.5: "ok when the key is valid").
      scope: "any",
      schema: NoParamsSchema,
      handler(ctx) {
        const auth = ctx.meta.auth;
        return {
          status: "ok",
          organizationId: auth.organizationId,
          organizationName: auth.organizationName,
          keyPrefix: auth.keyPrefix,
          serverTime: new Date().toISOString()
        };
      }
    })
  }
};

export default AuthService;
