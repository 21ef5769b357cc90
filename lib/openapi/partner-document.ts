import { KEY_PREFIX } from "../api-keys";
import type { ErrorCode } from "../errors";
import { isParcelStatus, PARCEL_STATUSES } from "../parcel-status";
import { IDEMPOTENCY_KEY_PATTERN } from "../schemas";
import { dateTime, objectOf, SAMPLE_PARCEL, sharedSchemas, TRACKING_NUMBER_PATTERN, uuidSchema } from "./components";
import { buildPaths, DocumentStyle, OperationSpec } from "./operations";
import type { OpenApiDocument, SecurityRequirement } from "./types";
import { schemaRef } from "./types";
import { webhooks, webhookSchemas } from "./webhooks";

/** SPEC §2.5. */
export interface HealthResponse {
  status: "ok";
  organizationId: string;
  organizationName: string;
  keyPrefix: string;
  serverTime: string;
}

/** SPEC §2.7. */
export interface SandboxTriggerResponse {
  parcelId: string;
  trackingNumber: string;
  previousStatus: string;
  newStatus: string;
  triggeredAt: string;
}

export const PARTNER_BASE = "/api/partner/v1";
const P = PARTNER_BASE;

/** What a read of one parcel can answer besides 200 (by id or by tracking number). */
const READ_ONE_PARCEL_ERRORS = {
  400: ["VALIDATION_FAILED"],
  401: ["UNAUTHENTICATED"],
  403: ["SCOPE_MISSING"],
  404: ["PARCEL_NOT_FOUND"],
  429: ["RATE_LIMITED"],
  503: ["UNAVAILABLE"]
} satisfies Record<number, ErrorCode[]>;

const PARCEL_ID = { id: { description: "Parcel id (uuid).", examples: [SAMPLE_PARCEL.id] } };
const parcelView = schemaRef("ParcelView");

