import { ERROR_STATUS, ErrorCode } from "../errors";
import type { ErrorBody } from "../http-errors";
import { MAX_MONEY_DZD } from "../money";
import { PARCEL_STATUSES } from "../parcel-status";
import type { ParcelPage, ParcelView } from "../parcel-view";
import { REQUEST_ID_PATTERN } from "../request-id";
import type { Header, JsonSchema, Response } from "./types";
import { schemaRef } from "./types";

/**
 * Response-side building blocks shared by both documents. Each object schema is declared against
 * the TypeScript type the code returns (`objectOf<T>`), so a field added to the type and not to
 * the document (or the other way round) does not compile; the e2e suites then check every real
 * response against these schemas.
 */

type Properties<T> = { [K in keyof T]-?: JsonSchema };

export function objectOf<T>(
  properties: Properties<T>,
  options: { description?: string; optional?: (keyof T & string)[]; examples?: unknown[] } = {}
): JsonSchema {
  const optional = new Set<string>(options.optional ?? []);
  const keys = Object.keys(properties);
  return {
    type: "object",
    ...(options.description ? { description: options.description } : {}),
    properties: properties as Record<string, JsonSchema>,
    required: keys.filter(k => !optional.has(k)),
    additionalProperties: false,
    ...(options.examples ? { examples: options.examples } : {})
  };
}

export const nullable = (schema: JsonSchema): JsonSchema => {
  if (schema.$ref) return { anyOf: [schema, { type: "null" }] };
  const type = schema.type;
  return { ...schema, type: [...(Array.isArray(type) ? type : [type!]), "null"] };
};

export const uuidSchema = (description?: string): JsonSchema => ({ type: "string", format: "uuid", ...(description ? { description } : {}) });
export const dateTime = (description: string): JsonSchema => ({ type: "string", format: "date-time", description });
export const moneyDzd = (description: string): JsonSchema => ({
  type: "number",
  minimum: 0,
  maximum: MAX_MONEY_DZD,
  multipleOf: 0.01,
  description: `${description} In DZD, at most two decimals.`
});
/** An amount the system computed (price, balance): no upper bound is promised. */
export const amountDzd = (description: string): JsonSchema => ({
  type: "number",
  multipleOf: 0.01,
  description: `${description} In DZD, at most two decimals.`
});

export const TRACKING_NUMBER_PATTERN = "^[A-Z]{2}[0-9]{9}[A-Z]{2}$";

export const SAMPLE_PARCEL: ParcelView = {
  id: "3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70",
  trackingNumber: "RP123456785DZ",
  status: "CREATED",
  destinationRelayCode: "DZ-16-ALGER-CENTRE",
  labelUrl: "https://api.example.dz/labels/3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70.pdf?expires=1767225600&signature=9f2c…",
  pricePaidDzd: 500,
  codAmountDzd: 1500,
  createdAt: "2026-01-15T09:30:00.000Z",
  updatedAt: "2026-01-15T09:30:00.000Z"
};

