import { ERROR_STATUS, ErrorCode } from "../../../lib/errors";
import { component } from "../../../lib/openapi/json-schema";
import type { Header, Operation, Parameter, Response, SecurityRequirement } from "../../../lib/openapi/types";
import type { RoutedEndpoint } from "../endpoints";
import { errorResponse, HeaderSet, REQUEST_ID_HEADER, responseHeaders } from "./errors-and-headers";

/**
 * One documented operation from one endpoint declaration, plus what the gateway itself does to
 * every request of its API: the credential, the rate limit, the edge's refusals (see
 * services/gateway/edge.mixin.ts). An endpoint declares only its business errors.
 */

interface ApiStyle {
  security(scope: string | undefined): SecurityRequirement[];
  /** Rate-limit headers on success and on errors; none for an API without a limit. */
  rate: { success?: HeaderSet["rate"]; errors?: HeaderSet["rate"]; subject?: string };
  /** Errors every endpoint of this API can answer, before its own. */
  errors(endpoint: RoutedEndpoint): ErrorCode[];
}

const API_KEY_SCHEMES = ["ApiKeyAuthorization", "ApiKeyHeader"] as const;
const AGENT_KEY_SCHEMES = ["AgentKeyAuthorization", "AgentKeyHeader"] as const;
const STAFF_KEY_SCHEMES = ["StaffKeyAuthorization", "StaffKeyHeader"] as const;

/** Issue 44: the courier and hub APIs, each with a staff key of its role, on the relay API's per-key budget. */
const STAFF_STYLE: ApiStyle = {
  security: () => STAFF_KEY_SCHEMES.map(name => ({ [name]: [] })),
  rate: { success: "required", errors: "optional", subject: "Requests for this staff key" },
  errors: e => [...edgeErrors(e), "UNAUTHENTICATED", "RATE_LIMITED"]
};

function edgeErrors(endpoint: RoutedEndpoint): ErrorCode[] {
  const codes: ErrorCode[] = ["VALIDATION_FAILED", "UNAVAILABLE"];
  if (endpoint.endpoint.request.body) codes.push("PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE");
  return codes;
}

export const API_STYLES: Record<"partner" | "backoffice" | "relay" | "courier" | "hub" | "labels" | "public", ApiStyle> = {
  courier: STAFF_STYLE,
  hub: STAFF_STYLE,
  partner: {
    security: scope => API_KEY_SCHEMES.map(name => ({ [name]: scope && scope !== "any" ? [scope] : [] })),
    rate: { success: "required", errors: "optional" },
    errors: e => [
      ...edgeErrors(e),
      "UNAUTHENTICATED",
      "RATE_LIMITED",
      ...(e.scope && e.scope !== "any" ? (["SCOPE_MISSING"] as const) : [])
    ]
  },
  relay: {
    security: () => AGENT_KEY_SCHEMES.map(name => ({ [name]: [] })),
    rate: { success: "required", errors: "optional", subject: "Requests for this relay agent key" },
    errors: e => [...edgeErrors(e), ...(e.endpoint.keyless ? [] : (["UNAUTHENTICATED"] as const)), "RATE_LIMITED"]
  },
  backoffice: {
    security: () => [{ BearerToken: [] }],
    rate: {},
    errors: e => [...edgeErrors(e), "UNAUTHENTICATED"]
  },
  // Pre-signed label URLs: the signature is the credential; limited per client address.
  labels: {
    security: () => [],
    rate: { errors: "optional", subject: "Label downloads for this client address" },
    errors: () => ["LABEL_URL_INVALID", "RATE_LIMITED", "UNAVAILABLE"]
  },
  public: {
    security: () => [],
    rate: { success: "required", errors: "required", subject: "Requests for this client address" },
    errors: e => [...edgeErrors(e), "RATE_LIMITED"]
  }
};

function groupByStatus(codes: ErrorCode[]): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** What the gateway adds to an endpoint declared `forBrowsers`: its caching headers, If-None-Match and the 304. */
function browserCaching(maxAgeSeconds: number): { headers: Record<string, Header>; parameter: Parameter; notModified: Response } {
  const etag: Header = {
    description: "Validator of this answer: send it back as If-None-Match to get 304 while the answer is the same.",
    required: true,
    schema: { type: "string" }
  };
  return {
    headers: {
      ETag: etag,
      "Cache-Control": {
        description: `public, max-age=${maxAgeSeconds}: browsers and shared caches may keep the answer that many seconds.`,
        required: true,
        schema: { type: "string", examples: [`public, max-age=${maxAgeSeconds}`] }
      }
    },
    parameter: {
      name: "If-None-Match",
      in: "header",
      required: false,
      description: "The ETag of an answer already held: 304 without a body when it is still current.",
      schema: { type: "string" }
    },
    notModified: {
      description: "Not modified: the answer whose ETag was sent in If-None-Match is still current.",
      headers: { ETag: etag, "X-Request-Id": REQUEST_ID_HEADER }
    }
  };
}

export function operationOf(routed: RoutedEndpoint): Operation {
  const { endpoint } = routed;
  const style = API_STYLES[routed.api as keyof typeof API_STYLES];
  if (!style) throw new Error(`OpenAPI: endpoint ${routed.action} of API ${routed.api} is not documented`);
  const status = endpoint.status ?? (endpoint.response ? 200 : 204);
  const caching = endpoint.forBrowsers ? browserCaching(endpoint.forBrowsers.maxAgeSeconds) : null;
  const responses: Record<string, Response> = {
    [String(status)]: {
      description: endpoint.responseDescription,
      headers: responseHeaders({
        rate: style.rate.success,
        rateSubject: style.rate.subject,
        location: !!endpoint.location,
        extra: { ...endpoint.responseHeaders, ...caching?.headers }
      }),
      ...(endpoint.response
        ? {
            content: Object.fromEntries(
              (endpoint.responseMediaTypes ?? [endpoint.responseMediaType ?? "application/json"]).map(mediaType => [
                mediaType,
                { schema: endpoint.response!, ...(endpoint.responseExamples ? { examples: endpoint.responseExamples } : {}) }
              ])
            )
          }
        : {})
    },
    ...(caching ? { "304": caching.notModified } : {})
  };
  for (const [errorStatus, codes] of groupByStatus([...style.errors(routed), ...(endpoint.errors ?? [])])) {
    responses[String(errorStatus)] = errorResponse(errorStatus, codes, style.rate.errors, style.rate.subject);
  }

  const { body } = endpoint.request;
  const parameters = [...endpoint.request.parameters, ...(endpoint.parameters ?? []), ...(caching ? [caching.parameter] : [])];
  if (body && !endpoint.body) throw new Error(`OpenAPI: ${endpoint.operationId} has body fields but no body documentation`);
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    tags: [endpoint.tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body && endpoint.body
      ? {
          requestBody: {
            description: endpoint.body.description,
            required: endpoint.body.required ?? true,
            content: {
              "application/json": {
                schema: component(endpoint.body.name, { ...body, description: endpoint.body.description }),
                ...(endpoint.body.examples ? { examples: endpoint.body.examples } : {})
              }
            }
          }
        }
      : {}),
    responses,
    security: endpoint.keyless ? [] : style.security(routed.scope),
    "x-action": routed.action
  };
}
