import type { IncomingMessage, ServerResponse } from "node:http";
import ApiGateway from "moleculer-web";
import type { Context, ServiceBroker, ServiceSchema } from "moleculer";
import { AppError } from "../../lib/errors";
import { clientAddress } from "../../lib/http/client-address";
import { corsResponseHeaders, isOriginAllowed, preflightHeaders } from "../../lib/http/cors";
import { hasBody, readJsonBody } from "../../lib/http/json-body";
import type { AppConfig } from "../../lib/config";
import type { RateDecision } from "../../lib/rate-limit";
import type { Principal } from "../../lib/principal";

/**
 * The gateway's edge: what every request goes through, in this order, before any action runs.
 *
 * 1. OPTIONS runs nothing: a CORS preflight is answered from the policy (204, or 403 for an
 *    origin not allowed), any other OPTIONS with the path's Allow list.
 * 2. Credentials and the rate limit of the API the path belongs to: an API key and its per-key
 *    limit on the partner API, the bearer token on the back-office API, a per-address limit on
 *    label downloads. So a request that fails later (unknown route, bad body) is still counted
 *    and carries its X-RateLimit-* headers, and a request without a key is a 401 first.
 * 3. The route: 404 for an unknown path, 405 with Allow for a known path and another method,
 *    400 for a path parameter that is not validly percent-encoded.
 * 4. The scope the action declares; 503 if no node runs it.
 * 5. The JSON body (lib/http/json-body): every failure a 4xx in the error shape.
 *
 * Then moleculer-web's own route handler takes over (params merge, call, response).
 */

/** Which credential and limit a route's requests need; set as `api` on each route. */
export type ApiKind = "partner" | "backoffice" | "labels" | "open";

interface RouteLike {
  path: string;
  opts: { api?: ApiKind };
}

interface AliasLike {
  method: string;
  action: string | null;
  route: RouteLike;
  isMethod(method: string | undefined): boolean;
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
};

export interface EdgeVars {
  config: AppConfig;
  aliases: AliasLike[];
  broker: ServiceBroker;
  authenticatePartner(ctx: Context, req: EdgeRequest): Promise<Principal>;
  authenticateOperator(req: EdgeRequest): void;
  consumeKeyLimit(principal: Principal): Promise<RateDecision>;
  consumeLabelLimit(address: string): Promise<RateDecision>;
}

type EdgeThis = EdgeVars & EdgeMethods;

interface EdgeMethods {
  admit(ctx: Context, route: RouteLike, req: EdgeRequest, res: ServerResponse, found: FoundAlias | false): Promise<boolean>;
  allowedMethods(url: string): string[];
  answerOptions(route: RouteLike, req: EdgeRequest, res: ServerResponse): void;
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

const mixin: Partial<ServiceSchema> = {
  methods: {
    /**
     * moleculer-web's alias lookup, except that a path parameter with a broken %-escape marks
     * the match instead of throwing before the edge has counted the request.
     */
    resolveAlias(this: EdgeThis, url: string, method = "GET"): FoundAlias | false {
      for (const alias of this.aliases) {
        if (!alias.isMethod(method)) continue;
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

    async routeHandler(this: EdgeThis, ctx: Context, route: RouteLike, req: EdgeRequest, res: ServerResponse, found: FoundAlias | false) {
      req.$route = route;
      if (!(await this.admit(ctx, route, req, res, found))) return true;
      return gatewayMethods.routeHandler.call(this, ctx, route, req, res, found);
    },

    /** Steps 1 to 5 above; false when the edge has answered by itself (OPTIONS). */
    async admit(this: EdgeThis, ctx: Context, route: RouteLike, req: EdgeRequest, res: ServerResponse, found: FoundAlias | false) {
      const api = route.opts.api ?? "open";
      if (req.method === "OPTIONS") {
        // A body nobody reads would be left on a kept-alive connection and reset the next request.
        req.resume();
        this.answerOptions(route, req, res);
        return false;
      }

      if (api === "partner") {
        const principal = await this.authenticatePartner(ctx, req);
        const decision = await this.consumeKeyLimit(principal);
        setRateHeaders(res, decision);
        refuseIfLimited(decision, "requests");
        req.$principal = principal;
      } else if (api === "backoffice") {
        this.authenticateOperator(req);
      } else if (api === "labels") {
        const decision = await this.consumeLabelLimit(clientAddress(req, this.config.http.trustProxyHops));
        setRateHeaders(res, decision);
        refuseIfLimited(decision, "label downloads");
      }

      const origin = req.headers.origin;
      if (origin && api !== "open" && isOriginAllowed(this.config.cors, origin)) {
        for (const [name, value] of Object.entries(corsResponseHeaders(origin))) res.setHeader(name, value);
      }

      const url = req.parsedUrl ?? "/";
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
      if (actionName) {
        const endpoint = this.broker.findNextActionEndpoint(actionName, {}, ctx);
        if (endpoint instanceof Error) throw new AppError("UNAVAILABLE", "The service is temporarily unavailable, please retry");
        const scope = (endpoint.action as { scope?: string }).scope;
        if (scope && scope !== "any" && !req.$principal?.scopes.includes(scope as Principal["scopes"][number])) {
          throw new AppError("SCOPE_MISSING", `This API key lacks the ${scope} scope`);
        }
      }

      if (BODY_METHODS.has(req.method ?? "")) {
        req.body = (await readJsonBody(req, this.config.http.maxBodyBytes)) ?? {};
      } else if (hasBody(req)) {
        // A body where none is expected is read and dropped, so the connection stays usable.
        req.resume();
        req.body = {};
      }
      return true;
    },

    /** The methods some alias answers to at this path, for Allow and 405. */
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
      return [...methods].sort();
    },

    answerOptions(this: EdgeThis, _route: RouteLike, req: EdgeRequest, res: ServerResponse) {
      const methods = this.allowedMethods(req.parsedUrl ?? "/");
      if (methods.length === 0) throw new AppError("NOT_FOUND", "No such route");
      const origin = req.headers.origin;
      const requested = req.headers["access-control-request-method"];
      if (origin && typeof requested === "string") {
        if (!isOriginAllowed(this.config.cors, origin)) {
          throw new AppError("FORBIDDEN", "Cross-origin requests from this origin are not allowed (see CORS_ORIGINS)");
        }
        if (!methods.includes(requested.toUpperCase())) {
          throw new AppError("METHOD_NOT_ALLOWED", `${requested} is not allowed here`, { allow: methods });
        }
        res.writeHead(204, preflightHeaders(origin, methods));
      } else {
        res.writeHead(204, { Allow: [...methods, "OPTIONS"].join(", ") });
      }
      res.end();
    }
  }
};

export const EdgeMixin = mixin;