export function sharedSchemas(): Record<string, JsonSchema> {
  return {
    ParcelStatus: {
      type: "string",
      enum: [...PARCEL_STATUSES],
      description:
        "Status of a parcel. A new parcel is CREATED; only CREATED and READY_FOR_PICKUP parcels can be cancelled. " +
        "Transitions other than cancel are made by couriers and relay points (or by the sandbox trigger)."
    },
    ParcelView: objectOf<ParcelView>(
      {
        id: uuidSchema("Internal parcel identifier."),
        trackingNumber: {
          type: "string",
          pattern: TRACKING_NUMBER_PATTERN,
          description: "Public tracking number (UPU S10 shape: two letters, nine digits including a check digit, DZ).",
          examples: ["RP123456785DZ"]
        },
        status: schemaRef("ParcelStatus"),
        destinationRelayCode: { type: "string", description: "Public code of the destination relay point.", examples: ["DZ-16-ALGER-CENTRE"] },
        labelUrl: {
          type: ["string", "null"],
          format: "uri",
          description:
            "Pre-signed URL of the PDF label, valid about 30 minutes. null when the label service is momentarily " +
            "unavailable: read the parcel again with GET to obtain a fresh URL."
        },
        pricePaidDzd: amountDzd("Price debited from the wallet (tariff by weight tier, plus the COD fee)."),
        codAmountDzd: nullable(moneyDzd("Cash to collect at hand-over; null when there is no cash on delivery.")),
        createdAt: dateTime("Creation time, UTC."),
        updatedAt: dateTime("Time of the last modification, UTC.")
      },
      { description: "A parcel as the API shows it. The recipient's name and phone are never returned.", examples: [SAMPLE_PARCEL] }
    ),
    ParcelPage: objectOf<ParcelPage>(
      {
        items: { type: "array", items: schemaRef("ParcelView"), description: "The parcels of this page, newest first." },
        page: { type: "integer", format: "int32", minimum: 0, description: "Zero-based page number." },
        size: { type: "integer", format: "int32", minimum: 1, maximum: 100, description: "Page size asked for." },
        totalElements: { type: "integer", format: "int64", minimum: 0, description: "Number of matching parcels in all pages." },
        totalPages: { type: "integer", format: "int32", minimum: 0, description: "Number of pages at this size." }
      },
      { description: "One page of parcels." }
    ),
    FieldProblem: objectOf<{ field: string; message: string }>({
      field: { type: "string", description: "The request field at fault (dotted path; a header name for headers)." },
      message: { type: "string", description: "What is wrong with it." }
    }),
    ApiError: objectOf<ErrorBody>(
      {
        code: {
          type: "string",
          enum: Object.keys(ERROR_STATUS),
          description: "Machine-readable error code. Each response below lists the codes it can carry."
        },
        message: { type: "string", minLength: 1, description: "Human-readable explanation (English)." },
        status: { type: "integer", minimum: 400, maximum: 599, description: "The HTTP status, repeated." },
        details: {
          type: "array",
          items: schemaRef("FieldProblem"),
          minItems: 1,
          description: "Field-by-field problems, on validation errors."
        },
        requestId: { type: "string", pattern: REQUEST_ID_PATTERN.source, description: "Same value as the X-Request-Id header; quote it to support." }
      },
      { description: "The normalised error body of every failed call.", optional: ["details", "requestId"] }
    )
  };
}

// --- headers -------------------------------------------------------------------------------------

export const REQUEST_ID_HEADER: Header = {
  description:
    "Identifier of this request: the caller's own X-Request-Id when it is 1 to 128 characters among letters, digits " +
    "and . _ : -, otherwise a new UUID. Also in the error body as requestId.",
  required: true,
  schema: { type: "string", pattern: REQUEST_ID_PATTERN.source }
};

const rateLimitHeaders = (required: boolean): Record<string, Header> => ({
  "X-RateLimit-Limit": {
    description: "Requests allowed per minute for this API key (60 unless the key has its own limit).",
    required,
    schema: { type: "integer", minimum: 1 }
  },
  "X-RateLimit-Remaining": {
    description: "Requests left in the current one-minute window.",
    required,
    schema: { type: "integer", minimum: 0 }
  }
});

export interface HeaderSet {
  /** Rate-limit headers: on every response of an authenticated key ("required"), or only once the key is known ("optional"). */
  rate?: "required" | "optional";
  location?: boolean;
  retryAfter?: boolean;
  extra?: Record<string, Header>;
}

export function responseHeaders(set: HeaderSet): Record<string, Header> {
  return {
    "X-Request-Id": REQUEST_ID_HEADER,
    ...(set.rate ? rateLimitHeaders(set.rate === "required") : {}),
    ...(set.retryAfter
      ? {
          "Retry-After": {
            description: "Seconds to wait before the next request is accepted.",
            required: true,
            schema: { type: "integer", minimum: 1, maximum: 60 }
          }
        }
      : {}),
    ...(set.location
      ? {
          Location: {
            description: "Absolute URL of the created resource.",
            required: true,
            schema: { type: "string", format: "uri" }
          }
        }
      : {}),
    ...(set.extra ?? {})
  };
}