/** The partner operations (SPEC §4), plus the pre-signed label download their labelUrl points to. */
export const PARTNER_OPERATIONS: OperationSpec[] = [
  {
    method: "get",
    path: `${P}/health`,
    action: "auth.health",
    operationId: "getHealth",
    summary: "Check the API key",
    description: "Authenticated ping with no side effect: which organisation the key belongs to, and the server clock.",
    tag: "Health",
    layout: {},
    success: { status: 200, description: "The key is valid.", schema: schemaRef("HealthResponse") },
    errors: { 400: ["VALIDATION_FAILED"], 401: ["UNAUTHENTICATED"], 429: ["RATE_LIMITED"], 503: ["UNAVAILABLE"] }
  },
  {
    method: "post",
    path: `${P}/parcels`,
    action: "parcels.create",
    operationId: "createParcel",
    summary: "Create a parcel",
    description:
      "Creates a parcel addressed to a relay point and debits its price from the wallet at once (the sandbox wallet for a " +
      "sandbox key). The price is the weight tier of the tariff plus, with cash on delivery, a COD fee. A tracking number " +
      "and a label URL come back; the recipient gets a pick-up SMS when the parcel reaches the relay point.\n\n" +
      "Send an `Idempotency-Key` to make retries safe: for 24 hours, a request with the same key and the same body returns " +
      "the first parcel without a second debit; the same key with another body is refused (422).",
    tag: "Parcels",
    layout: {
      body: [
        "recipientName",
        "recipientPhone",
        "weightG",
        "destinationRelayCode",
        "lengthCm",
        "widthCm",
        "heightCm",
        "declaredValueDzd",
        "codAmountDzd"
      ],
      fields: {
        recipientName: { description: "Recipient's name, at most 100 characters and not blank. Stored encrypted, never shown publicly.", examples: ["Amina Benali"] },
        recipientPhone: {
          description: "Recipient's phone number: 8 to 20 digits or spaces, with an optional leading +. The pick-up SMS goes to it.",
          examples: ["+213 555 12 34 56"]
        },
        weightG: { description: "Weight in grams, 1 to 30000; the price follows the weight tiers.", examples: [1200] },
        destinationRelayCode: {
          description: "Public code of the destination relay point: DZ, a hyphen, then 3 to 30 characters among A-Z, 0-9 and hyphen.",
          examples: ["DZ-16-ALGER-CENTRE"]
        },
        lengthCm: { description: "Length in cm, 1 to 300." },
        widthCm: { description: "Width in cm, 1 to 300." },
        heightCm: { description: "Height in cm, 1 to 300." },
        declaredValueDzd: { description: "Declared value for insurance, in DZD: 0 to 10 000 000, at most two decimals.", examples: [2000] },
        codAmountDzd: {
          description:
            "Cash to collect at hand-over, in DZD: 0 to 10 000 000, at most two decimals. Omitted or null: no cash on delivery. " +
            "Independent of declaredValueDzd.",
          examples: [1500]
        }
      }
    },
    extraParameters: [
      {
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description:
          "Your identifier of this creation (an order number, a UUID): 1 to 255 visible ASCII characters, kept 24 hours. " +
          "A retry with the same key and body returns the first parcel; another body is 422; a retry while the first is still running is 409.",
        schema: { type: "string", minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source },
        example: "order-2026-000123"
      }
    ],
    body: {
      component: "ParcelCreateRequest",
      required: true,
      description: "A parcel to create. Unknown fields are refused.",
      examples: {
        minimal: {
          summary: "Required fields only",
          value: { recipientName: "Amina Benali", recipientPhone: "+213 555 12 34 56", weightG: 1200, destinationRelayCode: "DZ-16-ALGER-CENTRE" }
        },
        cod: {
          summary: "With cash on delivery, declared value and dimensions",
          value: {
            recipientName: "Amina Benali",
            recipientPhone: "0555 12 34 56",
            weightG: 1200,
            destinationRelayCode: "DZ-16-ALGER-CENTRE",
            lengthCm: 30,
            widthCm: 20,
            heightCm: 10,
            declaredValueDzd: 2000,
            codAmountDzd: 1500
          }
        }
      }
    },
    success: {
      status: 201,
      description: "Created and paid. Location points to the parcel.",
      schema: parcelView,
      location: true
    },
    errors: {
      400: ["VALIDATION_FAILED", "RELAY_NOT_FOUND", "INVALID_TARIFF"],
      401: ["UNAUTHENTICATED"],
      402: ["INSUFFICIENT_BALANCE"],
      403: ["SCOPE_MISSING"],
      409: ["CONFLICT"],
      413: ["PAYLOAD_TOO_LARGE"],
      415: ["UNSUPPORTED_MEDIA_TYPE"],
      422: ["IDEMPOTENCY_KEY_REUSED"],
      429: ["RATE_LIMITED"],
      503: ["UNAVAILABLE"]
    }
  },
  {
    method: "get",
    path: `${P}/parcels`,
    action: "parcels.list",
    operationId: "listParcels",
    summary: "List parcels",
    description:
      "The parcels of the key's organisation (live or sandbox, as the key), newest first, one page at a time. " +
      "Other query parameters are ignored.",
    tag: "Parcels",
    layout: {
      query: ["status", "page", "size"],
      fields: {
        status: { description: "Only parcels in this status (any of the 12 values)." },
        page: { description: "Zero-based page number." },
        size: { description: "Page size, 1 to 100." }
      }
    },
    success: { status: 200, description: "A page of parcels.", schema: schemaRef("ParcelPage") },
    errors: { 400: ["VALIDATION_FAILED"], 401: ["UNAUTHENTICATED"], 403: ["SCOPE_MISSING"], 429: ["RATE_LIMITED"], 503: ["UNAVAILABLE"] }
  },
  {
    method: "get",
    path: `${P}/parcels/{id}`,
    action: "parcels.get",
    operationId: "getParcel",
    summary: "Read a parcel",
    description: "A parcel of the key's organisation, with a fresh label URL. Another organisation's parcel is reported as not found.",
    tag: "Parcels",
    layout: { path: ["id"], fields: PARCEL_ID },
    success: { status: 200, description: "The parcel.", schema: parcelView },
    errors: READ_ONE_PARCEL_ERRORS
  },
  {
    method: "get",
    path: `${P}/parcels/by-tracking/{trackingNumber}`,
    action: "parcels.getByTracking",
    operationId: "getParcelByTracking",
    summary: "Find a parcel by tracking number",
    description: "Looks the tracking number up among the organisation's parcels (case and surrounding spaces do not matter).",
    tag: "Parcels",
    layout: {
      path: ["trackingNumber"],
      fields: { trackingNumber: { description: `Tracking number, e.g. RP123456785DZ (issued numbers match ${TRACKING_NUMBER_PATTERN}).`, examples: ["RP123456785DZ"] } }
    },
    success: { status: 200, description: "The parcel.", schema: parcelView },
    errors: READ_ONE_PARCEL_ERRORS
  },
  {
    method: "post",
    path: `${P}/parcels/{id}/cancel`,
    action: "parcels.cancel",
    operationId: "cancelParcel",
    summary: "Cancel a parcel",
    description:
      "Cancels a parcel that is still CREATED or READY_FOR_PICKUP and refunds its price to the wallet. After pick-up, " +
      "cancelling goes through support (409).",
    tag: "Parcels",
    layout: {
      path: ["id"],
      body: ["reason"],
      fields: { ...PARCEL_ID, reason: { description: "Why the parcel is cancelled, at most 500 characters; sent in the webhook.", examples: ["order cancelled by the customer"] } }
    },
    body: { component: "CancelRequest", required: false, description: "Optional cancel details." },
    success: { status: 200, description: "Cancelled: the parcel, in status CANCELLED.", schema: parcelView },
    errors: {
      400: ["VALIDATION_FAILED"],
      401: ["UNAUTHENTICATED"],
      403: ["SCOPE_MISSING"],
      404: ["PARCEL_NOT_FOUND"],
      409: ["PARCEL_NOT_CANCELLABLE"],
      413: ["PAYLOAD_TOO_LARGE"],
      415: ["UNSUPPORTED_MEDIA_TYPE"],
      429: ["RATE_LIMITED"],
      503: ["UNAVAILABLE"]
    }
  },
  {
    method: "post",
    path: `${P}/sandbox/parcels/{id}/trigger-event`,
    action: "parcels.triggerSandboxEvent",
    operationId: "triggerSandboxEvent",
    summary: "Simulate a status change (sandbox)",
    description:
      "Sandbox keys only. Moves a sandbox parcel of your organisation to any status and sends the webhook for it, with " +
      "sandbox=true and your reason in the payload.",
    tag: "Sandbox",
    layout: {
      path: ["id"],
      body: ["toStatus", "reason"],
      fields: {
        ...PARCEL_ID,
        toStatus: {
          description: "Target status, one of the 12 values (400 INVALID_STATUS otherwise).",
          examples: ["DELIVERED"],
          handler: { schema: { enum: [...PARCEL_STATUSES] }, check: isParcelStatus }
        },
        reason: { description: "Free text, at most 500 characters; appears in the webhook payload.", examples: ["integration test"] }
      }
    },
    body: { component: "SandboxTriggerRequest", required: true, description: "The status to move the sandbox parcel to." },
    success: { status: 202, description: "Event scheduled: the status changed and the webhook is on its way.", schema: schemaRef("SandboxTriggerResponse") },
    errors: {
      400: ["VALIDATION_FAILED", "INVALID_STATUS"],
      401: ["UNAUTHENTICATED"],
      403: ["SCOPE_MISSING", "SANDBOX_KEY_REQUIRED", "NOT_SANDBOX_PARCEL", "FORBIDDEN"],
      404: ["PARCEL_NOT_FOUND"],
      413: ["PAYLOAD_TOO_LARGE"],
      415: ["UNSUPPORTED_MEDIA_TYPE"],
      429: ["RATE_LIMITED"],
      503: ["UNAVAILABLE"]
    }
  },
  {
    method: "get",
    path: "/labels/{file}",
    action: "gateway.downloadLabel",
    operationId: "downloadLabel",
    summary: "Download a label (pre-signed URL)",
    description:
      "The labelUrl of a parcel: an A6 PDF with the tracking number as Code 128 barcode and QR code. No API key: the " +
      "signature in the URL is the credential, valid about 30 minutes; read the parcel again for a fresh URL.",
    tag: "Labels",
    public: true,
    layout: {},
    extraParameters: [
      { name: "file", in: "path", required: true, description: "<parcel id>.pdf", schema: { type: "string", pattern: "^[0-9a-fA-F-]{36}\\.pdf$" } },
      { name: "expires", in: "query", required: true, description: "Expiry, Unix seconds.", schema: { type: "string", pattern: "^[1-9][0-9]{0,14}$" } },
      { name: "signature", in: "query", required: true, description: "Hex HMAC of the URL.", schema: { type: "string", pattern: "^[0-9a-f]{64}$" } }
    ],
    success: {
      status: 200,
      description: "The label.",
      mediaType: "application/pdf",
      schema: { type: "string", format: "binary" },
      headers: {
        "Content-Disposition": { required: true, description: "inline; filename=\"<tracking number>.pdf\"", schema: { type: "string" } }
      }
    },
    errors: { 403: ["LABEL_URL_INVALID"], 404: ["PARCEL_NOT_FOUND"], 429: ["RATE_LIMITED"], 503: ["UNAVAILABLE"] }
  }
];

