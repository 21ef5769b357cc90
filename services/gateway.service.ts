import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID, timingSafeEqual, createHash } from "node:crypto";
import Redis from "ioredis";
import ApiGateway from "moleculer-web";
import type { Context, ServiceSchema } from "moleculer";
import { hashApiKey, isWellFormedKey, readApiKey } from "../lib/api-keys";
import type { AppConfig } from "../lib/config";
import { AppError } from "../lib/errors";
import { toErrorResponse } from "../lib/http-errors";
import { answerClientError } from "../lib/http/client-error";
import { KeyRateLimiter, RateDecision } from "../lib/rate-limit";
import { configOf } from "../lib/runtime";
import { REQUEST_ID_PATTERN } from "../lib/request-id";
import { requireSecret } from "../lib/secrets";
import { ApiDocsMixin } from "./gateway/api-docs.mixin";
import { EdgeMixin, EdgeRequest } from "./gateway/edge.mixin";
import type { Principal } from "../lib/principal";

type GatewayRequest = EdgeRequest & {
  $action?: { name: string; scope?: string };
};

interface GatewayVars {
  config: AppConfig;
  limiter: KeyRateLimiter;
  addressLimiter: KeyRateLimiter;
  redis: Redis | null;
  backofficeTokenDigest: Buffer;
  server: import("node:http").Server;
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
  // What is left of a body the edge refused to read is not waited for.
  if (!req.complete) res.setHeader("Connection", "close");
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
  // EdgeMixin first: its routeHandler and resolveAlias take precedence over moleculer-web's.
  mixins: [EdgeMixin, ApiGateway, ApiDocsMixin],

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
        api: "partner",
        // The edge reads bodies itself, after authentication (services/gateway/edge.mixin.ts).
        bodyParsers: false,
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
          ctx.meta.auth = req.$principal;
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
        api: "backoffice",
        bodyParsers: false,
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
        api: "labels",
        bodyParsers: false,
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
        api: "open",
        bodyParsers: false,
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
        api: "backoffice",
        bodyParsers: false,
        aliases: {
          "GET /": "gateway.backofficeApiDocs"
        }
      },
      {
        name: "probes",
        path: "/",
        mappingPolicy: "restrict",
        autoAliases: false,
        api: "open",
        bodyParsers: false,
        aliases: {
          "GET /healthz": "gateway.liveness",
          "GET /readyz": "gateway.readiness"
        }
      }
    ]
  },

  actions: {
    /**
     * Streams the PDF of a valid pre-signed URL. Any URL that does not verify — expired, tampered,
     * or with a part of the wrong shape or length — is the same 403, so a prober learns nothing
     * about which part it got wrong; 404 only for a well-signed URL of a parcel that is gone.
     */
    downloadLabel: {
      visibility: "published",
      async handler(ctx: Context<Record<string, unknown>, Record<string, unknown>>) {
        const single = (v: unknown) => (typeof v === "string" ? v : "");
        const file = /^([0-9a-fA-F-]{36})\.pdf$/.exec(single(ctx.params.file));
        const expires = single(ctx.params.expires);
        const signature = single(ctx.params.signature);
        if (!file || !/^\d{1,15}$/.test(expires) || !/^[0-9a-fA-F]{1,128}$/.test(signature)) {
          throw new AppError("LABEL_URL_INVALID", "label URL is not valid");
        }
        const label = await ctx.call<{ pdfBase64: string; fileName: string }, object>("labels.render", {
          parcelId: file[1].toLowerCase(),
          expires,
          signature
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
    /** `Authorization: ApiKey <key>` or `X-API-Key: <key>` (SPEC §5.1); the edge calls it first. */
    async authenticatePartner(ctx: Context, req: GatewayRequest): Promise<Principal> {
      const reading = readApiKey(req.headers);
      if (!("key" in reading)) throw new AppError("UNAUTHENTICATED", reading.problem);
      const principal = isWellFormedKey(reading.key)
        ? await ctx.call<Principal | null, { keyHash: string }>("auth.resolveKey", { keyHash: hashApiKey(reading.key) })
        : null;
      if (!principal) throw new AppError("UNAUTHENTICATED", "Invalid API key (unknown, revoked or malformed)");
      return principal;
    },

    consumeKeyLimit(this: GatewayVars, principal: Principal): Promise<RateDecision> {
      return this.limiter.consume(principal.keyId, principal.rateLimitPerMinute ?? this.config.rateLimitPerMinute);
    },

    consumeLabelLimit(this: GatewayVars, address: string): Promise<RateDecision> {
      return this.addressLimiter.consume(`labels:${address}`, this.config.labelDownloadsPerMinute);
    },

    authenticateOperator(this: GatewayVars, req: GatewayRequest) {
      const header = req.headers["authorization"];
      const match = typeof header === "string" ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      // Compare digests so that timing reveals nothing about the token.
      const given = createHash("sha256").update(match ? match[1] : "").digest();
      if (!match || !timingSafeEqual(given, this.backofficeTokenDigest)) {
        throw new AppError("UNAUTHENTICATED", "Missing or invalid back-office token (use Authorization: Bearer <token>)");
      }
    }
  },

  created() {
    const config = configOf(this.broker);
    this.config = config;
    this.settings.port = config.port;
    // moleculer-web created the server already (in its own created()); bound what a slow client can hold.
    this.server.requestTimeout = config.http.requestTimeoutMs;
    this.server.headersTimeout = config.http.headersTimeoutMs;
    this.server.keepAliveTimeout = config.http.keepAliveTimeoutMs;
    // Node checks those time-outs every 30 s by default; read when the server starts listening.
    this.server.connectionsCheckingInterval = 1_000;
    this.server.on("clientError", answerClientError);
    this.backofficeTokenDigest = createHash("sha256").update(requireSecret(config, "backofficeToken")).digest();
    this.redis = config.redisUrl
      ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false })
      : null;
    this.redis?.on("error", err => this.logger.warn("Redis unavailable for rate limits:", err.message));
    this.limiter = new KeyRateLimiter(this.redis, `${config.namespace}:rate`);
    this.addressLimiter = new KeyRateLimiter(this.redis, `${config.namespace}:rate:address`);
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
