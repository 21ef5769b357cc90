import { AGENT_KEY_PREFIX } from "../../../lib/agent-keys";
import { KEY_PREFIX } from "../../../lib/api-keys";
import { STAFF_KEY_PREFIX } from "../../../lib/staff-keys";
import { API_BASE_PATH, ApiKind } from "../../../lib/endpoint";
import type { OpenApiDocument, Operation, PathItem, SecurityScheme, Tag } from "../../../lib/openapi/types";
import { compareRoutes, fullTemplatePath, RoutedEndpoint, ServiceDocs } from "../endpoints";
import { ComponentHoister, shareResponses } from "./hoist";
import { operationOf } from "./operations";

/**
 * The OpenAPI 3.1 documents, generated from the endpoint declarations the registry carries: the
 * partner document (partner API, label downloads, public API, and the webhooks merchants receive),
 * the relay document (the counter app of a relay point) and the back-office document. Nothing here names a route: every path comes from a `rest`.
 */

export interface ApiDocuments {
  partner: OpenApiDocument;
  relay: OpenApiDocument;
  backoffice: OpenApiDocument;
  /** Issue 44: the courier API and the hub API, both with staff keys. */
  network: OpenApiDocument;
}

const CONTACT = {
  name: "Relay Parcels integration support",
  email: "integrations@relay-parcels.dz",
  url: "https://relay-parcels.dz/support"
};
const LICENSE = { name: "Proprietary: for integrating with Relay Parcels only", url: "https://relay-parcels.dz/terms" };

const PARTNER_DESCRIPTION = `
The partner API of the relay-point parcel service: create parcels addressed to a relay point, follow them, cancel them,
and receive every status change on your webhook.

## Authentication
Send your API key on every call, either as \`Authorization: ApiKey <API_KEY>\` or as \`X-API-Key: <API_KEY>\`.
Keys are created in the back-office (Settings, API keys) and shown once. Live keys start with \`${KEY_PREFIX.live}\`, sandbox
keys with \`${KEY_PREFIX.sandbox}\`; a sandbox key sees only sandbox parcels, paid from the sandbox wallet. Scopes:
\`parcels:read\` to list and read parcels and their events, quote and search relay points; \`parcels:write\` to create,
cancel and trigger sandbox events; \`wallet:read\` to read the wallet (each operation lists the scope it needs). A key
created without scopes has all three.

## Public tracking
\`GET ${API_BASE_PATH.public}/tracking/{trackingNumber}\` needs no key: anyone holding a tracking number may see where the
parcel is, never who it is for or what it cost. It is limited per client address, with the same rate-limit headers.

## Rate limits
60 requests per minute per key unless your key has its own limit. Every authenticated answer carries
\`X-RateLimit-Limit\` and \`X-RateLimit-Remaining\`; past the limit the answer is 429 with \`Retry-After\` (seconds).

## Errors
Every error is JSON: \`{"code", "message", "status"}\`, plus \`details\` (field by field) on validation errors and
\`requestId\` (also in the \`X-Request-Id\` header, which you may set yourself). Each operation lists its statuses and codes.

## Webhooks
Every status change of your parcels is POSTed to your webhook URL (see *Webhooks* below), signed with
\`X-Relay-Signature: sha256=<hex HMAC-SHA256 of the raw body with your secret>\`. Verify it on the raw bytes, in constant
time, before parsing; process each \`X-Relay-Delivery-Id\` once.

## Versioning
The version is in the path (\`${API_BASE_PATH.partner}\`). Responses may gain fields within v1, and error codes may be added: write
clients that ignore fields they do not know and treat an unknown error code by its HTTP status.
`.trim();

