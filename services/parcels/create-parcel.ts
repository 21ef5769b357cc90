import { uuidv7 } from "./uuid7";
import type { Logger } from "moleculer";
import { call, Caller } from "../../lib/contract";
import { encryptField } from "../../lib/crypto";
import type { Database, Queryable } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { fingerprintOf, IDEMPOTENCY_HOURS, keyReused, stillProcessing } from "../../lib/idempotency";
import { toCentimes } from "../../lib/money";
import { generateTrackingNumber } from "../../lib/s10";
import type { CreateGroups, CreateStep } from "./create-groups";
import { PriceQuote, quotePrice } from "./tariff";
import type { RelayPoint } from "./parcels.contract";
import type { CreateParcelInput } from "./parcels.params";
import * as store from "./parcels.store";
import { assertRelayOpenForNewParcels } from "./relay/closures";
import { relayLookupsOf } from "./relay/relay-lookups";
import { acceptRecipientPhone } from "./recipient/phone-policy";
import { DEFAULT_RECIPIENT_SETTINGS, RecipientSettings } from "./recipient/recipient-settings.store";

export interface SagaDeps {
  db: Database;
  encryptionKey: string;
  logger: Logger;
  caller: Caller;
  /** The create path's writes, committed in groups (create-groups.ts). */
  groups: CreateGroups;
  /**
   * A batch's order of payment (create-batch.ts): the item joins a create group once `wait`
   * resolves, and `sent` says it joined, so that items debit in the batch's order while the rest of
   * them runs together.
   */
  debitTurn?: { wait: () => Promise<void>; sent: () => void };
  /** Counts a compensation (metrics): refunded at once, or left to the sweeper. */
  onCompensation?: (outcome: "refunded" | "deferred") => void;
  /** CLOSURE_NOTICE_DAYS: a destination closed today or within these days is refused (relay/closures.ts). */
  closureNoticeDays: number;
  /** The organisation's recipient settings (issue 30); the defaults when not given. */
  recipient?: RecipientSettings;
}

const TRACKING_ATTEMPTS = 5;

/** A create's parcel, and whether it was made now or answered again for its Idempotency-Key. */
export interface CreateOutcome {
  parcel: store.ParcelRecord;
  replayed: boolean;
}

function replay(existing: store.ParcelRecord, fingerprint: string): CreateOutcome {
  if (existing.requestFingerprint !== fingerprint) throw keyReused();
  if (existing.status === "PENDING") throw stillProcessing();
  return { parcel: existing, replayed: true };
}

/**
 * The create through its group (create-groups.ts): PENDING row, debit and finish. A taken unique
 * key is either the Idempotency-Key (another request with it got there first: replay it) or the
 * tracking number (10^8 numbers: rare, and a new draw fixes it). A batch item joins a group only
 * once the item before it joined one (`debitTurn`), so the wallet takes a batch in its order.
 */
async function throughGroup(
  deps: SagaDeps,
  parcel: Omit<store.NewParcel, "trackingNumber">,
  replayOf: () => Promise<CreateOutcome | null>
): Promise<CreateStep | CreateOutcome> {
  await deps.debitTurn?.wait();
  for (let attempt = 1; attempt <= TRACKING_ATTEMPTS; attempt++) {
    const step = deps.groups.creates.submit({ ...parcel, trackingNumber: generateTrackingNumber() });
    deps.debitTurn?.sent();
    const reached = await step;
    if (reached.step !== "taken") return reached;
    const replayed = await replayOf();
    if (replayed) return replayed;
  }
  throw new AppError("UNAVAILABLE", "No free tracking number could be drawn; please retry");
}

/**
 * Gives the money back and discards the pending row, after claiming the row so that the sweeper
 * cannot finish it as CREATED meanwhile. When the sweeper got there first (the debit was held past
 * its age limit), the parcel it finished is returned: it is created and paid, and refunding it
 * would leave a live parcel nobody paid for. If the wallet cannot be reached, the row stays PENDING
 * and claimed, and the sweeper settles it once the claim is old: nothing is lost, only delayed.
 */
async function compensate(deps: SagaDeps, row: store.ParcelRecord, why: string): Promise<store.ParcelRecord | null> {
  if (!(await store.claimForCompensation(deps.db, row.id))) return finishedMeanwhile(deps, row.id);
  try {
    await call(deps.caller, "wallet.refund", {
      parcelId: row.id,
      organizationId: row.organizationId,
      mode: row.mode,
      reason: `creation failed: ${why}`
    });
    await store.deletePending(deps.db, row.id);
    deps.onCompensation?.("refunded");
  } catch (err) {
    deps.onCompensation?.("deferred");
    deps.logger.warn(`parcel ${row.id}: compensation deferred to the sweeper (${(err as Error).message})`);
  }
  return null;
}

