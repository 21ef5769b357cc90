import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID, timingSafeEqual, createHash } from "node:crypto";
import Redis from "ioredis";
import ApiGateway from "moleculer-web";
import type { Context, ServiceSchema } from "moleculer";
import { extractApiKey, hashApiKey, isWellFormedKey } from "../lib/api-keys";
import { AppError } from "../lib/errors";
import { toErrorResponse } from "../lib/http-errors";
import { KeyRateLimiter } from "../lib/rate-limit";
import { configOf } from "../lib/runtime";
import { REQUEST_ID_PATTERN } from "../lib/request-id";
import { requireSecret } from "../lib/secrets";
import { ApiDocsMixin } from "./gateway/api-docs.mixin";
import type { Principal } from "../lib/principal";

type GatewayRequest = IncomingMessage & {
  $ctx?: Context<unknown, Record<string, unknown>>;
  $action?: { name: string; scope?: string };
};

interface GatewayVars {
  limiter: KeyRateLimiter;
  redis: Redis | null;
  backofficeTokenDigest: Buffer;
  defaultRateLimit: number;
}

/** Aliases whose success is not a plain 200. */
const SUCCESS_STATUS: Record<string, number> = {
  "auth.createOrganization": 201,
  "auth.createApiKey": 201,
  "auth.revokeApiKey": 204,
  "parcels.create": 201,
  "parcels.triggerSandboxEvent": 202,
  "parcels.upsertRelayPoint": 201,
  "wallet.topUp": 201,
  "webhooks.redeliver": 202
};

/**
 * Services without which the partner API cannot answer; the gateway is ready once all are
 * reachable. Labels and webhooks are not among them: without them a parcel still reads (with
 * labelUrl null) and events wait in the outbox.
 */
const FRONTED_SERVICES = ["auth", "wallet", "parcels"];

/** Where a 201 points: the Location header of each creating alias. */
const LOCATION_OF: Record<string, (params: Record<string, string>, data: { id?: string }) => string> = {
  "parcels.create": (_p, data) => `/api/partner/v1/parcels/${data.id}`,
  "auth.createOrganization": (_p, data) => `/api/backoffice/v1/organizations/${data.id}`,
  "auth.createApiKey": p => `/api/backoffice/v1/organizations/${p.organizationId}/api-keys`,
  "wallet.topUp": p => `/api/backoffice/v1/organizations/${p.organizationId}/wallet`,
  "parcels.upsertRelayPoint": () => `/api/backoffice/v1/relay-points`
};

function sendErrorJson(this: { logger: { error: (...a: unknown[]) => void } }, req: GatewayRequest, res: ServerResponse, err: unknown) {
  const requestId = req.$ctx?.requestID ?? undefined;
  const { body, headers, unexpected } = toErrorResponse(err, requestId ?? undefined);
  if (unexpected) this.logger.error("Unexpected error", { requestId, error: err });
  if (res.headersSent) {
    res.end();
    return;
  }
  res.statusCode = body.status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  if (requestId) res.setHeader("X-Request-Id", requestId);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(JSON.stringify(body));
}