const AUTH_SCHEMES = ["ApiKeyAuthorization", "ApiKeyHeader"] as const;

const partnerStyle: DocumentStyle = {
  security: (scope: string | undefined): SecurityRequirement[] =>
    AUTH_SCHEMES.map(name => ({ [name]: scope && scope !== "any" ? [scope] : [] })),
  rate: { success: "required", errors: "optional" }
};

const DESCRIPTION = `
The partner API of the relay-point parcel service: create parcels addressed to a relay point, follow them, cancel them,
and receive every status change on your webhook.

## Authentication
Send your API key on every call, either as \`Authorization: ApiKey <API_KEY>\` or as \`X-API-Key: <API_KEY>\`.
Keys are created in the back-office (Settings, API keys) and shown once. Live keys start with \`${KEY_PREFIX.live}\`, sandbox
keys with \`${KEY_PREFIX.sandbox}\`; a sandbox key sees only sandbox parcels, paid from the sandbox wallet. Scopes:
\`parcels:read\` to list and read, \`parcels:write\` to create, cancel and trigger sandbox events (each operation lists the
scope it needs).

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
The version is in the path (\`/api/partner/v1\`). The response schemas list every field the server sends today; a later
revision of v1 may add fields, so write clients that ignore fields they do not know.
`.trim();

