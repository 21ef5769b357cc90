import { Errors } from "moleculer";

/** Every error code the API can answer with, and its HTTP status (DESIGN §6). */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  RELAY_NOT_FOUND: 400,
  INVALID_TARIFF: 400,
  INVALID_STATUS: 400,
  PIN_REQUIRED: 400,
  RECIPIENT_PHONE_INVALID: 400,
  OCCURRED_AT_OUT_OF_RANGE: 400,
  /** Issue 47: a relay point's commune lies in another wilaya than the one sent (back-office). */
  COMMUNE_NOT_IN_WILAYA: 400,
  /** Issue 44: a pickup window too short, past the same-day cut-off, on a day without pickups, or in the past. */
  PICKUP_WINDOW_INVALID: 400,
  UNAUTHENTICATED: 401,
  INSUFFICIENT_BALANCE: 402,
  SCOPE_MISSING: 403,
  SANDBOX_KEY_REQUIRED: 403,
  NOT_SANDBOX_PARCEL: 403,
  LABEL_URL_INVALID: 403,
  VERIFICATION_CODE_INVALID: 403,
  FORBIDDEN: 403,
  /** Issue 45: a courier collecting the cash of a relay point outside its hub's wilaya (decision 0066). */
  RELAY_OUTSIDE_COURIER_AREA: 403,
  NOT_FOUND: 404,
  PARCEL_NOT_FOUND: 404,
  ORGANIZATION_NOT_FOUND: 404,
  API_KEY_NOT_FOUND: 404,
  WEBHOOK_ENDPOINT_NOT_FOUND: 404,
  EVENT_NOT_FOUND: 404,
  REMITTANCE_NOT_FOUND: 404,
  RELAY_POINT_NOT_FOUND: 404,
  AGENT_KEY_NOT_FOUND: 404,
  CLOSURE_NOT_FOUND: 404,
  CLAIM_NOT_FOUND: 404,
  RETURN_NOT_FOUND: 404,
  RETURN_CODE_NOT_FOUND: 404,
  PAIRING_CODE_NOT_FOUND: 404,
  PICKUP_NOT_FOUND: 404,
  /** Issue 44: no manifest of yours by this id (partner API), or none of this stop's merchant by this number (courier API). */
  MANIFEST_NOT_FOUND: 404,
  /** Issue 45: a cash collection or deposit that is not this relay point's, courier's or hub's. */
  CASH_HAND_OFF_NOT_FOUND: 404,
  REMITTANCE_PROPOSAL_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  PARCEL_NOT_CANCELLABLE: 409,
  INVALID_TRANSITION: 409,
  CONFLICT: 409,
  WEBHOOK_ENDPOINT_DISABLED: 409,
  PIN_INCORRECT: 409,
  NOTHING_TO_REMIT: 409,
  COD_NOT_REMITTABLE: 409,
  WRONG_RELAY: 409,
  RELAY_FULL: 409,
  RETURN_NOT_DISPATCHABLE: 409,
  PARCEL_NOT_AT_RELAY: 409,
  EXTENSION_ALREADY_USED: 409,
  PARCEL_ALREADY_AT_RELAY: 409,
  REDIRECT_LIMIT: 409,
  /** Issue 30: a parcel had its three new pick-up PINs of the last 24 hours (relay API). */
  PIN_RESEND_LIMIT: 409,
  RELAY_CLOSED: 409,
  CLAIM_NOT_ALLOWED: 409,
  CLAIM_ALREADY_OPEN: 409,
  CLAIM_ALREADY_DECIDED: 409,
  PARCEL_NOT_RETURNABLE: 409,
  RETURN_ALREADY_OPEN: 409,
  RETURN_CODE_USED: 409,
  RETURN_CODE_EXPIRED: 409,
  RETURN_NOT_CANCELLABLE: 409,
  /** A create with this Idempotency-Key is still being processed: the one 409 a client may retry. */
  IDEMPOTENCY_KEY_IN_USE: 409,
  PARCEL_REDIRECTED: 409,
  PARCEL_EXPIRED: 409,
  PIN_RESET: 409,
  /** Issue 43: a pickup pass that is not the server's for this parcel and relay point; one shown before a new PIN or a redirect. */
  PICKUP_PASS_INVALID: 409,
  PICKUP_PASS_VOID: 409,
  /** Issue 43: an offline PIN hand-over outside the operator's limits (COD, declared value, per device and day). */
  OFFLINE_PIN_REFUSED: 409,
  /** Issue 43: the code of an earlier SMS, replaced by a newer one; not counted as a wrong try. */
  PIN_REPLACED: 409,
  /** Issue 44: past its cancelBy, or the courier has started or finished it. */
  PICKUP_NOT_CANCELLABLE: 409,
  /** Issue 44: a parcel in a pickup must be CREATED and in no other pickup that is not over. */
  PARCEL_NOT_PICKABLE: 409,
  /** Issue 44: a parcel is on one manifest only. */
  PARCEL_ALREADY_ON_MANIFEST: 409,
  /** Issue 44: the merchant's count code, wrong (a try used); the count, not the pickup's (no try used). */
  COUNT_CODE_INCORRECT: 409,
  PICKUP_COUNT_MISMATCH: 409,
  /** Issue 44: a pickup booked without an address, and none stored for the organisation (PUT /organization/pickup-address). */
  PICKUP_ADDRESS_MISSING: 409,
  /** Issue 45: a relay point with no closed cash waiting for a courier, a courier with nothing aboard. */
  NOTHING_TO_COLLECT: 409,
  NOTHING_TO_DEPOSIT: 409,
  /** Issue 45: a till closing already taken by a courier, or of another relay point. */
  CASH_NOT_COLLECTABLE: 409,
  PAIRING_CODE_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  COD_AMOUNT_MISMATCH: 422,
  PIN_LOCKED: 423,
  /** Issue 44: five wrong count codes for one pickup: the courier scans each parcel instead. */
  COUNT_CODE_LOCKED: 423,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  UNAVAILABLE: 503
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldProblem {
  field: string;
  message: string;
  /** A relay point suggested instead (RELAY_CLOSED): its code, and how far it is from the one refused. */
  relayCode?: string;
  distanceKm?: number;
}

export interface AppErrorData {
  details?: FieldProblem[];
  retryAfterSeconds?: number;
  /** The methods a path does answer to, for the Allow header of a 405. */
  allow?: string[];
}

/**
 * The one error type of the project. It travels through the transporter as a plain
 * Moleculer error (name, code = HTTP status, type = our code, data), so the gateway can map
 * it without knowing which service threw it.
 */
export class AppError extends Errors.MoleculerError {
  declare type: ErrorCode;
  declare data: AppErrorData | undefined;

  constructor(type: ErrorCode, message: string, data?: AppErrorData) {
    super(message, ERROR_STATUS[type], type, data);
    this.name = "AppError";
    // A business refusal must never be retried by the broker.
    this.retryable = false;
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.prototype.hasOwnProperty.call(ERROR_STATUS, value);
}

/** The code of an error from any service (an AppError here, or one that crossed the transporter), or undefined. */
export function errorCodeOf(err: unknown): ErrorCode | undefined {
  const type = (err as { type?: unknown } | null)?.type;
  return isErrorCode(type) ? type : undefined;
}
