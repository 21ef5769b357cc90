import { createHash, randomUUID } from "node:crypto";
import type { Logger } from "moleculer";
import { encryptField } from "../../lib/crypto";
import type { Database } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { toCentimes } from "../../lib/money";
import { generateTrackingNumber } from "../../lib/s10";
import { quotePrice } from "../../lib/tariff";
import * as store from "./parcels.store";
import { findRelayPoint } from "./relay-points.store";
import { finishCreation } from "./status-change";

export interface CreateParcelInput {
  recipientName: string;
  recipientPhone: string;
  weightG: number;
  destinationRelayCode: string;
  lengthCm: number | null;
  widthCm: number | null;
  heightCm: number | null;
  declaredValueDzd: number | null;
  codAmountDzd: number | null;
}

export interface SagaDeps {
  db: Database;
  encryptionKey: string;
  logger: Logger;
  call: <T>(action: string, params: object) => Promise<T>;
}

const IDEMPOTENCY_HOURS = 24;
const TRACKING_ATTEMPTS = 5;

/** Two requests are "the same" when their validated bodies are equal, whatever the key order. */
export function fingerprintOf(input: CreateParcelInput): string {
  const canonical = JSON.stringify(Object.keys(input).sort().map(k => [k, input[k as keyof CreateParcelInput]]));
  return createHash("sha256").update(canonical).digest("hex");
}

function errorType(err: unknown): string | undefined {
  return (err as { type?: string })?.type;
}

function replay(existing: store.ParcelRow, fingerprint: string): store.ParcelRow {
  if (existing.request_fingerprint !== fingerprint) {
    throw new AppError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was already used with a different request body");
  }
  if (existing.status === "PENDING") {
    throw new AppError("CONFLICT", "A request with this Idempotency-Key is still being processed; retry shortly");
  }
  return existing;
}

async function insertWithFreshTrackingNumber(db: Database, parcel: Omit<store.NewParcel, "tracking_number">) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await store.insertPending(db, { ...parcel, tracking_number: generateTrackingNumber() });
    } catch (err) {
      // 10^8 numbers: a collision is rare, and a new draw fixes it.
      if (!store.isUniqueViolation(err, "tracking_number") || attempt >= TRACKING_ATTEMPTS) throw err;
    }
  }
}

/**
 * Gives the money back and discards the pending row. If the wallet cannot be reached either, the
 * row stays PENDING and the sweeper settles it later: nothing is lost, only delayed.
 */
async function compensate(deps: SagaDeps, row: store.ParcelRow, why: string): Promise<void> {
  try {
    await deps.call("wallet.refund", {
      parcelId: row.id,
      organizationId: row.organization_id,
      mode: row.mode,
      reason: `creation failed: ${why}`
    });
    await store.deletePending(deps.db, row.id);
  } catch (err) {
    deps.logger.warn(`parcel ${row.id}: compensation deferred to the sweeper (${(err as Error).message})`);
  }
}

/**
 * The create-parcel saga (DESIGN §3): pending row → idempotent debit → CREATED + outbox in one
 * transaction; compensation by refund on any failure after the debit.
 */
export async function createParcel(
  deps: SagaDeps,
  owner: store.Owner,
  input: CreateParcelInput,
  idempotencyKey: string | null
): Promise<store.ParcelRow> {
  const relay = await findRelayPoint(deps.db, input.destinationRelayCode);
  if (!relay || !relay.active) {
    throw new AppError("RELAY_NOT_FOUND", `Relay point ${input.destinationRelayCode} does not exist or is not in service`, {
      details: [{ field: "destinationRelayCode", message: "unknown or inactive relay point" }]
    });
  }
  const quote = quotePrice({
    weightG: input.weightG,
    declaredValueDzd: input.declaredValueDzd,
    codAmountDzd: input.codAmountDzd
  });

  const fingerprint = fingerprintOf(input);
  if (idempotencyKey) {
    await store.releaseExpiredIdempotencyKey(deps.db, owner, idempotencyKey, IDEMPOTENCY_HOURS);
    const existing = await store.findByIdempotencyKey(deps.db, owner, idempotencyKey);
    if (existing) return replay(existing, fingerprint);
  }

  let row: store.ParcelRow;
  try {
    row = await insertWithFreshTrackingNumber(deps.db, {
      id: randomUUID(),
      organization_id: owner.organizationId,
      mode: owner.mode,
      destination_relay_code: relay.code,
      recipient_name_enc: encryptField(input.recipientName, deps.encryptionKey),
      recipient_phone_enc: encryptField(input.recipientPhone, deps.encryptionKey),
      weight_g: input.weightG,
      length_cm: input.lengthCm,
      width_cm: input.widthCm,
      height_cm: input.heightCm,
      declared_value_centimes: input.declaredValueDzd === null ? null : toCentimes(input.declaredValueDzd),
      cod_amount_centimes: input.codAmountDzd === null ? null : toCentimes(input.codAmountDzd),
      price_centimes: quote.totalCentimes,
      idempotency_key: idempotencyKey,
      request_fingerprint: idempotencyKey ? fingerprint : null
    });
  } catch (err) {
    // Two requests with one key at the same moment: the loser replays the winner.
    if (idempotencyKey && store.isUniqueViolation(err, "parcels_idempotency")) {
      const existing = await store.findByIdempotencyKey(deps.db, owner, idempotencyKey);
      if (existing) return replay(existing, fingerprint);
    }
    throw err;
  }

  try {
    await deps.call("wallet.debit", {
      parcelId: row.id,
      organizationId: owner.organizationId,
      mode: owner.mode,
      amountCentimes: quote.totalCentimes
    });
  } catch (err) {
    if (errorType(err) === "INSUFFICIENT_BALANCE" || errorType(err) === "CONFLICT") {
      await store.deletePending(deps.db, row.id);
      throw err;
    }
    // The debit may or may not have happened (timeout, wallet restarting): refund is safe either way.
    await compensate(deps, row, (err as Error).message);
    throw new AppError("UNAVAILABLE", "The wallet could not be reached; the parcel was not created. Please retry");
  }

  try {
    const created = await finishCreation(deps.db, row.id, "merchant");
    if (created) return created;
  } catch (err) {
    await compensate(deps, row, (err as Error).message);
    throw new AppError("UNAVAILABLE", "The parcel could not be stored; the wallet was refunded. Please retry");
  }
  // The sweeper discarded it between the debit and now: the debit was refunded by then.
  throw new AppError("UNAVAILABLE", "The parcel could not be completed; please retry");
}