// --- error responses -----------------------------------------------------------------------------

export const ERROR_DESCRIPTIONS: Partial<Record<number, string>> = {
  400: "Invalid request",
  401: "Missing or invalid credentials",
  402: "Wallet balance insufficient",
  403: "Not allowed",
  404: "Not found",
  409: "Conflict with the current state",
  413: "Request body larger than 64 KiB",
  415: "Unsupported request body encoding",
  422: "Idempotency-Key reused with another body",
  429: "Rate limit exceeded",
  503: "Temporarily unavailable; retry later"
};

/** Realistic messages for the examples of each error code. */
const SAMPLE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_FAILED: "The request is not valid",
  RELAY_NOT_FOUND: "Relay point DZ-99-NOWHERE does not exist or is not in service",
  INVALID_TARIFF: "no tariff for weightG=30000: it must be an integer from 1 to 30000 grams",
  INVALID_STATUS: 'toStatus must be one of the 12 parcel statuses (got "FLYING")',
  UNAUTHENTICATED: "Missing or invalid API key (use Authorization: ApiKey <key> or X-API-Key)",
  INSUFFICIENT_BALANCE: "The wallet balance is insufficient for this parcel",
  SCOPE_MISSING: "This API key lacks the parcels:write scope",
  SANDBOX_KEY_REQUIRED: "Only a sandbox key may trigger sandbox events",
  NOT_SANDBOX_PARCEL: "Only sandbox parcels can be moved by the trigger",
  FORBIDDEN: "This parcel belongs to another organisation",
  LABEL_URL_INVALID: "label URL expired",
  NOT_FOUND: "Not found",
  PARCEL_NOT_FOUND: "Parcel not found",
  ORGANIZATION_NOT_FOUND: "Organization not found",
  API_KEY_NOT_FOUND: "API key not found",
  PARCEL_NOT_CANCELLABLE:
    "a parcel in status IN_TRANSIT can no longer be cancelled; only CREATED and READY_FOR_PICKUP parcels can (contact support after pick-up)",
  INVALID_TRANSITION: "a parcel cannot move from CREATED to DELIVERED",
  CONFLICT: "A request with this Idempotency-Key is still being processed; retry shortly",
  PAYLOAD_TOO_LARGE: "The request body is too large",
  UNSUPPORTED_MEDIA_TYPE: "Unsupported request body encoding",
  IDEMPOTENCY_KEY_REUSED: "This Idempotency-Key was already used with a different request body",
  RATE_LIMITED: "Rate limit of 60 requests per minute exceeded",
  UNAVAILABLE: "The service is temporarily unavailable, please retry"
};

const SAMPLE_REQUEST_ID = "5b0d6c1e-8a8f-4a53-9d0e-2f7c6a1b9e44";

function sampleError(code: ErrorCode, status: number): Record<string, unknown> {
  const body: Record<string, unknown> = { code, message: SAMPLE_MESSAGES[code] ?? code, status };
  if (code === "VALIDATION_FAILED") body.details = [{ field: "weightG", message: "weightG must be less than or equal to 30000" }];
  body.requestId = SAMPLE_REQUEST_ID;
  return body;
}

/**
 * An error response whose body is the Error schema narrowed to this status and to the codes the
 * operation can answer with it.
 */
export function errorResponse(status: number, codes: ErrorCode[], description: string, rate: HeaderSet["rate"]): Response {
  for (const code of codes) {
    if (ERROR_STATUS[code] !== status) throw new Error(`OpenAPI: ${code} is a ${ERROR_STATUS[code]}, not a ${status}`);
  }
  const limited = status === 429;
  return {
    description,
    headers: responseHeaders({ rate: limited ? "required" : rate, retryAfter: limited }),
    content: {
      "application/json": {
        schema: {
          allOf: [
            schemaRef("ApiError"),
            { type: "object", properties: { status: { const: status }, code: { enum: codes } } }
          ]
        },
        examples: Object.fromEntries(codes.map(code => [code, { summary: code, value: sampleError(code, status) }]))
      }
    }
  };
}