/** HTTP front door: partner API, back-office API, probes. Authenticates, limits, normalises errors. */
const GatewayService: ServiceSchema<Record<string, any>, {}, GatewayVars> = {
  name: "gateway",
  mixins: [ApiGateway, ApiDocsMixin],

  settings: {
    port: 3000,
    ip: "0.0.0.0",
    // Aliases are explicit; nothing is reachable by action name.
    optimizeOrder: true,
    log4XXResponses: false,
    logRequestParams: null,
    logResponseData: null,
    // Accept the caller's X-Request-Id when it is sane, otherwise make one; it comes back on every response.
    rootCallOptions(options: { requestID?: string }, req: IncomingMessage) {
      const given = req.headers["x-request-id"];
      options.requestID = typeof given === "string" && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    },
    onError: sendErrorJson,

    routes: [
      {
        name: "partner",
        path: "/api/partner/v1",
        mappingPolicy: "restrict",
        autoAliases: false,
        authentication: "authenticatePartner",
        authorization: "authorizeScope",
        bodyParsers: { json: { strict: true, limit: "64kb" } },
        aliases: {
          "GET /health": "auth.health",
          "POST /parcels": "parcels.create",
          "GET /parcels": "parcels.list",
          "GET /parcels/by-tracking/:trackingNumber": "parcels.getByTracking",
          "GET /parcels/:id": "parcels.get",
          "POST /parcels/:id/cancel": "parcels.cancel",
          "POST /sandbox/parcels/:id/trigger-event": "parcels.triggerSandboxEvent"
        },
        onBeforeCall(ctx: Context<unknown, Record<string, unknown>>, _route: unknown, req: GatewayRequest) {
          const key = req.headers["idempotency-key"];
          if (typeof key === "string") ctx.meta.idempotencyKey = key;
        },
        onAfterCall: setSuccessStatus
      },
      {
        name: "backoffice",
        path: "/api/backoffice/v1",
        mappingPolicy: "restrict",
        autoAliases: false,
        authentication: "authenticateOperator",
        bodyParsers: { json: { strict: true, limit: "64kb" } },
        aliases: {
          "POST /organizations": "auth.createOrganization",
          "GET /organizations/:organizationId": "auth.organizationOverview",
          "POST /organizations/:organizationId/api-keys": "auth.createApiKey",
          "GET /organizations/:organizationId/api-keys": "auth.listApiKeys",
          "DELETE /organizations/:organizationId/api-keys/:keyId": "auth.revokeApiKey",
          "POST /organizations/:organizationId/wallet/top-ups": "wallet.topUp",
          "GET /organizations/:organizationId/wallet": "wallet.get",
          "POST /parcels/:id/transitions": "parcels.transition",
          "GET /relay-points": "parcels.listRelayPoints",
          "POST /relay-points": "parcels.upsertRelayPoint",
          "PUT /organizations/:organizationId/webhook": "webhooks.setEndpoint",
          "GET /organizations/:organizationId/webhook-deliveries": "webhooks.listDeliveries",
          "POST /webhook-deliveries/:id/redeliver": "webhooks.redeliver"
        },
        onAfterCall: setSuccessStatus
      },
      {
        // Pre-signed label downloads: the signature in the URL is the credential (SPEC §2.1).
        name: "labels",
        path: "/labels",
        mappingPolicy: "restrict",
        autoAliases: false,
        aliases: {
          "GET /:file": "gateway.downloadLabel"
        }
      },
      {
        // SPEC §4.8: the partner API's description and its reference page, readable without a key.
        name: "api-docs",
        path: "/",
        mappingPolicy: "restrict",
        autoAliases: false,
        aliases: {
          "GET /v3/api-docs/partner": "gateway.partnerApiDocs",
          "GET /docs": "gateway.docsPage",
          "GET /docs/:file": "gateway.docsAsset"
        }
      },
      {
        // The back-office API's description sits behind the back-office token, like the API itself:
        // an internal surface that merchants have no use for is not advertised to whoever reaches the gateway.
        name: "backoffice-api-docs",
        path: "/v3/api-docs/backoffice",
        mappingPolicy: "restrict",
        autoAliases: false,
        authentication: "authenticateOperator",
        aliases: {
          "GET /": "gateway.backofficeApiDocs"
        }
      },
      {
        name: "probes",
        path: "/",
        mappingPolicy: "restrict",
        autoAliases: false,
        aliases: {
          "GET /healthz": "gateway.liveness",
          "GET /readyz": "gateway.readiness"
        }
      }
    ]
  },

  actions: {
    /** Streams the PDF of a valid pre-signed URL; 403 for an expired or tampered one, 404 for an unknown parcel. */
    downloadLabel: {
      visibility: "published",
      async handler(ctx: Context<Record<string, unknown>, Record<string, unknown>>) {
        const single = (v: unknown) => (typeof v === "string" ? v : "");
        const match = /^([0-9a-fA-F-]{36})\.pdf$/.exec(single(ctx.params.file));
        if (!match) throw new AppError("NOT_FOUND", "No such label");
        const label = await ctx.call<{ pdfBase64: string; fileName: string }, object>("labels.render", {
          parcelId: match[1].toLowerCase(),
          expires: single(ctx.params.expires),
          signature: single(ctx.params.signature)
        });
        ctx.meta.$responseType = "application/pdf";
        ctx.meta.$responseHeaders = {
          "Content-Disposition": `inline; filename="${label.fileName}"`,
          "Cache-Control": "private, max-age=60"
        };
        return Buffer.from(label.pdfBase64, "base64");
      }
    },

    liveness: {
      visibility: "published",
      handler() {
        return { status: "ok" };
      }
    },
    /** Ready when the services the gateway fronts are reachable from this node. */
    readiness: {
      visibility: "published",
      handler(this: GatewayVars & { broker: import("moleculer").ServiceBroker }, ctx: Context<unknown, Record<string, unknown>>) {
        const available = new Set(
          this.broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true }).map(s => s.name)
        );
        const missing = FRONTED_SERVICES.filter(name => !available.has(name));
        if (missing.length > 0) {
          throw new AppError("UNAVAILABLE", `Not ready: ${missing.join(", ")} unavailable`);
        }
        ctx.meta.$statusCode = 200;
        return { status: "ok" };
      }
    }
  },

  methods: {
    /** `Authorization: ApiKey <key>` or `X-API-Key: <key>`; then the per-key rate limit. */
    async authenticatePartner(ctx: Context<unknown, Record<string, unknown>>, _route: unknown, req: GatewayRequest, res: ServerResponse) {
      const key = extractApiKey(req.headers);
      if (!key || !isWellFormedKey(key)) {
        throw new AppError("UNAUTHENTICATED", "Missing or invalid API key (use Authorization: ApiKey <key> or X-API-Key)");
      }
      const principal = await ctx.call<Principal | null, { keyHash: string }>("auth.resolveKey", { keyHash: hashApiKey(key) });
      if (!principal) throw new AppError("UNAUTHENTICATED", "Missing or invalid API key (use Authorization: ApiKey <key> or X-API-Key)");

      const limit = principal.rateLimitPerMinute ?? this.defaultRateLimit;
      const decision = await this.limiter.consume(principal.keyId, limit);
      res.setHeader("X-RateLimit-Limit", String(decision.limit));
      res.setHeader("X-RateLimit-Remaining", String(decision.remaining));
      if (!decision.allowed) {
        throw new AppError("RATE_LIMITED", `Rate limit of ${limit} requests per minute exceeded`, {
          retryAfterSeconds: decision.retryAfterSeconds
        });
      }
      ctx.meta.auth = principal;
      return null;
    },

    authorizeScope(ctx: Context<unknown, { auth?: Principal }>, _route: unknown, req: GatewayRequest) {
      const scope = req.$action?.scope;
      if (scope && !ctx.meta.auth?.scopes.includes(scope as Principal["scopes"][number])) {
        throw new AppError("SCOPE_MISSING", `This API key lacks the ${scope} scope`);
      }
    },

    authenticateOperator(this: GatewayVars, _ctx: Context, _route: unknown, req: GatewayRequest) {
      const header = req.headers["authorization"];
      const match = typeof header === "string" ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      // Compare digests so that timing reveals nothing about the token.
      const given = createHash("sha256").update(match ? match[1] : "").digest();
      if (!match || !timingSafeEqual(given, this.backofficeTokenDigest)) {
        throw new AppError("UNAUTHENTICATED", "Missing or invalid back-office token (use Authorization: Bearer <token>)");
      }
      return null;
    }
  },

  created() {
    const config = configOf(this.broker);
    this.settings.port = config.port;
    this.defaultRateLimit = config.rateLimitPerMinute;
    this.backofficeTokenDigest = createHash("sha256").update(requireSecret(config, "backofficeToken")).digest();
    this.redis = config.redisUrl
      ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false })
      : null;
    this.redis?.on("error", err => this.logger.warn("Redis unavailable for rate limits:", err.message));
    this.limiter = new KeyRateLimiter(this.redis, `${config.namespace}:rate`);
  },

  async stopped() {
    if (this.redis) await this.redis.quit().catch(() => undefined);
  }
};

function setSuccessStatus(
  this: { broker: import("moleculer").ServiceBroker },
  ctx: Context<unknown, Record<string, unknown>>,
  _route: unknown,
  req: GatewayRequest,
  _res: ServerResponse,
  data: unknown
) {
  const action = req.$action?.name;
  const status = action ? SUCCESS_STATUS[action] : undefined;
  if (status && !ctx.meta.$statusCode) ctx.meta.$statusCode = status;
  const location = action ? LOCATION_OF[action]?.(ctx.params as Record<string, string>, data as { id?: string }) : undefined;
  if (location) ctx.meta.$location = configOf(this.broker).publicBaseUrl + location;
  return data;
}

export default GatewayService;
