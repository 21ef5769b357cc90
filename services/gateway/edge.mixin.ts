import type { IncomingMessage, ServerResponse } from "node:http";
import ApiGateway from "moleculer-web";
import type { Context, ServiceBroker, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { AppError } from "../../lib/errors";
import { HEALTH_ACTION, healthOf } from "../../lib/health";
import { clientAddress } from "./http/client-address";
import { corsResponseHeaders, isOriginAllowed, preflightHeaders } from "../../lib/http/cors";
import { hasBody, readFormBody, readJsonBody } from "./http/json-body";
import { continueIfExpected } from "./http/expect-continue";
import { checkPageFormToken, checkPagePostOrigin, FormTokens } from "./tracking-page/form-guard";
import type { AppConfig } from "../../lib/config";
import type { ApiKind } from "../../lib/endpoint";
import type { RateAnswer, RateDecision } from "./rate-limit";
import type { Principal } from "../../lib/principal";
import type { AgentPrincipal } from "../../lib/agent-keys";
import type { StaffPrincipal } from "../../lib/staff-keys";
import { compareRoutes, endpointsOf, RegistryService, RoutedEndpoint } from "./endpoints";
import { AliasIndex } from "./alias-index";

/**
 * The gateway's edge: what every request goes through, in this order, before any action runs.
 *
 * 1. OPTIONS runs nothing: a CORS preflight is answered from the policy (204, or 403 for an
 *    origin not allowed; any origin for an endpoint declared `forBrowsers`), any other OPTIONS with the path's Allow list.
 * 2. Credentials and the rate limit of the API the path belongs to: an API key and its per-key
 *    limit on the partner API, a relay-agent key and its own limit on the relay API (a per-address
 *    limit on its keyless pairing instead, as on the courier API's), the bearer token on the back-office API, a per-address limit on
 *    label downloads and on the public tracking API, and another on the public searches declared `forBrowsers`. So a request that fails later (unknown route, bad body) is still counted
 *    and carries its X-RateLimit-* headers, and a request without a key is a 401 first.
 * 3. The route: 404 for an unknown path, 405 with Allow for a known path and another method,
 *    400 for a path parameter that is not validly percent-encoded. HEAD is routed as GET.
 * 4. The scope the action declares; 503 if no node runs it.
 * 5. The JSON body (services/gateway/http/json-body.ts): every failure a 4xx in the error shape.
 *    A form posted to the root's pages must come from this site's own page, with its token
 *    (tracking-page/form-guard.ts): 403 otherwise.
 *    `100 Continue` is sent only here, once the body is going to be read; a request refused
 *    before is answered without it, and its connection closes lingering (http/lingering-close.ts).
 *
 * Then moleculer-web's own route handler takes over (params merge, call, response).
 *
 * The routes themselves come from the registry: each route (one per API) gets an alias for every
 * endpoint declared with that `api` (lib/endpoint.ts), rebuilt whenever services come and go.
 * Endpoints once seen are kept: a service that is restarting answers 503, not 404.
 */

interface RouteLike {
  path: string;
  opts: { api?: ApiKind };
}

interface AliasLike {
  method: string;
  path: string;
  fullPath: string;
  action: string | null;
  route: RouteLike;
  _generated?: boolean;
  isMethod(method: string): boolean;
  match(url: string): Record<string, string> | false;
}

interface FoundAlias {
  alias: AliasLike;
  params: Record<string, string>;
  /** A path parameter was not validly percent-encoded. */
  malformed?: boolean;
}

export type EdgeRequest = IncomingMessage & {
  parsedUrl?: string;
  body?: unknown;
  $ctx?: Context<unknown, Record<string, unknown>>;
  $route?: RouteLike;
  $principal?: Principal;
  $agent?: AgentPrincipal;
  $staff?: StaffPrincipal;
};

export interface EdgeVars {
  config: AppConfig;
  aliases: AliasLike[];
  /** The aliases by method (alias-index.ts), rebuilt when `aliases` changes. */
  aliasIndex?: AliasIndex<AliasLike>;
  broker: ServiceBroker;
  /** The tracking pages' form tokens (tracking-page/form-guard.ts). */
  formTokens: FormTokens;
  /** Every endpoint this gateway has seen in the registry, by action name. */
  knownEndpoints: Map<string, RoutedEndpoint>;
  /** The endpoints were read from the registry in this turn of the event loop (regenerateAutoAliases). */
  endpointsReadThisTurn?: boolean;
  /** moleculer-web's debounced alias rebuild (lodash debounce: it has flush()). */
  regenerateAllAutoAliases: { flush(): void };
  createAlias(route: RouteLike, path: { method: string; path: string }, action: string): AliasLike;
  optimizeAliasesOrder(): void;
  onEndpointsChanged(): void;
  refreshEndpoints(): void;
  /** moleculer-web's own: the answer as JSON with the declared status and headers, and its access line. */
  sendResponse(req: EdgeRequest, res: ServerResponse, data: unknown): void;
  logResponse(req: EdgeRequest, res: ServerResponse, data: unknown): void;
  /** The principal at once when the key is in memory; a promise when auth must be asked. */
  authenticatePartner(ctx: Context, req: EdgeRequest): Principal | Promise<Principal>;
  authenticateAgent(ctx: Context, req: EdgeRequest): Promise<AgentPrincipal>;
  /** A staff key of the API's role (courier or hub); any other key is a 401. */
  authenticateStaff(ctx: Context, req: EdgeRequest, role: "courier" | "hub"): Promise<StaffPrincipal>;
  consumeAgentLimit(agent: AgentPrincipal): RateAnswer;
  /** Pairing attempts of one client address (the relay and courier APIs' keyless pairings, one budget). */
  consumePairingLimit(address: string): RateAnswer;
  authenticateOperator(req: EdgeRequest): void;
  /** Like every consume*Limit: the decision at once when this gateway's places can give it, a promise when Redis is asked. */
  consumeKeyLimit(principal: Principal): RateAnswer;
  consumeLabelLimit(address: string): RateAnswer;
  /** Public tracking lookups of one client address: the API and the /track pages share one budget. */
  consumePublicLimit(address: string): RateAnswer;
  /** Searches of one client address on the public endpoints declared `forBrowsers` (a checkout's picker). */
  consumePublicSearchLimit(address: string): RateAnswer;
}

type EdgeThis = EdgeVars & EdgeMethods;

export interface EdgeMethods {
  resolveAlias(url: string, method?: string): FoundAlias | false;
  admit(ctx: Context, route: RouteLike, req: EdgeRequest, res: ServerResponse, found: FoundAlias | false): Promise<FoundAlias | null>;
  allowedMethods(url: string): string[];
  answerOptions(route: RouteLike, req: EdgeRequest, res: ServerResponse): void;
  forBrowsers(found: FoundAlias | false): boolean;
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const gatewayMethods = (ApiGateway as unknown as { methods: Record<string, (...args: unknown[]) => unknown> }).methods;

function setRateHeaders(res: ServerResponse, decision: RateDecision): void {
  res.setHeader("X-RateLimit-Limit", String(decision.limit));
  res.setHeader("X-RateLimit-Remaining", String(decision.remaining));
}

function refuseIfLimited(decision: RateDecision, what: string): void {
  if (!decision.allowed) {
    throw new AppError("RATE_LIMITED", `Rate limit of ${decision.limit} ${what} per minute exceeded`, {
      retryAfterSeconds: decision.retryAfterSeconds
    });
  }
}

function isMalformedEscape(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name;
  return name === "URIError" || name === "BadRequestError";
}

const mixin: Partial<ServiceSchema<ServiceSettingSchema, EdgeMethods, EdgeVars>> = {
  methods: {
    /** Adds what the registry declares now to the endpoints seen so far; tells the documents when something changed. */
    refreshEndpoints(this: EdgeThis): void {
      this.knownEndpoints ??= new Map();
      const services = this.broker.registry.getServiceList({ withActions: true }) as unknown as RegistryService[];
      let changed = false;
      for (const endpoint of endpointsOf(services)) {
        const before = this.knownEndpoints.get(endpoint.action);
        if (!before || JSON.stringify(before) !== JSON.stringify(endpoint)) changed = true;
        this.knownEndpoints.set(endpoint.action, endpoint);
      }
      if (changed) this.onEndpointsChanged();
    },

    /** moleculer-web calls this for each route with autoAliases, at start and on `$services.changed`. */
    regenerateAutoAliases(this: EdgeThis, route: RouteLike) {
      // moleculer-web calls it for every route in one loop: the registry is read once for all of
      // them (each read compares every endpoint, ~13 ms with nine routes on this machine).
      if (!this.endpointsReadThisTurn) {
        this.refreshEndpoints();
        this.endpointsReadThisTurn = true;
        queueMicrotask(() => (this.endpointsReadThisTurn = false));
      }
      this.aliases = this.aliases.filter(alias => alias.route !== route);
      for (const { action, api, endpoint } of this.knownEndpoints.values()) {
        if (api !== route.opts.api) continue;
        const alias = this.createAlias(route, { method: endpoint.method, path: endpoint.path }, action);
        alias._generated = true;
        this.aliases.push(alias);
      }
      this.optimizeAliasesOrder();
    },

    /** Literal path segments are tried before parameters, whatever the lengths (see compareRoutes). */
    optimizeAliasesOrder(this: EdgeThis) {
      this.aliasIndex?.invalidate();
      this.aliases.sort((a, b) =>
        compareRoutes({ path: a.fullPath, method: a.method as "GET" }, { path: b.fullPath, method: b.method as "GET" })
      );
    },

    /**
     * moleculer-web's alias lookup, except that a path parameter with a broken %-escape marks
     * the match instead of throwing before the edge has counted the request.
     */
    resolveAlias(this: EdgeThis, url: string, method = "GET"): FoundAlias | false {
      this.aliasIndex ??= new AliasIndex();
      const lowerUrl = url.toLowerCase();
      // HEAD is a GET without its body (RFC 9110 §9.3.2): moleculer-web sends the headers alone.
      const routed = method === "HEAD" ? "GET" : method;
      for (const { alias, prefix } of this.aliasIndex.candidates(this.aliases, routed)) {
        if (!lowerUrl.startsWith(prefix)) continue;
        try {
          const params = alias.match(url);
          if (params) return { alias, params };
        } catch (err) {
          if (isMalformedEscape(err)) return { alias, params: {}, malformed: true };
          throw err;
        }
      }
      return false;
    },

    /**
     * moleculer-web's call of the routed action, except `GET /health`: everything it says is in
     * the principal the edge has just resolved, so it is answered here, as the action would
     * (lib/health.ts), without a call through the broker.
     */
    async callAction(this: EdgeThis, route: RouteLike, actionName: string, req: EdgeRequest, res: ServerResponse, ...rest: unknown[]) {
      if (actionName !== HEALTH_ACTION || !req.$principal)
        return gatewayMethods.callAction.call(this, route, actionName, req, res, ...rest);
      const data = healthOf(req.$principal);
      this.sendResponse(req, res, data);
      if ((route as { logging?: boolean }).logging) this.logResponse(req, res, data);
      return true;
    },

    async routeHandler(this: EdgeThis, ctx: Context, route: RouteLike, req: EdgeRequest, res: ServerResponse, found: FoundAlias | false) {
      req.$route = route;
      const admitted = await this.admit(ctx, route, req, res, found);
      if (!admitted) return true;
      return gatewayMethods.routeHandler.call(this, ctx, admitted.alias.route, req, res, admitted);
    },

    /** Steps 1 to 5 above: the alias to call, or null when the edge has answered by itself (OPTIONS). */
    async admit(
      this: EdgeThis,
      ctx: Context,
      given: RouteLike,
      req: EdgeRequest,
      res: ServerResponse,
      resolved: FoundAlias | false
    ): Promise<FoundAlias | null> {
      const url = req.parsedUrl ?? "/";
      let found = resolved;
      let route = given;
      if (!found) {
        // Routes rebuild a moment after a service appears: do it now rather than answer 404 meanwhile.
        this.regenerateAllAutoAliases.flush();
        const method = req.method === "OPTIONS" ? req.headers["access-control-request-method"] : req.method;
        found = this.resolveAlias(url, typeof method === "string" ? method : "GET");
        // The credential is the one of the API the path belongs to, never of the first route that matched its prefix.
        if (found) route = found.alias.route;
      }
      const api = route.opts.api ?? "open";
      if (req.method === "OPTIONS") {
        // A body nobody reads would be left on a kept-alive connection and reset the next request.
        continueIfExpected(req, res);
        req.resume();
        this.answerOptions(route, req, res);
        return null;
      }

      const origin = req.headers.origin;
      const forBrowsers = api === "public" && this.forBrowsers(found);
      if (origin && forBrowsers) {
        // Any page may read it, its refusals (429, 400) included; `*` lets one cached answer serve every origin.
        for (const [name, value] of Object.entries(corsResponseHeaders("*"))) if (name !== "Vary") res.setHeader(name, value);
      }

      if (api === "partner") {
        // Most requests are answered from memory: awaited only when they are not (each await is a turn of the microtask queue).
        const known = this.authenticatePartner(ctx, req);
        const principal = known instanceof Promise ? await known : known;
        const limited = this.consumeKeyLimit(principal);
        const decision = limited instanceof Promise ? await limited : limited;
        setRateHeaders(res, decision);
        refuseIfLimited(decision, "requests");
        req.$principal = principal;
      } else if ((api === "relay" || api === "courier") && found && this.knownEndpoints.get(found.alias.action ?? "")?.endpoint.keyless) {
        // Pairing a phone (a counter's, a courier's): it has no key yet; the code it sends is the credential, guessed at most this often.
        const decision = await this.consumePairingLimit(clientAddress(req, this.config.http.trustProxyHops));
        setRateHeaders(res, decision);
        refuseIfLimited(decision, "pairing attempts");
      } else if (api === "relay") {
        const agent = await this.authenticateAgent(ctx, req);
        const decision = await this.consumeAgentLimit(agent);
        setRateHeaders(res, decision);
        refuseIfLimited(decision, "requests");
        req.$agent = agent;
      } else if (api === "courier" || api === "hub") {
        const staff = await this.authenticateStaff(ctx, req, api);
        // The relay API's per-key budget: a courier or a sort station scans in bursts, as a counter does.
        const decision = await this.consumeAgentLimit({ keyId: staff.keyId, keyPrefix: staff.keyPrefix, relayCode: "" });
        setRateHeaders(res, decision);
        refuseIfLimited(decision, "requests");
        req.$staff = staff;
      } else if (api === "backoffice" || api === "operator") {
        this.authenticateOperator(req);
      } else if (api === "labels") {
        const decision = await this.consumeLabelLimit(clientAddress(req, this.config.http.trustProxyHops));
        setRateHeaders(res, decision);
        refuseIfLimited(decision, "label downloads");
      } else if (forBrowsers) {
        const decision = await this.consumePublicSearchLimit(clientAddress(req, this.config.http.trustProxyHops));
        setRateHeaders(res, decision);
        refuseIfLimited(decision, "searches");
      } else if (api === "public") {
        const decision = await this.consumePublicLimit(clientAddress(req, this.config.http.trustProxyHops));
        setRateHeaders(res, decision);
        refuseIfLimited(decision, "tracking lookups");
      }

      if (origin && api !== "open" && !forBrowsers && isOriginAllowed(this.config.cors, origin)) {
        for (const [name, value] of Object.entries(corsResponseHeaders(origin))) res.setHeader(name, value);
      }

      if (!found) {
        const allow = this.allowedMethods(url);
        if (allow.length > 0) {
          throw new AppError("METHOD_NOT_ALLOWED", `${req.method} is not allowed here (allowed: ${allow.join(", ")})`, { allow });
        }
        throw new AppError("NOT_FOUND", "No such route");
      }
      if (found.malformed) {
        // A label URL is a credential: any part of it that does not verify is the same 403.
        if (api === "labels") throw new AppError("LABEL_URL_INVALID", "label URL is not valid");
        throw new AppError("VALIDATION_FAILED", "The URL is not validly percent-encoded", {
          details: [{ field: "path", message: "must be validly percent-encoded" }]
        });
      }

      const actionName = found.alias.action;
      let maxBodyBytes = this.config.http.maxBodyBytes;
      if (actionName) {
        const endpoint = this.broker.findNextActionEndpoint(actionName, {}, ctx);
        if (endpoint instanceof Error) throw new AppError("UNAVAILABLE", "The service is temporarily unavailable, please retry");
        const { scope, endpoint: declared } = endpoint.action;
        if (scope && scope !== "any" && !req.$principal?.scopes.includes(scope)) {
          throw new AppError("SCOPE_MISSING", `This API key lacks the ${scope} scope`);
        }
        maxBodyBytes = declared?.maxBodyBytes ?? maxBodyBytes;
      }

      if (BODY_METHODS.has(req.method ?? "")) {
        // The root's pages take HTML forms; every API takes JSON. `100 Continue` only now, when
        // every check the headers allow has passed (services/gateway/http/expect-continue.ts).
        const accept = () => continueIfExpected(req, res);
        if (api === "open") {
          // Every form of the pages: from this site's own page, with its token (tracking-page/form-guard.ts).
          checkPagePostOrigin(req, this.config.publicBaseUrl);
          const fields = (await readFormBody(req, maxBodyBytes, accept)) ?? {};
          checkPageFormToken(req, fields, this.formTokens);
          req.body = fields;
        } else req.body = (await readJsonBody(req, maxBodyBytes, accept)) ?? {};
      } else if (hasBody(req)) {
        // A body where none is expected is read and dropped, so the connection stays usable.
        continueIfExpected(req, res);
        req.resume();
        req.body = {};
      }
      return found;
    },

    /** The methods some alias answers to at this path, for Allow and 405: HEAD wherever GET. */
    allowedMethods(this: EdgeThis, url: string): string[] {
      const methods = new Set<string>();
      for (const alias of this.aliases) {
        try {
          if (alias.match(url)) methods.add(alias.method);
        } catch (err) {
          if (!isMalformedEscape(err)) throw err;
          methods.add(alias.method);
        }
      }
      if (methods.has("GET")) methods.add("HEAD");
      return [...methods].sort();
    },

    /** The endpoint found was declared `forBrowsers` (lib/endpoint.ts): any origin, cached, its own budget. */
    forBrowsers(this: EdgeThis, found: FoundAlias | false): boolean {
      const action = found ? found.alias.action : null;
      return !!action && !!this.knownEndpoints.get(action)?.endpoint.forBrowsers;
    },

    answerOptions(this: EdgeThis, _route: RouteLike, req: EdgeRequest, res: ServerResponse) {
      const url = req.parsedUrl ?? "/";
      const methods = this.allowedMethods(url);
      if (methods.length === 0) throw new AppError("NOT_FOUND", "No such route");
      const origin = req.headers.origin;
      const requested = req.headers["access-control-request-method"];
      if (origin && typeof requested === "string") {
        const anyOrigin = this.forBrowsers(this.resolveAlias(url, requested.toUpperCase()));
        if (!anyOrigin && !isOriginAllowed(this.config.cors, origin)) {
          throw new AppError("FORBIDDEN", "Cross-origin requests from this origin are not allowed (see CORS_ORIGINS)");
        }
        if (!methods.includes(requested.toUpperCase())) {
          throw new AppError("METHOD_NOT_ALLOWED", `${requested} is not allowed here`, { allow: methods });
        }
        res.writeHead(204, preflightHeaders(anyOrigin ? "*" : origin, methods));
      } else {
        res.writeHead(204, { Allow: [...methods, "OPTIONS"].join(", ") });
      }
      res.end();
    }
  }
};

export const EdgeMixin = mixin as Partial<ServiceSchema>;
