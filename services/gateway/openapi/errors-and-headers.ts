import { ERROR_STATUS, ErrorCode } from "../../../lib/errors";
import { API_ERROR } from "../../../lib/openapi/error-schema";
import type { Header, JsonSchema, Response } from "../../../lib/openapi/types";
import { REQUEST_ID_PATTERN } from "../../../lib/request-id";

/**
 * What the gateway itself adds to every operation: the error body it writes, the headers it
 * sets (request id, rate limits, Retry-After, Location), and one error response per status.
 */

export const REQUEST_ID_HEADER: Header = {
  description:
    "Identifier of this request: the caller's own X-Request-Id when it is 1 to 128 characters among letters, digits " +
    "and . _ : -, otherwise a new UUID. Also in the error body as requestId.",
  required: true,
  schema: { type: "string", pattern: REQUEST_ID_PATTERN.source }
};

const rateLimitHeaders = (required: boolean, what: string): Record<string, Header> => ({
  "X-RateLimit-Limit": { description: `${what} allowed per minute.`, required, schema: { type: "integer", minimum: 1 } },
  "X-RateLimit-Remaining": {
    description: "Requests left in the current one-minute window.",
    required,
    schema: { type: "integer", minimum: 0 }
  }
});

export interface HeaderSet {
  /** Rate-limit headers: on every answer ("required"), or only once the caller is known ("optional"). */
  rate?: "required" | "optional";
  rateSubject?: string;
  location?: boolean;
  retryAfter?: boolean;
  extra?: Record<string, Header>;
}

export function responseHeaders(set: HeaderSet): Record<string, Header> {
  const subject = set.rateSubject ?? "Requests for this API key (60 unless the key has its own limit)";
  return {
    "X-Request-Id": REQUEST_ID_HEADER,
    ...(set.rate ? rateLimitHeaders(set.rate === "required", subject) : {}),
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
      ? { Location: { description: "Absolute URL of the created resource.", required: true, schema: { type: "string", format: "uri" } } }
      : {}),
    ...(set.extra ?? {})
  };
}

const ERROR_DESCRIPTIONS: Partial<Record<number, string>> = {
  400: "Invalid request",
  401: "Missing or invalid credentials",
  402: "Wallet balance insufficient",
  403: "Not allowed",
  404: "Not found",
  409: "Conflict with the current state",
  413: "Request body too large",
  415: "Unsupported request body type or encoding",
  422: "Idempotency-Key reused with another body",
  423: "Locked until an operator acts",
  429: "Rate limit exceeded",
  503: "Temporarily unavailable; retry later"
};

/** Where a status means something else for some codes: the description of an answer made of those codes only. */
const CODE_DESCRIPTIONS: Partial<Record<ErrorCode, string>> = {
  COD_AMOUNT_MISMATCH: "The cash collected is not the parcel's COD amount; nothing changed"
};

function descriptionOf(status: number, codes: ErrorCode[]): string {
  const own = codes.map(code => CODE_DESCRIPTIONS[code]);
  if (codes.length > 0 && own.every(Boolean)) return [...new Set(own)].join("; ");
  return ERROR_DESCRIPTIONS[status] ?? "Error";
}