export function buildPartnerDocument(options: { serverUrl: string }): OpenApiDocument {
  const { paths, bodySchemas, responses } = buildPaths(PARTNER_OPERATIONS, partnerStyle);
  const document: OpenApiDocument = {
    openapi: "3.1.0",
    info: { title: "Relay Parcels — Partner API", version: "v1", description: DESCRIPTION },
    servers: [{ url: options.serverUrl, description: "This server" }],
    tags: [
      { name: "Health", description: "Check a key." },
      { name: "Parcels", description: "Create, list, read and cancel parcels." },
      { name: "Sandbox", description: "Simulate status changes with a sandbox key." },
      { name: "Labels", description: "Pre-signed label downloads." }
    ],
    security: AUTH_SCHEMES.map(name => ({ [name]: [] })),
    paths,
    webhooks: webhooks(),
    components: {
      responses,
      schemas: {
        ...sharedSchemas(),
        ...bodySchemas,
        HealthResponse: objectOf<HealthResponse>({
          status: { type: "string", const: "ok", description: "Always ok when the key is valid." },
          organizationId: uuidSchema("The key's organisation."),
          organizationName: { type: "string", description: "Legal name of the organisation." },
          keyPrefix: {
            type: "string",
            pattern: "^rp_(live|sandbox)_[A-Za-z0-9]{8}$",
            description: "Readable prefix of the key used (without the secret part)."
          },
          serverTime: dateTime("Server clock, UTC, to diagnose clock skew.")
        }),
        SandboxTriggerResponse: objectOf<SandboxTriggerResponse>({
          parcelId: uuidSchema("The parcel."),
          trackingNumber: { type: "string", pattern: TRACKING_NUMBER_PATTERN },
          previousStatus: schemaRef("ParcelStatus"),
          newStatus: schemaRef("ParcelStatus"),
          triggeredAt: dateTime("When the status changed, UTC.")
        }),
        ...webhookSchemas()
      },
      securitySchemes: {
        ApiKeyAuthorization: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: "`Authorization: ApiKey <API_KEY>`: the word ApiKey, a space, then the key (type both in the Authorize dialog)."
        },
        ApiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "`X-API-Key: <API_KEY>`: the key alone." }
      }
    }
  };
  // Plain data only (no undefined, no shared references), exactly what is served.
  return JSON.parse(JSON.stringify(document)) as OpenApiDocument;
}