const RELAY_DESCRIPTION = `
The relay API, for the app at a relay point's counter: what is coming, what is on the shelf, scanning a parcel in,
handing it over against the recipient's PIN and the exact cash on delivery, a refusal, the till and its closing, and the
returns handed to the courier. Every call sees this relay point's live parcels only.

## Authentication
Send the relay agent key on every call, as \`Authorization: ApiKey <AGENT_KEY>\` or as \`X-API-Key: <AGENT_KEY>\`. Agent
keys start with \`${AGENT_KEY_PREFIX}\`, are made by an operator for one relay point and shown once; a partner key is refused
here (401), and an agent key on the partner API. A revoked key stops at once.

## Rate limits
Each agent key has its own budget per minute (\`RELAY_RATE_LIMIT_PER_MINUTE\`, 120 by default); answers carry
\`X-RateLimit-Limit\` and \`X-RateLimit-Remaining\`, and past the limit 429 with \`Retry-After\`.

## Errors
The partner API's shape: \`{"code", "message", "status"}\`, \`details\` field by field, \`requestId\`.
`.trim();

const BACKOFFICE_DESCRIPTION =
  "Operators' API: organisations, API keys, wallets, webhook endpoints and deliveries, relay points, and parcel transitions " +
  "along the logistics graph. Every call needs `Authorization: Bearer <BACKOFFICE_TOKEN>`. Errors have the partner API's shape.";

const PARTNER_SECURITY_SCHEMES: Record<string, SecurityScheme> = {
  ApiKeyAuthorization: {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description: "`Authorization: ApiKey <API_KEY>`: the word ApiKey, a space, then the key (type both in the Authorize dialog)."
  },
  ApiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "`X-API-Key: <API_KEY>`: the key alone." }
};

const RELAY_SECURITY_SCHEMES: Record<string, SecurityScheme> = {
  AgentKeyAuthorization: {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description: "`Authorization: ApiKey <AGENT_KEY>`: the word ApiKey, a space, then the relay agent key."
  },
  AgentKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "`X-API-Key: <AGENT_KEY>`: the relay agent key alone." }
};

const NETWORK_DESCRIPTION = `
The network's APIs: the courier API (\`${API_BASE_PATH.courier}\`, a courier's phone: the run, the scans at a merchant, closing
a pickup stop) and the hub API (\`${API_BASE_PATH.hub}\`, a sort station: scan in, and where the parcel goes; scan out).

## Authentication
Send the staff key on every call, as \`Authorization: ApiKey <STAFF_KEY>\` or as \`X-API-Key: <STAFF_KEY>\`. Staff keys start
with \`${STAFF_KEY_PREFIX}\`, are made by an operator for one courier (the courier API only) or one hub (the hub API only) and
shown once; any other key is refused (401). A revoked key stops at once.

## Scans
Every POST takes \`Idempotency-Key\` (the same scan sent again records one hand-off and changes nothing twice) and
\`occurredAt\` (when the device scanned; not in the future, at most 72 hours back).

## Errors
The partner API's shape: \`{"code", "message", "status"}\`, \`details\` field by field, \`requestId\`.
`.trim();

const NETWORK_SECURITY_SCHEMES: Record<string, SecurityScheme> = {
  StaffKeyAuthorization: {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description: "`Authorization: ApiKey <STAFF_KEY>`: the word ApiKey, a space, then the courier's or the hub's key."
  },
  StaffKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "`X-API-Key: <STAFF_KEY>`: the staff key alone." }
};

const BACKOFFICE_SECURITY_SCHEMES: Record<string, SecurityScheme> = {
  BearerToken: {
    type: "http",
    scheme: "bearer",
    description: "The back-office token (BACKOFFICE_TOKEN, printed at the first embedded start)."
  }
};

interface DocumentPlan {
  title: string;
  description: string;
  apis: ApiKind[];
  withWebhooks: boolean;
  securitySchemes: Record<string, SecurityScheme>;
}