/** The parcel the sweeper finished while this create was away; null when it was discarded. */
async function finishedMeanwhile(deps: SagaDeps, id: string): Promise<store.ParcelRecord | null> {
  const row = await store.findParcel(deps.db, id);
  return row && row.status !== "PENDING" ? row : null;
}

/**
 * The destination and the price of a parcel, exactly as a creation checks and computes them:
 * `POST /parcels/quote` answers with this, so a quote always equals the debit. The point comes
 * from the in-memory directory when the service attached one to `db` (relay-lookups.ts).
 */
export async function priceParcel(
  db: Queryable,
  input: Pick<CreateParcelInput, "destinationRelayCode" | "weightG" | "declaredValueDzd" | "codAmountDzd">
): Promise<{ relay: RelayPoint; quote: PriceQuote }> {
  const relay = await relayLookupsOf(db).relayPoint(input.destinationRelayCode);
  if (!relay || !relay.active) {
    throw new AppError("RELAY_NOT_FOUND", `Relay point ${input.destinationRelayCode} does not exist or is not in service`, {
      details: [{ field: "destinationRelayCode", message: "unknown or inactive relay point" }]
    });
  }
  const quote = quotePrice({ weightG: input.weightG, declaredValueDzd: input.declaredValueDzd, codAmountDzd: input.codAmountDzd });
  return { relay, quote };
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
): Promise<CreateOutcome> {
  const { relay, quote } = await priceParcel(deps.db, input);
  const recipient = deps.recipient ?? DEFAULT_RECIPIENT_SETTINGS;
  const phone = acceptRecipientPhone(input.recipientPhone, recipient);

  const fingerprint = fingerprintOf(input);
  if (idempotencyKey) {
    await store.releaseExpiredIdempotencyKey(deps.db, owner, idempotencyKey, IDEMPOTENCY_HOURS);
    const existing = await store.findByIdempotencyKey(deps.db, owner, idempotencyKey);
    if (existing) return replay(existing, fingerprint);
  }
  // After the replay: a parcel created before the closure is answered again as it was.
  await assertRelayOpenForNewParcels({ db: deps.db, noticeDays: deps.closureNoticeDays }, relay.code);

  const reached = await throughGroup(
    deps,
    {
      id: uuidv7(),
      organizationId: owner.organizationId,
      mode: owner.mode,
      destinationRelayCode: relay.code,
      recipientNameEnc: encryptField(input.recipientName, deps.encryptionKey),
      // Stored and sent as E.164 (issue 30); the fingerprint keeps the number as typed.
      recipientPhoneEnc: encryptField(phone.e164, deps.encryptionKey),
      recipientPhoneMobile: phone.mobile,
      recipientLanguage: input.recipientLanguage ?? recipient.defaultLanguage,
      weightG: input.weightG,
      lengthCm: input.lengthCm,
      widthCm: input.widthCm,
      heightCm: input.heightCm,
      declaredValueCentimes: input.declaredValueDzd === null ? null : toCentimes(input.declaredValueDzd),
      codAmountCentimes: input.codAmountDzd === null ? null : toCentimes(input.codAmountDzd),
      priceCentimes: quote.totalCentimes,
      idempotencyKey,
      requestFingerprint: idempotencyKey ? fingerprint : null
    },
    // Two requests with one key at the same moment: the loser replays the winner.
    async () => {
      const existing = idempotencyKey ? await store.findByIdempotencyKey(deps.db, owner, idempotencyKey) : null;
      return existing ? replay(existing, fingerprint) : null;
    }
  );
  if (!("step" in reached)) return reached;
  switch (reached.step) {
    case "refused":
      throw reached.error;
    case "debitUnknown": {
      // The debit may or may not have happened (timeout, wallet restarting): refund is safe either way.
      const finished = await compensate(deps, reached.row, reached.error.message);
      if (finished) return { parcel: finished, replayed: false };
      throw new AppError("UNAVAILABLE", "The wallet could not be reached; the parcel was not created. Please retry");
    }
    case "finishFailed": {
      const finished = await compensate(deps, reached.row, reached.error.message);
      if (finished) return { parcel: finished, replayed: false };
      throw new AppError("UNAVAILABLE", "The parcel could not be stored; the wallet was refunded. Please retry");
    }
    case "done": {
      // The finishing group answers a row the sweeper finished as it is; null only when the
      // sweeper discarded it (the debit was refunded by then).
      if (reached.parcel) return { parcel: reached.parcel, replayed: false };
      throw new AppError("UNAVAILABLE", "The parcel could not be completed; please retry");
    }
  }
  throw new AppError("UNAVAILABLE", "The parcel could not be completed; please retry");
}
