import type { ObjectSchema } from "joi";
import type { ErrorCode } from "./errors";
import { joiToJsonSchema } from "./openapi/joi-schema";
import type { Example, Header, JsonSchema, JsonType, Parameter, PathItem } from "./openapi/types";

/**
 * An HTTP endpoint is declared once, on the action that answers it (STYLE: the kantab and
 * template habit of `rest: "POST /parcels"` on the action): its route and API beside `params`
 * and `scope`, and everything a client must know under `endpoint`. The gateway reads these
 * declarations from the service registry, in every mode, to build its routes and the OpenAPI
 * documents; it imports no service's code.
 */

/**
 * The surfaces of the gateway: each has its base path, its credential and its limit. `open` and
 * `operator` share the root: probes and pages anyone may read, and what needs the back-office
 * token outside its API (the back-office document). `relay` is the counter app of a relay point,
 * with a relay-agent key.
 */
export type ApiKind = "partner" | "backoffice" | "relay" | "courier" | "hub" | "public" | "labels" | "open" | "operator";

export const API_KINDS: readonly ApiKind[] = ["partner", "backoffice", "relay", "courier", "hub", "public", "labels", "open", "operator"];

export const API_BASE_PATH: Readonly<Record<ApiKind, string>> = Object.freeze({
  partner: "/api/partner/v1",
  backoffice: "/api/backoffice/v1",
  relay: "/api/relay/v1",
  /** Issue 44: a courier's phone and a hub's sort station, each with a staff key of its role. */
  courier: "/api/courier/v1",
  hub: "/api/hub/v1",
  public: "/api/public/v1",
  labels: "/labels",
  open: "/",
  operator: "/"
});

/**
 * The relay-point directory's segment, under which both `parcels` (the directory, the tills) and
 * `auth` (agent keys) declare back-office routes: written here once for both.
 */
export const RELAY_POINTS_PATH = "/relay-points";

/** Kubernetes probe paths, the same on a gateway's port and on every process's probe port. */
/** Startup (`/startedz`: started and migrated, dependencies aside), liveness, readiness (lib/readiness.ts). */
export const PROBE_PATHS = Object.freeze({ startup: "/startedz", liveness: "/healthz", readiness: "/readyz" });

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const METHODS: readonly string[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const BODY_METHODS: readonly HttpMethod[] = ["POST", "PUT", "PATCH"];

/** Documentation of a request field beyond what its Joi schema says (descriptions live on Joi). */
export interface FieldDoc {
  description?: string;
  examples?: unknown[];
  /**
   * A stricter documented form the handler enforces after Joi (the sandbox `toStatus`: any
   * string for Joi, then 400 INVALID_STATUS unless it is one of the 12 statuses). `check` is that
   * very test, so the agreement test can hold the runtime to the documented keywords; being a
   * function it stays in the service's process (the registry carries data only).
   */
  handler?: { schema: JsonSchema; check?: (value: unknown) => boolean };
}

/** Where a 201 points: the route of another action, its parameters taken from the answer or the request. */
export interface LocationRule {
  action: string;
  params: Record<string, `response.${string}` | `params.${string}`>;
}

/** What an action says about its endpoint. */
export interface EndpointDocs {
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** The success status; 200 by default, 204 when there is no response body. */
  status?: number;
  /** JSON Schema of the success body (hoisted into components where marked, see lib/openapi/json-schema). */
  response?: JsonSchema;
  responseMediaType?: string;
  /** Several media types of the same answer, the client's choice (a label as a PDF or as ZPL text); replaces responseMediaType. */
  responseMediaTypes?: string[];
  responseDescription: string;
  responseHeaders?: Record<string, Header>;
  responseExamples?: Record<string, Example>;
  location?: LocationRule;
  /** The business errors this endpoint answers; those of its API (authentication, limits, bodies) are added by the gateway. */
  errors?: ErrorCode[];
  fields?: Record<string, FieldDoc>;
  /** The request body's component name and description (POST, PUT, PATCH). */
  body?: { name: string; description: string; required?: boolean; examples?: Record<string, Example> };
  /**
   * Parameters the Joi schema does not give: headers the endpoint reads (Idempotency-Key), or the
   * path and query of an action that checks its input itself (a label URL: any bad part is a 403).
   */
  parameters?: Parameter[];
  /** Routed, but in no OpenAPI document (probes, the documentation itself). */
  hidden?: boolean;
  /**
   * Relay and courier APIs only: no key is asked (pairing a phone, which has none yet); the gateway limits
   * it per client address instead of per key.
   */
  keyless?: boolean;
  /** Largest request body this endpoint accepts, when it is not the gateway's default. */
  maxBodyBytes?: number;
  /**
   * A keyless read that web pages of any origin call from the browser (the checkout picker's
   * relay-point search): CORS for every origin whatever CORS_ORIGINS says (there is no credential
   * to steal), `Cache-Control: public, max-age` and an `ETag` (304 on `If-None-Match`), and its own
   * per-address budget on the public API.
   */
  forBrowsers?: { maxAgeSeconds: number };
}

/** What travels in the registry: the docs, and the request already turned into JSON Schema. */
export interface CompiledEndpoint extends EndpointDocs {
  method: HttpMethod;
  /** The path inside the API, in moleculer-web's form: `/parcels/:id`. */
  path: string;
  request: { parameters: Parameter[]; body: JsonSchema | null };
}

/** `"POST /parcels/:id/cancel"` → method and path; anything else is a mistake in a declaration. */
export function parseRest(rest: string): { method: HttpMethod; path: string } {
  const match = /^([A-Z]+) (\/[^\s]*)$/.exec(rest);
  if (!match || !METHODS.includes(match[1])) throw new Error(`rest "${rest}" must be "<METHOD> /path"`);
  return { method: match[1] as HttpMethod, path: match[2] };
}

export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map(m => m[1]);
}

