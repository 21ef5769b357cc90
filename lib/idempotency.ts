import { createHash } from "node:crypto";
import { AppError } from "./errors";
import type { Parameter } from "./openapi/types";
import { IDEMPOTENCY_KEY_PATTERN } from "./schemas";

/**
 * The `Idempotency-Key` semantics every API shares (DESIGN §3 and §8): a key of 1 to 255 visible
 * ASCII characters, kept 24 hours; the same key with the same validated body answers the first
 * answer again, with another body 422 IDEMPOTENCY_KEY_REUSED, and while the first is still running
 * 409 CONFLICT. The partner API's create keeps its keys on the parcel row; the relay API keeps its
 * answers in parcels.relay_idempotency, and pairings on the pairing code (decision 0031).
 */

export const IDEMPOTENCY_HOURS = 24;

/** The header's value, checked; null when it was not sent. */
export function idempotencyKeyOf(meta: { idempotencyKey?: string }): string | null {
  const key = meta.idempotencyKey ?? null;
  if (key !== null && !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new AppError("VALIDATION_FAILED", "The request is not valid", {
      details: [{ field: "Idempotency-Key", message: "must be 1 to 255 visible ASCII characters" }]
    });
  }
  return key;
}

/** Two requests are "the same" when their validated bodies are equal, whatever the key order. */
export function fingerprintOf(input: object): string {
  const record = input as Record<string, unknown>;
  const canonical = JSON.stringify(
    Object.keys(record)
      .sort()
      .map(k => [k, record[k]])
  );
  return createHash("sha256").update(canonical).digest("hex");
}

export const keyReused = () =>
  new AppError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was already used with a different request body");

export const stillProcessing = () =>
  new AppError("CONFLICT", "A request with this Idempotency-Key is still being processed; retry shortly");

/** The header as the relay API documents it (the partner API's create has its own words). */
export const RELAY_IDEMPOTENCY_KEY_HEADER: Parameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "The app's identifier of this operation (a UUID drawn when it was scanned): 1 to 255 visible ASCII characters, kept 24 " +
    "hours, per relay point. Sent again with the same body, the first answer comes back (same status) and nothing happens " +
    "twice; another body is 422 IDEMPOTENCY_KEY_REUSED; while the first is still running, 409 CONFLICT (retry shortly).",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source },
  example: "4f1c2b9e-7d35-4a57-9a0e-2f8d7c1b6e30"
};
