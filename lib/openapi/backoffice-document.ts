import type { ApiKeyRecord, Organization } from "../../services/auth/auth.store";
import type { RelayPoint } from "../../services/parcels/relay-points.store";
import type { LedgerKind } from "../../services/wallet/wallet.store";
import type { AttemptLogEntry, DeliveryStatus } from "../../services/webhooks/webhooks.store";
import { KEY_PREFIX, SCOPES } from "../api-keys";
import type { KeyMode } from "../api-keys";
import { isParcelStatus, PARCEL_STATUSES } from "../parcel-status";
import { amountDzd, dateTime, nullable, objectOf, sharedSchemas, uuidSchema } from "./components";
import { buildPaths, DocumentStyle, OperationSpec } from "./operations";
import type { JsonSchema, OpenApiDocument } from "./types";
import { schemaRef } from "./types";

/**
 * The back-office API (DESIGN §5): operators' calls, with the bearer token. Served at
 * /v3/api-docs/backoffice behind that same token: it describes an internal surface that merchants
 * have no use for, so it is not advertised to whoever can reach the gateway.
 */

export const BACKOFFICE_BASE = "/api/backoffice/v1";
const B = BACKOFFICE_BASE;

type WalletEntry = { id: string; kind: LedgerKind; amountDzd: number; parcelId: string | null; balanceAfterDzd: number; reason: string | null; createdAt: string };
type DeliveryItem = {
  id: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
  attemptLog: AttemptLogEntry[];
};

const ORG_ID = { organizationId: { description: "Organisation id (uuid)." } };
const common400 = { 400: ["VALIDATION_FAILED" as const], 401: ["UNAUTHENTICATED" as const] };
const bodyErrors = { 413: ["PAYLOAD_TOO_LARGE" as const], 415: ["UNSUPPORTED_MEDIA_TYPE" as const] };
const unavailable = { 503: ["UNAVAILABLE" as const] };