/** `/parcels/:id` → `/parcels/{id}`, the OpenAPI form. */
export function toTemplatePath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

function withoutNull(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (Array.isArray(out.type)) {
    const types = out.type.filter(t => t !== "null");
    out.type = (types.length === 1 ? types[0] : types) as JsonType | JsonType[];
  }
  if (out.enum) out.enum = out.enum.filter(v => v !== null);
  if (out.default === null) delete out.default;
  return out;
}

function documented(schema: JsonSchema, doc: FieldDoc | undefined): JsonSchema {
  if (!doc) return schema;
  const out: JsonSchema = { ...schema, ...(doc.handler?.schema ?? {}) };
  if (doc.description) out.description = doc.description;
  if (doc.examples) out.examples = doc.examples;
  return out;
}

/**
 * The request of an endpoint, from the Joi schema that validates it: moleculer-web merges path
 * parameters, the query string and the JSON body into one `ctx.params`, so each Joi key is a
 * path parameter when the route names it, else a body field for POST/PUT/PATCH and a query
 * parameter otherwise.
 */
export function compileRequest(
  method: HttpMethod,
  path: string,
  joi: ObjectSchema<unknown> | undefined,
  fields: Record<string, FieldDoc> = {}
) {
  const whole = joi ? joiToJsonSchema(joi) : { type: "object" as const, properties: {} };
  const properties = whole.properties ?? {};
  const required = new Set(whole.required ?? []);
  const inPath = joi ? pathParameterNames(path) : [];
  for (const name of inPath)
    if (!(name in properties)) throw new Error(`${method} ${path}: path parameter "${name}" is not in the Joi schema`);
  for (const name of Object.keys(fields))
    if (!(name in properties)) throw new Error(`${method} ${path}: documentation for "${name}", which the Joi schema does not have`);

  const field = (name: string) => documented(properties[name], fields[name]);
  const others = Object.keys(properties).filter(name => !inPath.includes(name));
  const inBody = BODY_METHODS.includes(method) ? others : [];
  const inQuery = BODY_METHODS.includes(method) ? [] : others;
  const parameters: Parameter[] = [
    ...inPath.map(name => {
      const { description, ...schema } = withoutNull(field(name));
      return { name, in: "path" as const, required: true, description, schema };
    }),
    ...inQuery.map(name => {
      const { description, ...schema } = withoutNull(field(name));
      return { name, in: "query" as const, required: required.has(name), description, schema };
    })
  ];
  const bodyRequired = inBody.filter(name => required.has(name));
  const body: JsonSchema | null =
    inBody.length > 0
      ? {
          type: "object",
          properties: Object.fromEntries(inBody.map(name => [name, field(name)])),
          ...(bodyRequired.length > 0 ? { required: bodyRequired } : {}),
          ...(whole.additionalProperties === false ? { additionalProperties: false } : {})
        }
      : null;
  return { parameters, body };
}

export function compileEndpoint(rest: string, joi: ObjectSchema<unknown> | undefined, docs: EndpointDocs): CompiledEndpoint {
  const { method, path } = parseRest(rest);
  return detached({ ...docs, method, path, request: compileRequest(method, path, joi, docs.fields) });
}

/**
 * A copy in which no object appears twice. Moleculer serialises the registry (INFO packets) with
 * a guard that drops any object it has already seen, shared or not, so a schema reused by two
 * fields (ParcelStatus in `previousStatus` and `newStatus`) would lose one of them on the wire.
 * Declarations are detached before they enter the registry; functions are kept (they stay in the
 * service's own process, where tests read them).
 */
export function detached<T>(value: T): T {
  if (Array.isArray(value)) return value.map(item => detached(item)) as T;
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, detached(v)])) as T;
}

/** What a service may add to the documents besides its endpoints (its `settings.openapi`, which the registry carries). */
export interface ServiceDocs {
  tags?: Array<{ name: string; description: string }>;
  /** OpenAPI 3.1 `webhooks`: requests this service sends to merchants. */
  webhooks?: Record<string, PathItem>;
}
