/**
 * The gateway service. Owns the HTTP edge: routing, authentication, rate limits, request ids,
 * the error shape, the API documents, the public tracking page, label downloads and the counter
 * app's files (/counter); its code is this file and services/gateway/ (http/, tracking-page/,
 * principal cache, rate limiter).
 * Others may call (types in gateway/gateway.contract.ts): `gateway.forgetApiKey` (auth, on a
 * revoke); bin/api-docs.ts uses `gateway.partnerApiDocs` and `gateway.backofficeApiDocs`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID, timingSafeEqual, createHash } from "node:crypto";
import Redis from "ioredis";
import ApiGateway from "moleculer-web";
import type { Context, Logger, ServiceBroker, ServiceSchema } from "moleculer";
import { AgentPrincipal, isWellFormedAgentKey } from "../lib/agent-keys";
import { isWellFormedStaffKey, StaffPrincipal } from "../lib/staff-keys";
import { hashApiKey, isWellFormedKey, readApiKey } from "../lib/api-keys";
import type { AppConfig } from "../lib/config";
import { defineAction } from "../lib/action";
import { call } from "../lib/contract";
import { API_BASE_PATH, API_KINDS, LocationRule, detached, PROBE_PATHS } from "../lib/endpoint";
import { AppError } from "../lib/errors";
import { toErrorResponse } from "../lib/http-errors";
import { addressBucket } from "./gateway/http/client-address";
import { drainIdleConnectionsOnClose } from "./gateway/http/idle-drain";
import { answerClientError } from "./gateway/http/client-error";
import { holdExpectContinue } from "./gateway/http/expect-continue";
import { answerAsFile } from "./gateway/http/static-files";
import { lingerAfterAnswer } from "./gateway/http/lingering-close";
import { logUnavailable } from "./gateway/http/unavailable-log";
import type { Principal } from "../lib/principal";
import { PrincipalCache } from "./gateway/principal-cache";
import { KeyRateLimiter, RateAnswer } from "./gateway/rate-limit";
import { RedisFallback } from "./gateway/redis-fallback";
import { RELAY_METRICS, setMetric } from "../lib/metrics";
import { REQUEST_ID_PATTERN } from "../lib/request-id";
import { requestLogger } from "../lib/request-context";
import { readinessOf } from "../lib/readiness";
import { requireSecret } from "../lib/secrets";
import { ConfigMixin } from "../mixins/config.mixin";
import { ApiDocsMixin } from "./gateway/api-docs.mixin";
import { clientOf, TrackingPageMixin } from "./gateway/tracking-page.mixin";
import { FormTokens } from "./gateway/tracking-page/form-guard";
import { EdgeMethods, EdgeMixin, EdgeRequest } from "./gateway/edge.mixin";
import type { RoutedEndpoint } from "./gateway/endpoints";
import { ForgetApiKeySchema, GATEWAY_DOCS, PROBE_DOCS } from "./gateway/gateway.params";
import { LabelDownloadsMixin } from "./gateway/label-downloads.mixin";
import { WidgetMixin } from "./gateway/widget.mixin";
import { WebAppsMixin } from "./gateway/web-apps.mixin";
import { countHttpRequests } from "./gateway/http-metrics";
import { ACCESS_LOG_SETTINGS, accessLogWritten } from "./gateway/access-log";

/**
 * Pairing codes a client address may try per minute on the relay API: a shop pairs a phone or two
 * at a time, and a guesser needs about 10^11 tries for a code (31^8 of them, a few valid at once).
 */
const PAIRING_ATTEMPTS_PER_MINUTE = 10;

const unknownKey = () => new AppError("UNAUTHENTICATED", "Invalid API key (unknown, revoked or malformed)");

type GatewayRequest = EdgeRequest & { $endpoint?: { action: { name: string; endpoint?: RoutedEndpoint["endpoint"] } } };

