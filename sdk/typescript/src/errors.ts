import type { ErrorCode } from "./generated/error-codes.js";
import type { RateLimit } from "./core/rate-limit.js";

/** One problem of a 400 VALIDATION_FAILED (or a suggestion of a RELAY_CLOSED): the field and what is wrong. */
export interface ErrorDetail {
  field: string;
  message: string;
  relayCode?: string;
  distanceKm?: number;
}

export interface RelayErrorInit {
  message: string;
  code: ErrorCode;
  status?: number;
  requestId?: string;
  details?: ErrorDetail[];
  idempotencyKey?: string;
  rateLimit?: RateLimit;
  retryAfterSeconds?: number;
  /** How many retries were made before this error (0: the first attempt failed and was not retried). */
  retries?: number;
  cause?: unknown;
}

/**
 * Every error the SDK throws. `code` is the API's code (a typed union of today's codes, or a newer
 * one kept as it came), or one of the SDK's own for failures without an answer: CONNECTION_ERROR,
 * TIMEOUT, ABORTED. `idempotencyKey` is the key the request was sent with: after an ambiguous
 * failure (connection, timeout, 5xx), send the same call again with `{ idempotencyKey }` and the
 * API answers the parcel it may already have made, without a second debit.
 */
export class RelayError extends Error {
  readonly code: ErrorCode;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly details: ErrorDetail[];
  readonly idempotencyKey: string | undefined;
  readonly rateLimit: RateLimit | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly retries: number;

  constructor(init: RelayErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.details = init.details ?? [];
    this.idempotencyKey = init.idempotencyKey;
    this.rateLimit = init.rateLimit;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.retries = init.retries ?? 0;
  }
}

/** An answer with an error status (4xx, 5xx): the API's normalised error. */
export class ApiError extends RelayError {}
/** 400: a field is wrong (`details` names each), an unknown relay point, tariff or status. */
export class ValidationError extends ApiError {}
/** 401: no key, or a key unknown, revoked or malformed. */
export class AuthenticationError extends ApiError {}
/** 402 INSUFFICIENT_BALANCE: the wallet cannot pay; nothing was created or debited. */
export class InsufficientFundsError extends ApiError {}
/** 403: the key lacks a scope or the mode (sandbox/live) does not fit. */
export class PermissionError extends ApiError {}
/** 404: no such parcel, return, claim… for this organisation and mode. */
export class NotFoundError extends ApiError {}
/** 409 (and 422 IDEMPOTENCY_KEY_REUSED): the resource's state refuses the call. */
export class ConflictError extends ApiError {}
/**
 * 429 RATE_LIMITED: `retryAfterSeconds` (and the message) say when to come back. The SDK waited and
 * retried when that was within the call's timeout; a longer wait is left to you.
 */
export class RateLimitError extends ApiError {}
/** 5xx (and 408): our side failed or timed out; the call may be retried with the same idempotency key. */
export class ServerError extends ApiError {}
/** No answer: the connection failed (DNS, refused, reset, cut mid-answer). The request may or may not have been processed. */
export class ConnectionError extends RelayError {}
/** No answer within the timeout. The request may or may not have been processed: retry with `idempotencyKey`. */
export class TimeoutError extends ConnectionError {}
/** The caller's AbortSignal fired. Never retried. */
export class AbortedError extends RelayError {}
/** A webhook that is not ours, tampered with, or too old (`webhooks.verify`). */
export class WebhookVerificationError extends Error {
  constructor(
    message: string,
    readonly reason: "invalid_headers" | "timestamp_outside_tolerance" | "no_matching_signature" | "invalid_body"
  ) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

type ApiErrorClass = new (init: RelayErrorInit) => ApiError;

/** The class of an error answer, by status (and, for 422, by code). */
export function apiErrorClassFor(status: number, code: ErrorCode): ApiErrorClass {
  if (status === 400) return ValidationError;
  if (status === 401) return AuthenticationError;
  if (status === 402) return InsufficientFundsError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 409 || (status === 422 && code === "IDEMPOTENCY_KEY_REUSED")) return ConflictError;
  if (status === 422) return ValidationError;
  if (status === 429) return RateLimitError;
  if (status === 408 || status >= 500) return ServerError;
  return ApiError;
}