/** Realistic messages for the examples of each error code. */
const SAMPLE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_FAILED: "The request is not valid",
  RELAY_NOT_FOUND: "Relay point DZ-99-NOWHERE does not exist or is not in service",
  INVALID_TARIFF: "no tariff for weightG=30000: it must be an integer from 1 to 30000 grams",
  INVALID_STATUS: 'toStatus must be one of the 12 parcel statuses (got "FLYING")',
  UNAUTHENTICATED: "Missing API key (use Authorization: ApiKey <key> or X-API-Key: <key>)",
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
  CONFLICT: "The request conflicts with the current state; see the message",
  IDEMPOTENCY_KEY_IN_USE: "A request with this Idempotency-Key is still being processed; retry shortly",
  PAYLOAD_TOO_LARGE: "The request body must be at most 65536 bytes",
  UNSUPPORTED_MEDIA_TYPE: "Content-Type text/plain is not supported; send application/json",
  IDEMPOTENCY_KEY_REUSED: "This Idempotency-Key was already used with a different request body",
  RATE_LIMITED: "Rate limit of 60 requests per minute exceeded",
  UNAVAILABLE: "The service is temporarily unavailable, please retry",
  PIN_REQUIRED: "A live parcel is handed over with its pick-up PIN: give pin",
  PIN_INCORRECT: "The pick-up PIN is not correct; 4 attempts left",
  PIN_LOCKED: "Too many wrong PINs: the parcel is locked until an operator resets its PIN",
  REMITTANCE_NOT_FOUND: "Remittance not found",
  NOTHING_TO_REMIT: "The organisation has no collected COD waiting to be remitted in this mode",
  COD_NOT_REMITTABLE: "Some parcels cannot be remitted: see details",
  RELAY_POINT_NOT_FOUND: "Relay point DZ-99-NOWHERE does not exist",
  AGENT_KEY_NOT_FOUND: "Agent key not found",
  CLOSURE_NOT_FOUND: "Closure not found",
  WRONG_RELAY: "Parcel RP123456785DZ is addressed to relay point DZ-31-ORAN-CENTRE, not to this one",
  RELAY_FULL: "The shelf is full: 150 parcels for a capacity of 150",
  RETURN_NOT_DISPATCHABLE: "Some parcels cannot leave with the courier: see details; none left",
  COD_AMOUNT_MISMATCH: "This parcel's COD is 1500 DZD: collect exactly that amount (got 1000)",
  PARCEL_NOT_AT_RELAY:
    "The pick-up deadline of a parcel in status IN_TRANSIT cannot change: only while it waits at its relay point (AT_RELAY, RELAY_NOTIFIED)",
  EXTENSION_ALREADY_USED: "This parcel's pick-up deadline was already extended (by 3 days)",
  PARCEL_ALREADY_AT_RELAY: "Parcel RP123456785DZ is AT_RELAY: a parcel is redirected only before it reaches its relay point",
  REDIRECT_LIMIT: "Parcel RP123456785DZ was already redirected 2 times, the most a parcel may be",
  VERIFICATION_CODE_INVALID:
    "The code is not valid: it is wrong, older than 10 minutes, already used, or was tried 5 times. Ask for a new code.",
  CLAIM_NOT_FOUND: "Claim not found",
  CLAIM_NOT_ALLOWED:
    "Damage or missing content is claimed for a parcel that is DAMAGED, was delivered at most 7 days ago, or was refused at the relay point; this one is IN_TRANSIT",
  CLAIM_ALREADY_OPEN: "This parcel already has an open claim: wait for its decision",
  CLAIM_ALREADY_DECIDED: "This claim was already decided: APPROVED on 2026-03-02T10:15:00.000Z",
  RELAY_CLOSED:
    "Relay point DZ-16-ALGER-CENTRE is closed from 2026-12-01 to 2026-12-07 (holidays): send the parcel to an open relay point such as DZ-16-ALGER-BAB-EL-OUED (see details)"
};

const SAMPLE_REQUEST_ID = "5b0d6c1e-8a8f-4a53-9d0e-2f7c6a1b9e44";

function sampleError(code: ErrorCode, status: number): Record<string, unknown> {
  const body: Record<string, unknown> = { code, message: SAMPLE_MESSAGES[code] ?? code, status };
  if (code === "VALIDATION_FAILED") body.details = [{ field: "weightG", message: "weightG must be less than or equal to 30000" }];
  body.requestId = SAMPLE_REQUEST_ID;
  return body;
}

/**
 * An error response: the error body with this status, and the codes this operation can answer
 * with it, listed (not closed: clients treat an unknown code by its status).
 */
export function errorResponse(status: number, codes: ErrorCode[], rate: HeaderSet["rate"], rateSubject?: string): Response {
  for (const code of codes) {
    if (ERROR_STATUS[code] !== status) throw new Error(`OpenAPI: ${code} is a ${ERROR_STATUS[code]}, not a ${status}`);
  }
  const limited = status === 429;
  const schema: JsonSchema = {
    allOf: [
      API_ERROR,
      {
        type: "object",
        properties: {
          status: { const: status },
          code: { type: "string", examples: codes, description: `One of ${codes.join(", ")}.` }
        }
      }
    ]
  };
  return {
    description: descriptionOf(status, codes),
    headers: responseHeaders({ rate: limited ? "required" : rate, rateSubject, retryAfter: limited || status === 503 }),
    content: {
      "application/json": {
        schema,
        examples: Object.fromEntries(codes.map(code => [code, { summary: code, value: sampleError(code, status) }]))
      }
    }
  };
}