export const BACKOFFICE_OPERATIONS: OperationSpec[] = [
  {
    method: "post",
    path: `${B}/organizations`,
    action: "auth.createOrganization",
    operationId: "createOrganization",
    summary: "Create an organisation",
    tag: "Organisations",
    layout: { body: ["name"], fields: { name: { description: "Legal name, 1 to 200 characters, no surrounding spaces.", examples: ["Boutique Amel"] } } },
    body: { component: "OrganizationCreateRequest", required: true, description: "The new organisation." },
    success: { status: 201, description: "Created.", schema: schemaRef("Organization"), location: true },
    errors: { ...common400, ...bodyErrors, ...unavailable }
  },
  {
    method: "get",
    path: `${B}/organizations/{organizationId}`,
    action: "auth.organizationOverview",
    operationId: "getOrganization",
    summary: "Read an organisation with its wallet balances",
    tag: "Organisations",
    layout: { path: ["organizationId"], fields: ORG_ID },
    success: { status: 200, description: "The organisation.", schema: schemaRef("OrganizationOverview") },
    errors: { ...common400, 404: ["ORGANIZATION_NOT_FOUND"], ...unavailable }
  },
  {
    method: "post",
    path: `${B}/organizations/{organizationId}/api-keys`,
    action: "auth.createApiKey",
    operationId: "createApiKey",
    summary: "Create an API key (shown once)",
    tag: "API keys",
    layout: {
      path: ["organizationId"],
      body: ["mode", "scopes", "name", "rateLimitPerMinute"],
      fields: {
        ...ORG_ID,
        mode: { description: `live (prefix ${KEY_PREFIX.live}) or sandbox (prefix ${KEY_PREFIX.sandbox}).` },
        scopes: { description: "Scopes of the key; both when omitted." },
        name: { description: "A label for the key, at most 100 characters." },
        rateLimitPerMinute: { description: "This key's own limit; the server default when null." }
      }
    },
    body: { component: "ApiKeyCreateRequest", required: true, description: "The key to create." },
    success: { status: 201, description: "Created. `key` is shown here only, never again.", schema: schemaRef("NewApiKey"), location: true },
    errors: { ...common400, 404: ["ORGANIZATION_NOT_FOUND"], ...bodyErrors, ...unavailable }
  },
  {
    method: "get",
    path: `${B}/organizations/{organizationId}/api-keys`,
    action: "auth.listApiKeys",
    operationId: "listApiKeys",
    summary: "List an organisation's API keys (without secrets)",
    tag: "API keys",
    layout: { path: ["organizationId"], fields: ORG_ID },
    success: { status: 200, description: "The keys, newest first.", schema: { type: "array", items: schemaRef("ApiKey") } },
    errors: { ...common400, 404: ["ORGANIZATION_NOT_FOUND"], ...unavailable }
  },
  {
    method: "delete",
    path: `${B}/organizations/{organizationId}/api-keys/{keyId}`,
    action: "auth.revokeApiKey",
    operationId: "revokeApiKey",
    summary: "Revoke an API key",
    description: "The key stops working on the very next request, in every gateway.",
    tag: "API keys",
    layout: { path: ["organizationId", "keyId"], fields: { ...ORG_ID, keyId: { description: "API key id (uuid)." } } },
    success: { status: 204, description: "Revoked (also when it already was)." },
    errors: { ...common400, 404: ["API_KEY_NOT_FOUND"], ...unavailable }
  },
  {
    method: "post",
    path: `${B}/organizations/{organizationId}/wallet/top-ups`,
    action: "wallet.topUp",
    operationId: "topUpWallet",
    summary: "Top a wallet up",
    tag: "Wallets",
    layout: {
      path: ["organizationId"],
      body: ["mode", "amountDzd"],
      fields: { ...ORG_ID, mode: { description: "Which wallet: live (default) or sandbox." }, amountDzd: { description: "Amount to add, in DZD: more than 0, at most 10 000 000, two decimals at most." } }
    },
    body: { component: "TopUpRequest", required: true, description: "The top-up." },
    success: { status: 201, description: "Credited; the new balance.", schema: schemaRef("TopUpResult"), location: true },
    errors: { ...common400, 404: ["ORGANIZATION_NOT_FOUND"], ...bodyErrors, ...unavailable }
  },
  {
    method: "get",
    path: `${B}/organizations/{organizationId}/wallet`,
    action: "wallet.get",
    operationId: "getWallet",
    summary: "Read a wallet and its recent ledger",
    tag: "Wallets",
    layout: { path: ["organizationId"], query: ["mode"], fields: { ...ORG_ID, mode: { description: "live (default) or sandbox." } } },
    success: { status: 200, description: "Balance and the 50 latest ledger entries, newest first.", schema: schemaRef("Wallet") },
    errors: { ...common400, ...unavailable }
  },
  {
    method: "post",
    path: `${B}/parcels/{id}/transitions`,
    action: "parcels.transition",
    operationId: "transitionParcel",
    summary: "Move a live parcel along the operator graph",
    description:
      "CREATED → READY_FOR_PICKUP → PICKED_UP → IN_TRANSIT | LOST | DAMAGED; IN_TRANSIT → AT_RELAY | RETURN_PENDING | LOST | DAMAGED; " +
      "AT_RELAY → RELAY_NOTIFIED | DELIVERED | RETURN_PENDING | LOST | DAMAGED; RELAY_NOTIFIED → DELIVERED | RETURN_PENDING; " +
      "RETURN_PENDING → RETURNED | LOST. Anything else is 409.",
    tag: "Parcels",
    layout: {
      path: ["id"],
      body: ["toStatus", "reason"],
      fields: {
        id: { description: "Parcel id (uuid)." },
        toStatus: { description: "Target status.", handler: { schema: { enum: [...PARCEL_STATUSES] }, check: isParcelStatus } },
        reason: { description: "Operator note, at most 500 characters; sent in the webhook." }
      }
    },
    body: { component: "TransitionRequest", required: true, description: "The status to move to." },
    success: { status: 200, description: "The parcel after the change.", schema: schemaRef("ParcelView") },
    errors: {
      400: ["VALIDATION_FAILED", "INVALID_STATUS"],
      401: ["UNAUTHENTICATED"],
      404: ["PARCEL_NOT_FOUND"],
      409: ["INVALID_TRANSITION"],
      ...bodyErrors,
      ...unavailable
    }
  },
  {
    method: "get",
    path: `${B}/relay-points`,
    action: "parcels.listRelayPoints",
    operationId: "listRelayPoints",
    summary: "List the relay-point directory",
    tag: "Relay points",
    layout: {},
    success: { status: 200, description: "Every relay point, by code.", schema: { type: "array", items: schemaRef("RelayPoint") } },
    errors: { ...common400, ...unavailable }
  },
  {
    method: "post",
    path: `${B}/relay-points`,
    action: "parcels.upsertRelayPoint",
    operationId: "upsertRelayPoint",
    summary: "Add or replace a relay point",
    tag: "Relay points",
    layout: {
      body: ["code", "name", "city", "wilaya", "address", "active"],
      fields: {
        code: { description: "Public code: DZ- then 3 to 30 characters among A-Z, 0-9 and hyphen.", examples: ["DZ-16-ALGER-CENTRE"] },
        active: { description: "An inactive point refuses new parcels." }
      }
    },
    body: { component: "RelayPointRequest", required: true, description: "The relay point." },
    success: { status: 201, description: "Stored.", schema: schemaRef("RelayPoint"), location: true },
    errors: { ...common400, ...bodyErrors, ...unavailable }
  },
  {
    method: "put",
    path: `${B}/organizations/{organizationId}/webhook`,
    action: "webhooks.setEndpoint",
    operationId: "setWebhookEndpoint",
    summary: "Set the organisation's webhook URL and secret",
    description: "Also re-enables an endpoint disabled by a 410. The URL must resolve to a public address unless private ones are allowed.",
    tag: "Webhooks",
    layout: {
      path: ["organizationId"],
      body: ["url", "secret"],
      fields: { ...ORG_ID, url: { description: "http(s) URL receiving the POSTs.", examples: ["https://shop.example.dz/hooks/relay"] }, secret: { description: "HMAC secret, 16 to 200 characters; never shown again." } }
    },
    body: { component: "WebhookEndpointRequest", required: true, description: "The endpoint." },
    success: { status: 200, description: "Stored.", schema: schemaRef("WebhookEndpoint") },
    errors: { ...common400, 404: ["ORGANIZATION_NOT_FOUND"], ...bodyErrors, ...unavailable }
  },
  {
    method: "get",
    path: `${B}/organizations/{organizationId}/webhook-deliveries`,
    action: "webhooks.listDeliveries",
    operationId: "listWebhookDeliveries",
    summary: "List webhook deliveries with their attempts",
    tag: "Webhooks",
    layout: {
      path: ["organizationId"],
      query: ["status", "page", "size"],
      fields: { ...ORG_ID, status: { description: "Only deliveries in this state." }, page: { description: "Zero-based page." }, size: { description: "Page size." } }
    },
    success: { status: 200, description: "A page of deliveries, newest first.", schema: schemaRef("DeliveryPage") },
    errors: { ...common400, ...unavailable }
  },
  {
    method: "post",
    path: `${B}/webhook-deliveries/{id}/redeliver`,
    action: "webhooks.redeliver",
    operationId: "redeliverWebhook",
    summary: "Send a delivery again",
    description: "Starts a new round of the retry schedule, keeping the delivery id.",
    tag: "Webhooks",
    layout: { path: ["id"], fields: { id: { description: "Delivery id (uuid)." } } },
    success: { status: 202, description: "Scheduled.", schema: schemaRef("Redelivery") },
    errors: { ...common400, 404: ["NOT_FOUND"], ...unavailable }
  }
];