interface GatewayVars {
  config: AppConfig;
  limiter: KeyRateLimiter;
  addressLimiter: KeyRateLimiter;
  relayLimiter: KeyRateLimiter;
  redis: Redis | null;
  backofficeTokenDigest: Buffer;
  server: import("node:http").Server;
  knownEndpoints: Map<string, RoutedEndpoint>;
  principals: PrincipalCache;
  formTokens: FormTokens;
}

type GatewayThis = GatewayVars & { broker: ServiceBroker; logger: import("moleculer").Logger };

/** moleculer-web's: answers an error through the settings' onError (sendErrorJson). */
interface GatewayErrorSender {
  sendError(req: GatewayRequest, res: ServerResponse, err: unknown): void;
}

function sendErrorJson(this: { logger: Logger }, req: GatewayRequest, res: ServerResponse, err: unknown) {
  const requestId = req.$ctx?.requestID ?? undefined;
  // What is left of a body the edge refused to read is not waited for: the connection closes,
  // lingering so that the client reads this answer instead of a reset.
  if (!req.complete && !res.headersSent) {
    res.setHeader("Connection", "close");
    lingerAfterAnswer(req);
  }
  const { body, headers, unexpected } = toErrorResponse(err, requestId ?? undefined);
  // The one place an error answer is logged (gateway/http/unavailable-log.ts says what of it).
  if (unexpected) requestLogger(req.$ctx, this.logger).error("Unexpected error", { requestId, error: err });
  else logUnavailable(this.logger, req, body);
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

/** The absolute URL a declared Location rule points to, from the target action's own route. */
function locationOf(this: GatewayThis, rule: LocationRule, params: Record<string, unknown>, data: Record<string, unknown>): string | null {
  const target = this.knownEndpoints.get(rule.action);
  if (!target) return null;
  let path = API_BASE_PATH[target.api].replace(/\/$/, "") + target.endpoint.path;
  for (const [name, source] of Object.entries(rule.params)) {
    const [from, field] = source.split(".") as ["response" | "params", string];
    path = path.replace(`:${name}`, encodeURIComponent(String((from === "response" ? data : params)[field])));
  }
  return this.config.publicBaseUrl + path;
}

/**
 * A file or a page of the root route (anything answered with a content type of its own): compressed
 * for this client, with its validator (gateway/http/static-files.ts).
 */
async function servedAsFile(
  ctx: Context<unknown, Record<string, unknown>>,
  req: GatewayRequest,
  type: string,
  data: Buffer | string
): Promise<Buffer> {
  const status = (ctx.meta.$statusCode as number | undefined) ?? 200;
  const accept = req.headers["accept-encoding"];
  const answer = await answerAsFile(data, type, typeof accept === "string" ? accept : undefined, status === 200);
  ctx.meta.$responseHeaders = { ...(ctx.meta.$responseHeaders as Record<string, string> | undefined), ...answer.headers };
  return answer.body;
}

/** The declared success status and Location of the endpoint that answered, and its caching when it is `forBrowsers`. */
function applyDeclaredSuccess(
  this: GatewayThis,
  ctx: Context<unknown, Record<string, unknown>>,
  _route: unknown,
  req: GatewayRequest,
  res: ServerResponse,
  data: unknown
) {
  const type = ctx.meta.$responseType;
  if (req.$route?.opts.api === "open" && typeof type === "string" && (Buffer.isBuffer(data) || typeof data === "string")) {
    return servedAsFile(ctx, req, type, data);
  }
  const endpoint = req.$endpoint?.action.endpoint;
  if (endpoint?.forBrowsers) {
    // moleculer-web answers 304 by itself when If-None-Match matches the ETag set here (the body it is about to send).
    res.setHeader("Cache-Control", `public, max-age=${endpoint.forBrowsers.maxAgeSeconds}`);
    res.setHeader("ETag", `"${createHash("sha256").update(JSON.stringify(data)).digest("base64url").slice(0, 27)}"`);
  }
  if (endpoint?.status && !ctx.meta.$statusCode) ctx.meta.$statusCode = endpoint.status;
  if (endpoint?.location && data && typeof data === "object") {
    // The called action's params (path, query and body merged by moleculer-web), not the gateway's own.
    const params = ((req as { $params?: Record<string, unknown> }).$params ?? {}) as Record<string, unknown>;
    const location = locationOf.call(this, endpoint.location, params, data as Record<string, unknown>);
    if (location) ctx.meta.$location = location;
  }
  return data;
}

/**
 * HTTP front door: one route per API (partner, back-office, public, labels, and the root), whose
 * aliases come from the endpoint declarations on the bus (gateway/edge.mixin.ts); authenticates,
 * limits, normalises errors, and serves the API documents built from the same declarations.
 */
const GatewayService: ServiceSchema<Record<string, unknown>, object, GatewayVars> = {
  name: "gateway",
  // EdgeMixin first: its routing methods take precedence over moleculer-web's.
  mixins: [EdgeMixin, ApiGateway, ApiDocsMixin, TrackingPageMixin, LabelDownloadsMixin, WidgetMixin, WebAppsMixin, ConfigMixin],

  settings: {
    port: 3000,
    ip: "0.0.0.0",
    optimizeOrder: true,
    // Routes appear a moment after their service joins; the edge flushes the rebuild on a miss.
    debounceTime: 100,
    ...ACCESS_LOG_SETTINGS,
    // Accept the caller's X-Request-Id when it is sane, otherwise make one; it comes back on every response.
    rootCallOptions(options: { requestID?: string }, req: IncomingMessage) {
      const given = req.headers["x-request-id"];
      options.requestID = typeof given === "string" && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    },
    onError: sendErrorJson,
    openapi: detached(GATEWAY_DOCS),

    // Nothing is reachable by action name: only declared endpoints, each on the route of its API.
    routes: API_KINDS.map(api => ({
      name: api,
      path: API_BASE_PATH[api],
      api,
      mappingPolicy: "restrict",
      autoAliases: true,
      // The edge reads bodies itself, after authentication (services/gateway/edge.mixin.ts).
      bodyParsers: false,
      onBeforeCall(this: GatewayThis, ctx: Context<unknown, Record<string, unknown>>, _route: unknown, req: GatewayRequest) {
        ctx.meta.auth = req.$principal;
        if (req.$agent) ctx.meta.agent = req.$agent;
        if (req.$staff) ctx.meta.staff = req.$staff;
        const key = req.headers["idempotency-key"];
        if (typeof key === "string") ctx.meta.idempotencyKey = key;
        // The pages at the root read who asks (their limit, their language); the APIs never do.
        if (api === "open") ctx.meta.client = clientOf(req, this.config.http.trustProxyHops);
      },
      onAfterCall: applyDeclaredSuccess
    }))
  },

  actions: {
    liveness: defineAction<unknown, GatewayThis>({
      rest: `GET ${PROBE_PATHS.liveness}`,
      api: "open",
      endpoint: PROBE_DOCS("getLiveness", "The process answers."),
      handler() {
        return { status: "ok" };
      }
    }),

    /** Called by auth on every gateway node when a key is revoked, before the revoke answers. */
    forgetApiKey: defineAction<{ keyId: string }, GatewayThis>({
      visibility: "public",
      schema: ForgetApiKeySchema,
      handler(ctx) {
        return { forgotten: this.principals.forgetKey(ctx.params.keyId) };
      }
    }),

    /** Ready when the services the gateway fronts are reachable from this node. */
    readiness: defineAction<unknown, GatewayThis>({
      rest: `GET ${PROBE_PATHS.readiness}`,
      api: "open",
      endpoint: PROBE_DOCS("getReadiness", "The services the gateway fronts are reachable."),
      handler() {
        // False from the first moment of a shutdown too, so that the load balancer routes elsewhere.
        const { ready, problems } = readinessOf(this.broker, ["gateway"]);
        if (!ready) throw new AppError("UNAVAILABLE", `Not ready: ${problems.join(", ")}`);
        return { status: "ok" };
      }
    })
  },

  methods: {
    /** In place of moleculer-web's, which logs every 5xx with its stack: sendErrorJson answers and logs. */
    errorHandler(this: GatewayErrorSender, req: GatewayRequest, res: ServerResponse, err: unknown) {
      this.sendError(req, res, err);
    },

    /**
     * `Authorization: ApiKey <key>` or `X-API-Key: <key>` (SPEC §5.1); the edge calls it first.
     * A key seen a moment ago is answered at once, not as a promise (the edge awaits only a lookup).
     */
    authenticatePartner(this: GatewayThis, ctx: Context, req: GatewayRequest): Principal | Promise<Principal> {
      const reading = readApiKey(req.headers);
      if (!("key" in reading)) throw new AppError("UNAUTHENTICATED", reading.problem);
      if (!isWellFormedKey(reading.key)) throw unknownKey();
      // Hashed only when auth must be asked: a cached key costs a map lookup, not a SHA-256.
      const known = this.principals.resolve(reading.key, () => call(ctx, "auth.resolveKey", { keyHash: hashApiKey(reading.key) }));
      return known instanceof Promise ? known.then(principal => principal ?? Promise.reject(unknownKey())) : known;
    },

    /**
     * The relay API's credential: a relay-agent key, in the partner API's header forms. A partner
     * key here is refused by its shape, as an agent key is on the partner API. Not cached (see
     * services/auth/agent-keys.mixin.ts): a revoked agent key is refused from the next request.
     */
    async authenticateAgent(this: GatewayThis, ctx: Context, req: GatewayRequest): Promise<AgentPrincipal> {
      const reading = readApiKey(req.headers);
      if (!("key" in reading)) throw new AppError("UNAUTHENTICATED", reading.problem.replace("API key", "relay agent key"));
      const refused = () => new AppError("UNAUTHENTICATED", "Invalid relay agent key (unknown, revoked or malformed)");
      if (!isWellFormedAgentKey(reading.key)) throw refused();
      const agent = await call(ctx, "auth.resolveAgentKey", { keyHash: hashApiKey(reading.key) });
      if (!agent) throw refused();
      return agent;
    },

    /** The courier and hub APIs' credential (issue 44): a staff key of that role, not cached, like an agent key. */
    async authenticateStaff(this: GatewayThis, ctx: Context, req: GatewayRequest, role: "courier" | "hub"): Promise<StaffPrincipal> {
      const reading = readApiKey(req.headers);
      if (!("key" in reading)) throw new AppError("UNAUTHENTICATED", reading.problem.replace("API key", `${role} key`));
      const refused = () => new AppError("UNAUTHENTICATED", `Invalid ${role} key (unknown, revoked, malformed or of another role)`);
      if (!isWellFormedStaffKey(reading.key)) throw refused();
      const staff = await call(ctx, "auth.resolveStaffKey", { keyHash: hashApiKey(reading.key) });
      if (!staff || staff.role !== role) throw refused();
      return staff;
    },

    consumeAgentLimit(this: GatewayVars, agent: AgentPrincipal): RateAnswer {
      return this.relayLimiter.consume(agent.keyId, this.config.relayRateLimitPerMinute);
    },

    consumePairingLimit(this: GatewayVars, address: string): RateAnswer {
      const bucket = addressBucket(address, this.config.addressLimitIpv6Prefix);
      return this.addressLimiter.consume(`pairing:${bucket}`, PAIRING_ATTEMPTS_PER_MINUTE);
    },

    consumeKeyLimit(this: GatewayVars, principal: Principal): RateAnswer {
      return this.limiter.consume(principal.keyId, principal.rateLimitPerMinute ?? this.config.rateLimitPerMinute);
    },

    consumeLabelLimit(this: GatewayVars, address: string): RateAnswer {
      const bucket = addressBucket(address, this.config.addressLimitIpv6Prefix);
      return this.addressLimiter.consume(`labels:${bucket}`, this.config.labelDownloadsPerMinute);
    },

    consumePublicLimit(this: GatewayVars, address: string): RateAnswer {
      const bucket = addressBucket(address, this.config.addressLimitIpv6Prefix);
      return this.addressLimiter.consume(`public:${bucket}`, this.config.publicTrackingPerMinute);
    },

    consumePublicSearchLimit(this: GatewayVars, address: string): RateAnswer {
      const bucket = addressBucket(address, this.config.addressLimitIpv6Prefix);
      return this.addressLimiter.consume(`public-search:${bucket}`, this.config.publicSearchPerMinute);
    },

    authenticateOperator(this: GatewayVars, req: GatewayRequest) {
      const header = req.headers["authorization"];
      const match = typeof header === "string" ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      // Compare digests so that timing reveals nothing about the token.
      const given = createHash("sha256")
        .update(match ? match[1] : "")
        .digest();
      if (!match || !timingSafeEqual(given, this.backofficeTokenDigest)) {
        throw new AppError("UNAUTHENTICATED", "Missing or invalid back-office token (use Authorization: Bearer <token>)");
      }
    }
  },

  created() {
    const config = this.config;
    this.settings.port = config.port;
    // moleculer-web created the server already (in its own created()); bound what a slow client can hold.
    this.server.requestTimeout = config.http.requestTimeoutMs;
    this.server.headersTimeout = config.http.headersTimeoutMs;
    this.server.keepAliveTimeout = config.http.keepAliveTimeoutMs;
    // Node checks those time-outs every 30 s by default; read when the server starts listening.
    this.server.connectionsCheckingInterval = 1_000;
    this.server.on("clientError", answerClientError);
    holdExpectContinue(this.server);
    // Once the listener is closed (moleculer-web's stop), answers close their connection: the
    // client's next request opens a new one, refused here before anything is sent, and goes to
    // another gateway. Not earlier: a client sent back to a listener about to close can land in its
    // accept queue and be reset after sending its request. Idle connections are left to their
    // clients for a while rather than closed under a request being sent (http/idle-drain.ts).
    this.server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
      if (!this.server.listening) res.setHeader("Connection", "close");
    });
    drainIdleConnectionsOnClose(this.server, config.http.drainIdleMs);
    const edge = this as unknown as Pick<EdgeMethods, "resolveAlias"> & { routes: Array<{ logging: boolean }> };
    // Without a metrics reporter nothing would read the counts: no listener per request then.
    if (this.broker.isMetricsEnabled()) {
      countHttpRequests(this.server, this.broker, (url, method) => (edge.resolveAlias(url, method) || undefined)?.alias);
    }
    // moleculer-web built the routes already (its created() runs first); logging stays on whenever its line is written.
    if (!accessLogWritten(config.logLevel)) for (const route of edge.routes) route.logging = false;
    this.backofficeTokenDigest = createHash("sha256").update(requireSecret(config, "backofficeToken")).digest();
    // The forms' tokens are keyed from a secret every gateway node has: a page served by one is posted to any.
    this.formTokens = new FormTokens(requireSecret(config, "backofficeToken"));
    this.redis = config.redisUrl
      ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false })
      : null;
    const fallback = new RedisFallback((local, reason) => {
      if (local) this.logger.warn(`Redis unavailable (${reason}): rate limits are counted by this gateway alone until it returns`);
      else this.logger.info("Redis is back: rate limits are shared again");
      setMetric(this.broker, RELAY_METRICS.rateLimitLocalFallback, local ? 1 : 0);
    });
    this.redis?.on("error", err => fallback.lost(err));
    this.redis?.on("ready", () => fallback.restored());
    this.limiter = new KeyRateLimiter(this.redis, `${config.namespace}:rate`, fallback);
    this.addressLimiter = new KeyRateLimiter(this.redis, `${config.namespace}:rate:address`, fallback);
    this.relayLimiter = new KeyRateLimiter(this.redis, `${config.namespace}:rate:relay`, fallback);
    this.principals = new PrincipalCache({ max: 10_000, ttlMs: config.principalCacheTtlMs });
  },

  events: {
    // Back on the bus after a cut: a revocation may have been announced while this node was away.
    "$transporter.connected"(this: GatewayThis) {
      this.principals.clear();
    }
  },

  async stopped() {
    if (this.redis) await this.redis.quit().catch(() => undefined);
  }
};

export default GatewayService;