const PLANS: Record<keyof ApiDocuments, DocumentPlan> = {
  partner: {
    title: "Relay Parcels — Partner API",
    description: PARTNER_DESCRIPTION,
    apis: ["partner", "public", "labels"],
    withWebhooks: true,
    securitySchemes: PARTNER_SECURITY_SCHEMES
  },
  relay: {
    title: "Relay Parcels — Relay API",
    description: RELAY_DESCRIPTION,
    apis: ["relay"],
    withWebhooks: false,
    securitySchemes: RELAY_SECURITY_SCHEMES
  },
  backoffice: {
    title: "Relay Parcels — Back-office API",
    description: BACKOFFICE_DESCRIPTION,
    apis: ["backoffice"],
    withWebhooks: false,
    securitySchemes: BACKOFFICE_SECURITY_SCHEMES
  },
  network: {
    title: "Relay Parcels — Courier and hub APIs",
    description: NETWORK_DESCRIPTION,
    apis: ["courier", "hub"],
    withWebhooks: false,
    securitySchemes: NETWORK_SECURITY_SCHEMES
  }
};

function buildDocument(plan: DocumentPlan, endpoints: RoutedEndpoint[], services: ServiceDocs[], serverUrl: string): OpenApiDocument {
  const routed = endpoints
    .filter(e => plan.apis.includes(e.api) && !e.endpoint.hidden)
    .map(e => ({ e, path: fullTemplatePath(e.api, e.endpoint.path) }))
    .sort((a, b) => compareRoutes({ path: a.path, method: a.e.endpoint.method }, { path: b.path, method: b.e.endpoint.method }));

  const paths: Record<string, PathItem> = {};
  const operations: Operation[] = [];
  for (const { e, path } of routed) {
    const method = e.endpoint.method.toLowerCase() as keyof PathItem & ("get" | "post" | "put" | "patch" | "delete");
    const item = (paths[path] ??= {});
    if (item[method]) throw new Error(`OpenAPI: ${e.endpoint.method} ${path} is declared twice`);
    const operation = operationOf(e);
    item[method] = operation;
    operations.push(operation);
  }
  const webhooks: Record<string, PathItem> = plan.withWebhooks ? Object.assign({}, ...services.map(s => s.webhooks ?? {})) : {};

  const hoister = new ComponentHoister();
  const hoistedPaths = hoister.hoist(paths);
  const hoistedWebhooks = hoister.hoist(webhooks);
  const hoistedOperations = Object.values(hoistedPaths).flatMap(item => Object.values(item) as Operation[]);
  const responses = shareResponses(hoistedOperations);

  const used = new Set(
    [...hoistedOperations, ...Object.values(hoistedWebhooks).flatMap(i => Object.values(i) as Operation[])].flatMap(o => o.tags ?? [])
  );
  const described = new Map(services.flatMap(s => s.tags ?? []).map(t => [t.name, t.description]));
  const tags: Tag[] = [...used].sort().map(name => ({ name, ...(described.has(name) ? { description: described.get(name) } : {}) }));

  const document: OpenApiDocument = {
    openapi: "3.1.0",
    info: { title: plan.title, version: "v1", description: plan.description, contact: CONTACT, license: LICENSE },
    servers: [{ url: serverUrl, description: "This server" }],
    tags,
    security: Object.keys(plan.securitySchemes).map(name => ({ [name]: [] })),
    paths: hoistedPaths,
    ...(plan.withWebhooks ? { webhooks: hoistedWebhooks } : {}),
    components: { responses, schemas: hoister.sortedSchemas(), securitySchemes: plan.securitySchemes }
  };
  // Plain data only (no undefined, no shared references), exactly what is served.
  return JSON.parse(JSON.stringify(document)) as OpenApiDocument;
}

export function buildApiDocuments(endpoints: RoutedEndpoint[], services: ServiceDocs[], options: { serverUrl: string }): ApiDocuments {
  return {
    partner: buildDocument(PLANS.partner, endpoints, services, options.serverUrl),
    relay: buildDocument(PLANS.relay, endpoints, services, options.serverUrl),
    backoffice: buildDocument(PLANS.backoffice, endpoints, services, options.serverUrl),
    network: buildDocument(PLANS.network, endpoints, services, options.serverUrl)
  };
}