const backofficeStyle: DocumentStyle = {
  security: () => [{ BearerToken: [] }],
  rate: { success: undefined, errors: undefined }
};

const mode: JsonSchema = { type: "string", enum: ["live", "sandbox"] };
const dzd = (d: string) => amountDzd(d);

function responseSchemas(): Record<string, JsonSchema> {
  const organization = {
    id: uuidSchema(),
    name: { type: "string" } as JsonSchema,
    createdAt: dateTime("Creation time, UTC.")
  };
  const apiKey = {
    id: uuidSchema(),
    organizationId: uuidSchema(),
    name: { type: ["string", "null"] } as JsonSchema,
    mode,
    keyPrefix: { type: "string", pattern: "^rp_(live|sandbox)_[A-Za-z0-9]{8}$" } as JsonSchema,
    scopes: { type: "array", items: { type: "string", enum: [...SCOPES] } } as JsonSchema,
    rateLimitPerMinute: { type: ["integer", "null"], minimum: 1 } as JsonSchema,
    createdAt: dateTime("Creation time, UTC."),
    revokedAt: nullable(dateTime("Revocation time, UTC; null while the key works."))
  };
  return {
    Organization: objectOf<Organization>(organization),
    OrganizationOverview: objectOf<Organization & { wallets: { liveDzd: number; sandboxDzd: number } | null }>({
      ...organization,
      wallets: nullable(
        objectOf<{ liveDzd: number; sandboxDzd: number }>(
          { liveDzd: dzd("Live wallet balance."), sandboxDzd: dzd("Sandbox wallet balance.") },
          { description: "null when the wallet service could not answer." }
        )
      )
    }),
    ApiKey: objectOf<ApiKeyRecord>(apiKey),
    NewApiKey: objectOf<ApiKeyRecord & { key: string }>({
      ...apiKey,
      key: { type: "string", pattern: "^rp_(live|sandbox)_[A-Za-z0-9]{40}$", description: "The key itself: shown only in this answer." }
    }),
    TopUpResult: objectOf<{ mode: KeyMode; balanceDzd: number }>({ mode, balanceDzd: dzd("Balance after the top-up.") }),
    Wallet: objectOf<{ mode: KeyMode; balanceDzd: number; entries: WalletEntry[] }>({
      mode,
      balanceDzd: dzd("Current balance."),
      entries: {
        type: "array",
        items: objectOf<WalletEntry>({
          id: uuidSchema(),
          kind: { type: "string", enum: ["top_up", "debit", "refund"] },
          amountDzd: dzd("Amount of the movement."),
          parcelId: nullable(uuidSchema()),
          balanceAfterDzd: dzd("Balance after the movement."),
          reason: { type: ["string", "null"] },
          createdAt: dateTime("When, UTC.")
        })
      }
    }),
    RelayPoint: objectOf<RelayPoint>({
      code: { type: "string" },
      name: { type: "string" },
      city: { type: "string" },
      wilaya: { type: ["string", "null"] },
      address: { type: ["string", "null"] },
      active: { type: "boolean" }
    }),
    WebhookEndpoint: objectOf<{ url: string }>({ url: { type: "string", format: "uri" } }),
    DeliveryPage: objectOf<{ items: DeliveryItem[]; page: number; size: number; totalElements: number; totalPages: number }>({
      items: {
        type: "array",
        items: objectOf<DeliveryItem>({
          id: uuidSchema("Delivery id (X-Relay-Delivery-Id)."),
          eventId: uuidSchema("Event id (the body's id)."),
          eventType: { type: "string", pattern: "^parcel\\.[a-z_]+$" },
          status: { type: "string", enum: ["pending", "delivered", "failed", "skipped"] },
          attempts: { type: "integer", minimum: 0 },
          nextAttemptAt: nullable(dateTime("Next attempt, UTC.")),
          lastStatusCode: { type: ["integer", "null"] },
          lastError: { type: ["string", "null"] },
          deliveredAt: nullable(dateTime("Delivery time, UTC.")),
          createdAt: dateTime("Enqueue time, UTC."),
          attemptLog: {
            type: "array",
            items: objectOf<AttemptLogEntry>({
              attempt: { type: "integer", minimum: 1 },
              at: dateTime("Start of the attempt, UTC."),
              statusCode: { type: ["integer", "null"] },
              error: { type: ["string", "null"] },
              durationMs: { type: "integer", minimum: 0 }
            })
          }
        })
      },
      page: { type: "integer", minimum: 0 },
      size: { type: "integer", minimum: 1, maximum: 100 },
      totalElements: { type: "integer", minimum: 0 },
      totalPages: { type: "integer", minimum: 0 }
    }),
    Redelivery: objectOf<{ id: string; status: "pending" }>({ id: uuidSchema(), status: { type: "string", const: "pending" } })
  };
}

export function buildBackofficeDocument(options: { serverUrl: string }): OpenApiDocument {
  const { paths, bodySchemas, responses } = buildPaths(BACKOFFICE_OPERATIONS, backofficeStyle);
  const document: OpenApiDocument = {
    openapi: "3.1.0",
    info: {
      title: "Relay Parcels — Back-office API",
      version: "v1",
      description:
        "Operators' API: organisations, API keys, wallets, webhook endpoints and deliveries, relay points, and parcel transitions " +
        "along the logistics graph. Every call needs `Authorization: Bearer <BACKOFFICE_TOKEN>`. Errors have the partner API's shape."
    },
    servers: [{ url: options.serverUrl, description: "This server" }],
    security: [{ BearerToken: [] }],
    paths,
    components: {
      responses,
      schemas: { ...sharedSchemas(), ...bodySchemas, ...responseSchemas() },
      securitySchemes: {
        BearerToken: { type: "http", scheme: "bearer", description: "The back-office token (BACKOFFICE_TOKEN, printed at the first embedded start)." }
      }
    }
  };
  return JSON.parse(JSON.stringify(document)) as OpenApiDocument;
}
