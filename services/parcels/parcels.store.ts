import type { KeyMode } from "../../lib/api-keys";
import type { Lang } from "../../lib/languages";
import type { CodStatus } from "../../lib/cod";
import type { Queryable } from "../../lib/db/database";
import { named } from "../../lib/db/statement";
import type { ParcelEvent } from "../../lib/events";
import { toDzd } from "../../lib/money";
import type { HistoryRecord } from "./parcel-events";
import { ListPosition, POSITION_AT_SQL } from "./list-cursor";
import { LIST_MARKS, markedPage, MarkTuning } from "./list-marks.store";
import { PARCEL_COLUMNS } from "./parcel-columns";
import type { ParcelStatus } from "../../lib/parcel-status";
import type { ParcelDirection } from "../../lib/parcel-view";
import type { PublicTrackingSource } from "../../lib/public-tracking";
import { findRelayPoint } from "./relay-points.store";
import { stepsOf } from "./network/steps.store";

/** All SQL of the parcels service (schema `parcels`, migrations/parcels/), returning camelCase records. */

export type StoredStatus = ParcelStatus | "PENDING";

export interface ParcelRecord {
  id: string;
  organizationId: string;
  mode: KeyMode;
  trackingNumber: string;
  status: StoredStatus;
  destinationRelayCode: string;
  recipientNameEnc: string;
  recipientPhoneEnc: string;
  weightG: number;
  lengthCm: number | null;
  widthCm: number | null;
  heightCm: number | null;
  declaredValueCentimes: number | null;
  codAmountCentimes: number | null;
  priceCentimes: number;
  idempotencyKey: string | null;
  requestFingerprint: string | null;
  refundPending: boolean;
  codStatus: CodStatus | null;
  /** Issue 45 B: COURIER or CARRIER once a hand-off of its cash is confirmed (migration parcels/040); null before. */
  codCashAt: string | null;
  /** The pick-up PIN, sealed (lib/crypto); null for sandbox parcels and before AT_RELAY. */
  pickupPinEnc: string | null;
  pickupPinFailures: number;
  /** Set on arrival at the relay point (migration parcels/008); null before. */
  pickupDeadline: Date | null;
  /** The deadline whose reminder went out; a new deadline gets its own. */
  pickupRemindedFor: Date | null;
  pickupExtendedDays: number | null;
  /** Fixed on entering RETURN_PENDING; returnFeePending while the wallet has not acknowledged it. */
  returnFeeCentimes: number | null;
  returnFeePending: boolean;
  /** Issue 21 (migration parcels/011): a customer's return parcel is RETURN, made at its drop-off. */
  direction: ParcelDirection;
  returnOf: string | null;
  /** Where a return parcel was dropped off (it waits there for the courier); null otherwise. */
  originRelayCode: string | null;
  /** Issue 30 (migration parcels/020): the phone can take an SMS; null until a row from before is checked. */
  recipientPhoneMobile: boolean | null;
  /** The language of the recipient's SMS and of the tracking page's first view. */
  recipientLanguage: Lang;
  createdAt: Date;
  updatedAt: Date;
  /** Issue 44 (migration parcels/035): who holds it in the network, as logistics last said (custody/custody.store.ts). */
  custody: StoredCustody | null;
}

/** A parcel's holder as parcels.recordCustody last wrote it; null before the first network scan. */
export interface StoredCustody {
  holder: string;
  since: Date;
  name: string | null;
  wilaya: string | null;
}

export interface ParcelRow {
  id: string;
  organization_id: string;
  mode: KeyMode;
  tracking_number: string;
  status: StoredStatus;
  destination_relay_code: string;
  recipient_name_enc: string;
  recipient_phone_enc: string;
  weight_g: number;
  length_cm: number | null;
  width_cm: number | null;
  height_cm: number | null;
  declared_value_centimes: string | number | null;
  cod_amount_centimes: string | number | null;
  price_centimes: string | number;
  idempotency_key: string | null;
  request_fingerprint: string | null;
  refund_pending: boolean;
  cod_status: CodStatus | null;
  /** Absent from rows read before migration parcels/040 (a named statement of fixed columns). */
  cod_cash_at?: string | null;
  pickup_pin_enc: string | null;
  pickup_pin_failures: number;
  pickup_deadline: Date | null;
  pickup_reminded_for: Date | null;
  pickup_extended_days: number | null;
  return_fee_centimes: string | number | null;
  return_fee_pending: boolean;
  direction: ParcelDirection;
  return_of: string | null;
  origin_relay_code: string | null;
  recipient_phone_mobile: boolean | null;
  recipient_language: Lang;
  created_at: Date;
  updated_at: Date;
  custody_holder?: string | null;
  custody_since?: Date | null;
  custody_name?: string | null;
  custody_wilaya?: string | null;
}

const centimes = (value: string | number | null): number | null => (value === null ? null : Number(value));

export function toParcel(row: ParcelRow): ParcelRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    mode: row.mode,
    trackingNumber: row.tracking_number,
    status: row.status,
    destinationRelayCode: row.destination_relay_code,
    recipientNameEnc: row.recipient_name_enc,
    recipientPhoneEnc: row.recipient_phone_enc,
    weightG: row.weight_g,
    lengthCm: row.length_cm,
    widthCm: row.width_cm,
    heightCm: row.height_cm,
    declaredValueCentimes: centimes(row.declared_value_centimes),
    codAmountCentimes: centimes(row.cod_amount_centimes),
    priceCentimes: Number(row.price_centimes),
    idempotencyKey: row.idempotency_key,
    requestFingerprint: row.request_fingerprint,
    refundPending: row.refund_pending,
    codStatus: row.cod_status,
    codCashAt: row.cod_cash_at ?? null,
    pickupPinEnc: row.pickup_pin_enc,
    pickupPinFailures: row.pickup_pin_failures,
    pickupDeadline: row.pickup_deadline,
    pickupRemindedFor: row.pickup_reminded_for,
    pickupExtendedDays: row.pickup_extended_days,
    returnFeeCentimes: centimes(row.return_fee_centimes),
    returnFeePending: row.return_fee_pending,
    direction: row.direction,
    returnOf: row.return_of,
    originRelayCode: row.origin_relay_code,
    recipientPhoneMobile: row.recipient_phone_mobile,
    recipientLanguage: row.recipient_language,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    custody:
      row.custody_holder && row.custody_since
        ? { holder: row.custody_holder, since: row.custody_since, name: row.custody_name ?? null, wilaya: row.custody_wilaya ?? null }
        : null
  };
}

const first = (rows: ParcelRow[]): ParcelRecord | null => (rows[0] ? toParcel(rows[0]) : null);

const VISIBLE_BY = {
  id: named(
    "parcels_visible_by_id",
    `SELECT ${PARCEL_COLUMNS} FROM parcels.parcels WHERE id = $1 AND organization_id = $2 AND mode = $3 AND status <> 'PENDING'`
  ),
  tracking_number: named(
    "parcels_visible_by_tracking",
    `SELECT ${PARCEL_COLUMNS} FROM parcels.parcels
      WHERE tracking_number = $1 AND organization_id = $2 AND mode = $3 AND status <> 'PENDING'`
  )
};
const BY_IDEMPOTENCY_KEY = named(
  "parcels_by_idempotency_key",
  `SELECT ${PARCEL_COLUMNS} FROM parcels.parcels WHERE organization_id = $1 AND mode = $2 AND idempotency_key = $3`
);
const RELEASE_EXPIRED_KEY = named(
  "parcels_release_expired_key",
  `UPDATE parcels.parcels SET idempotency_key = NULL
    WHERE organization_id = $1 AND mode = $2 AND idempotency_key = $3
      AND created_at < now() - make_interval(hours => $4::int)`
);
const CLAIM_FOR_COMPENSATION = named(
  "parcels_claim_for_compensation",
  "UPDATE parcels.parcels SET compensating_since = now() WHERE id = $1 AND status = 'PENDING' RETURNING id"
);
const DELETE_PENDING = named("parcels_delete_pending", "DELETE FROM parcels.parcels WHERE id = $1 AND status = 'PENDING'");

export interface Owner {
  organizationId: string;
  mode: KeyMode;
}

export type NewParcel = Omit<
  ParcelRecord,
  | "status"
  | "custody"
  | "refundPending"
  | "codStatus"
  | "codCashAt"
  | "pickupPinEnc"
  | "pickupPinFailures"
  | "pickupDeadline"
  | "pickupRemindedFor"
  | "pickupExtendedDays"
  | "returnFeeCentimes"
  | "returnFeePending"
  | "direction"
  | "returnOf"
  | "originRelayCode"
  | "recipientPhoneMobile"
  | "recipientLanguage"
  | "createdAt"
  | "updatedAt"
> & {
  /** Issue 30: what a create knows of the recipient; a customer's return parcel has neither (no SMS). */
  recipientPhoneMobile?: boolean | null;
  recipientLanguage?: Lang;
};

export { isUniqueViolation } from "../../lib/db/unique-violation";

// --- parcels ------------------------------------------------------------------------------------

export async function deletePending(db: Queryable, id: string): Promise<void> {
  await db.query(DELETE_PENDING, [id]);
}

/**
 * A create about to refund its debit claims its row: true when the row was still PENDING (the
 * sweeper now leaves it alone), false when the sweeper finished or discarded it first.
 */
export async function claimForCompensation(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(CLAIM_FOR_COMPENSATION, [id]);
  return rows.length === 1;
}

/**
 * Locks a PENDING row for the sweeper, unless a create claimed it for compensation less than
 * `claimAgeSeconds` ago. The condition is checked again once the lock is held, so a claim that
 * committed while the sweeper waited keeps the row out of its hands.
 */
export async function lockPendingForSweeper(tx: Queryable, id: string, claimAgeSeconds: number): Promise<ParcelRecord | null> {
  return first(
    await tx.query<ParcelRow>(
      `SELECT * FROM parcels.parcels WHERE id = $1
          AND (compensating_since IS NULL OR compensating_since < now() - make_interval(secs => $2::int))
        FOR UPDATE`,
      [id, claimAgeSeconds]
    )
  );
}

/** Any parcel, PENDING included (internal callers: labels, notifications, the saga). */
export async function findParcel(db: Queryable, id: string): Promise<ParcelRecord | null> {
  return first(await db.query<ParcelRow>("SELECT * FROM parcels.parcels WHERE id = $1", [id]));
}

/** Locks the row for a status change; PENDING rows are locked too (the saga and sweeper finish them). */
export async function lockParcel(tx: Queryable, id: string): Promise<ParcelRecord | null> {
  return first(await tx.query<ParcelRow>("SELECT * FROM parcels.parcels WHERE id = $1 FOR UPDATE", [id]));
}

/**
 * The row's part of a status change. `holdingDays` starts the holding period (the deadline runs
 * from now); `returnFeeCentimes` fixes the return's fee, once: a parcel that already has one keeps it.
 */
export async function setStatus(
  tx: Queryable,
  id: string,
  change: {
    status: ParcelStatus;
    refundPending: boolean;
    codStatus: CodStatus | null;
    pickupPinEnc: string | null;
    holdingDays: number | null;
    returnFeeCentimes: number | null;
    /** When the change happened, if not now (an operation sent later): the arrival and the deadline count from it. */
    at: Date | null;
  }
): Promise<ParcelRecord> {
  const rows = await tx.query<ParcelRow>(
    `UPDATE parcels.parcels SET status = $2, updated_at = now(), refund_pending = refund_pending OR $3, cod_status = $4,
            pickup_pin_enc = $5,
            pickup_deadline = CASE WHEN $6::int IS NULL THEN pickup_deadline
                                   ELSE coalesce($8::timestamptz, now()) + make_interval(days => $6::int) END,
            pickup_closure_days = CASE WHEN $6::int IS NULL THEN pickup_closure_days ELSE 0 END,
            arrived_at = CASE WHEN $2 = 'AT_RELAY' AND arrived_at IS NULL THEN $8::timestamptz ELSE arrived_at END,
            return_fee_centimes = coalesce(return_fee_centimes, $7::bigint),
            return_fee_pending = return_fee_pending OR (return_fee_centimes IS NULL AND coalesce($7::bigint, 0) > 0)
      WHERE id = $1 RETURNING *`,
    [
      id,
      change.status,
      change.refundPending,
      change.codStatus,
      change.pickupPinEnc,
      change.holdingDays,
      change.returnFeeCentimes,
      change.at
    ]
  );
  return toParcel(rows[0]);
}

/** A wrong PIN counted (committed even though the hand-over is refused). */
export async function recordPinFailure(db: Queryable, id: string): Promise<void> {
  await db.query("UPDATE parcels.parcels SET pickup_pin_failures = pickup_pin_failures + 1 WHERE id = $1", [id]);
}

/**
 * A new sealed PIN (an operator's reset, a resend), and the count of wrong tries back to zero; the
 * PIN it replaces is kept in parcels.replaced_pickup_pins (migration 029). The caller holds the row lock.
 */
export async function resetPickupPin(tx: Queryable, id: string, pickupPinEnc: string): Promise<ParcelRecord> {
  const rows = await tx.query<ParcelRow>(
    // A new PIN voids the pickup passes shown so far (issue 43): the pass's version moves on with it; the
    // replaced PIN is kept so that typing it says so instead of costing a try.
    `WITH replaced AS (
       INSERT INTO parcels.replaced_pickup_pins (parcel_id, pin_enc)
       SELECT id, pickup_pin_enc FROM parcels.parcels WHERE id = $1 AND pickup_pin_enc IS NOT NULL
     )
     UPDATE parcels.parcels
        SET pickup_pin_enc = $2, pickup_pin_failures = 0, offline_pin_failures = 0, pickup_pass_version = pickup_pass_version + 1
      WHERE id = $1 RETURNING *`,
    [id, pickupPinEnc]
  );
  return toParcel(rows[0]);
}

/** The PINs a parcel had before its current one, newest first, each with when it was replaced. */
export async function replacedPickupPins(db: Queryable, parcelId: string): Promise<{ pinEnc: string; replacedAt: Date }[]> {
  const rows = await db.query<{ pin_enc: string; replaced_at: Date }>(
    "SELECT pin_enc, replaced_at FROM parcels.replaced_pickup_pins WHERE parcel_id = $1 ORDER BY id DESC",
    [parcelId]
  );
  return rows.map(r => ({ pinEnc: r.pin_enc, replacedAt: r.replaced_at }));
}

/**
 * One line of the parcel's history, and the change's place in it: its time, and its sequence (the
 * number of lines the parcel has, this one included), which the event carries. The caller holds
 * the parcel's row lock, so no other change of the parcel counts at the same time.
 */
export async function recordHistory(
  tx: Queryable,
  entry: { parcelId: string; from: StoredStatus | null; to: ParcelStatus; reason: string | null; actor: string; at?: Date | null }
): Promise<{ sequence: number; occurredAt: Date }> {
  const [line] = await tx.query<{ created_at: Date }>(
    `INSERT INTO parcels.status_history (parcel_id, from_status, to_status, reason, actor, created_at)
     VALUES ($1, $2, $3, $4, $5, coalesce($6::timestamptz, now())) RETURNING created_at`,
    [entry.parcelId, entry.from, entry.to, entry.reason, entry.actor, entry.at ?? null]
  );
  return { sequence: await eventCount(tx, entry.parcelId), occurredAt: line.created_at };
}

/**
 * When the parcel's latest status change happened (its history's last line), or null: an operation
 * sent later may not be dated before it (lib/occurred-at.ts). Under the parcel's row lock.
 */
export async function lastStatusAt(tx: Queryable, parcelId: string): Promise<Date | null> {
  const [row] = await tx.query<{ at: Date | null }>("SELECT max(created_at) AS at FROM parcels.status_history WHERE parcel_id = $1", [
    parcelId
  ]);
  return row?.at ?? null;
}

/**
 * The parcel's events so far: status changes (rows, or compacted: parcels/038), COD events (parcels/006), deadline events (parcels/008),
 * redirects (parcels/012), claim events (parcels/013) and return events (parcels/011), one sequence for all.
 */
export async function eventCount(tx: Queryable, parcelId: string): Promise<number> {
  const [{ n }] = await tx.query<{ n: number }>(
    `SELECT ((SELECT count(*) FROM parcels.status_history WHERE parcel_id = $1) +
             (SELECT coalesce(jsonb_array_length(history_compact), 0) FROM parcels.parcels WHERE id = $1) +
             (SELECT count(*) FROM parcels.cod_history WHERE parcel_id = $1) +
             (SELECT count(*) FROM parcels.pickup_history WHERE parcel_id = $1) +
             (SELECT count(*) FROM parcels.redirects WHERE parcel_id = $1) +
             (SELECT count(*) FROM parcels.claim_history WHERE parcel_id = $1) +
             (SELECT count(*) FROM parcels.return_history WHERE parcel_id = $1) +
             (SELECT count(*) FROM parcels.network_steps WHERE parcel_id = $1 AND kind = 'missorted') +
             (SELECT count(*) FROM parcels.investigation_history WHERE parcel_id = $1) +
             (SELECT count(*) FROM parcels.out_for_delivery WHERE parcel_id = $1))::integer AS n`,
    [parcelId]
  );
  return Number(n);
}

/** One deadline event of the parcel (a reminder, an extension), under the parcel's row lock like recordHistory. */
export async function recordPickupHistory(
  tx: Queryable,
  entry: { parcelId: string; kind: "reminder" | "extension" | "closure"; deadline: Date; actor: string }
): Promise<{ sequence: number; occurredAt: Date }> {
  const [line] = await tx.query<{ created_at: Date }>(
    "INSERT INTO parcels.pickup_history (parcel_id, kind, pickup_deadline, actor) VALUES ($1, $2, $3, $4) RETURNING created_at",
    [entry.parcelId, entry.kind, entry.deadline, entry.actor]
  );
  return { sequence: await eventCount(tx, entry.parcelId), occurredAt: line.created_at };
}

/** One COD event of the parcel (cod.collected, cod.remitted), under the parcel's row lock like recordHistory. */
export async function recordCodHistory(
  tx: Queryable,
  entry: { parcelId: string; to: CodStatus; remittanceId: string | null }
): Promise<{ sequence: number; occurredAt: Date }> {
  const [line] = await tx.query<{ created_at: Date }>(
    "INSERT INTO parcels.cod_history (parcel_id, to_status, remittance_id) VALUES ($1, $2, $3) RETURNING created_at",
    [entry.parcelId, entry.to, entry.remittanceId]
  );
  return { sequence: await eventCount(tx, entry.parcelId), occurredAt: line.created_at };
}

export async function appendOutbox(
  tx: Queryable,
  event: { eventId: string; parcelId: string; owner: Owner; type: string; payload: object }
): Promise<void> {
  await tx.query(
    `INSERT INTO parcels.outbox (event_id, parcel_id, organization_id, mode, type, payload)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [event.eventId, event.parcelId, event.owner.organizationId, event.owner.mode, event.type, JSON.stringify(event.payload)]
  );
}

/** Visible parcels only: a PENDING row does not exist for the API. */
export async function findVisible(
  db: Queryable,
  owner: Owner,
  by: { id: string } | { trackingNumber: string }
): Promise<ParcelRecord | null> {
  const [statement, value] = "id" in by ? [VISIBLE_BY.id, by.id] : [VISIBLE_BY.tracking_number, by.trackingNumber];
  return first(await db.query<ParcelRow>(statement, [value, owner.organizationId, owner.mode]));
}

export async function findByIdempotencyKey(db: Queryable, owner: Owner, key: string): Promise<ParcelRecord | null> {
  return first(await db.query<ParcelRow>(BY_IDEMPOTENCY_KEY, [owner.organizationId, owner.mode, key]));
}

/** Idempotency keys are kept 24 h: an older one is released so that it may be used again. */
export async function releaseExpiredIdempotencyKey(db: Queryable, owner: Owner, key: string, hours: number): Promise<void> {
  await db.query(RELEASE_EXPIRED_KEY, [owner.organizationId, owner.mode, key, hours]);
}

export interface ListFilter {
  status: ParcelStatus | null;
  direction?: ParcelDirection | null;
  page: number;
  size: number;
  /** Issue 48: the page after this position (a decoded cursor) instead of `page`. */
  after?: ListPosition | null;
}

/**
 * A page of the list, and the position of its last parcel when more follow. Issue 48: neither way
 * walks the parcels a page skips. A page number is a deferred join: the ids come from an
 * index-only scan of a list index (LIMIT/OFFSET over index entries only, no sort: each filter has
 * its index, migration parcels/026), then only the page's rows are read. A cursor starts right
 * after its position on the same index, so page 10,000 costs what page 1 does. One row more than
 * the page is read to know whether another follows.
 */
export async function listVisible(db: Queryable, owner: Owner, filter: ListFilter, marks: MarkTuning = LIST_MARKS): Promise<ListPage> {
  const offset = filter.page * filter.size;
  if (!filter.status && !filter.direction && !filter.after && offset >= marks.fromOffset) {
    // The SPEC's deep page numbers: from the nearest mark, not a walk over every parcel skipped (list-marks.store.ts).
    const { rows, total } = await markedPage<ParcelRow & { position_at: string }>(db, owner, { offset, size: filter.size }, marks);
    return pageOfRows(rows, total, filter.size);
  }
  const params: unknown[] = [owner.organizationId, owner.mode];
  let where = "organization_id = $1 AND mode = $2 AND status <> 'PENDING'";
  if (filter.status) {
    params.push(filter.status);
    where += ` AND status = $${params.length}`;
  }
  const countWhere = where;
  if (filter.direction) {
    params.push(filter.direction);
    where += ` AND direction = $${params.length}`;
  }
  // Eight texts (with or without each filter, by page or by cursor), each its own named statement (lib/db/statement.ts).
  const variant = `${filter.status ? "_status" : ""}${filter.direction ? "_direction" : ""}`;
  // The total from the counters (migration parcels/005), not a count over the whole table; the
  // counters know no direction, so a page of one direction counts its rows (index parcels/011).
  const [{ total }] = await db.query<{ total: string | number }>(
    filter.direction
      ? named(`parcels_count${variant}`, `SELECT count(*) AS total FROM parcels.parcels WHERE ${where}`)
      : named(`parcels_count${variant}`, `SELECT coalesce(sum(n), 0) AS total FROM parcels.parcel_counts WHERE ${countWhere}`),
    params
  );
  const order = "ORDER BY created_at DESC, id DESC";
  const limit = `LIMIT $${params.length + 1}`;
  const page = filter.after
    ? named(
        `parcels_after${variant}`,
        `SELECT ${PARCEL_COLUMNS}, ${POSITION_AT_SQL} AS position_at FROM parcels.parcels
          WHERE ${where} AND (created_at, id) < ($${params.length + 2}::timestamptz, $${params.length + 3}::uuid) ${order} ${limit}`
      )
    : named(
        `parcels_list${variant}`,
        `SELECT ${PARCEL_COLUMNS}, ${POSITION_AT_SQL} AS position_at
           FROM (SELECT id FROM parcels.parcels WHERE ${where} ${order} ${limit} OFFSET $${params.length + 2}) AS page
           JOIN parcels.parcels USING (id) ${order}`
      );
  const rows = await db.query<ParcelRow & { position_at: string }>(
    page,
    filter.after ? [...params, filter.size + 1, filter.after.createdAt, filter.after.id] : [...params, filter.size + 1, offset]
  );
  return pageOfRows(rows, Number(total), filter.size);
}

export interface ListPage {
  records: ParcelRecord[];
  total: number;
  next: ListPosition | null;
}

/** A page from its rows (one more than the page when another follows). */
function pageOfRows(rows: (ParcelRow & { position_at: string })[], total: number, size: number): ListPage {
  const shown = rows.slice(0, size);
  const last = shown[shown.length - 1];
  const next = rows.length > size ? { createdAt: last.position_at, id: last.id } : null;
  return { records: shown.map(toParcel), total, next };
}

// --- labels -------------------------------------------------------------------------------------

/** What a label prints of a parcel, with its relay point's names, city and address (null for a point since removed). */
export interface LabelRecord {
  parcel: ParcelRecord;
  relay: { name: string; nameAr: string | null; city: string; cityAr: string | null; address: string | null; wilaya: string | null } | null;
}

interface RelayTextRow {
  relay_name: string | null;
  relay_name_ar: string | null;
  relay_city: string | null;
  relay_city_ar: string | null;
  relay_address: string | null;
  relay_wilaya: string | null;
}

/** The visible parcels among `ids` (of `owner` only, when given), each with its relay point, in one read. */
export async function labelRecords(db: Queryable, ids: readonly string[], owner: Owner | null): Promise<LabelRecord[]> {
  const rows = await db.query<ParcelRow & RelayTextRow>(
    `SELECT p.*, r.name AS relay_name, r.name_ar AS relay_name_ar, r.city AS relay_city, r.city_ar AS relay_city_ar,
            r.address AS relay_address, r.wilaya AS relay_wilaya
       FROM parcels.parcels p LEFT JOIN parcels.relay_points r ON r.code = p.destination_relay_code
      WHERE p.id = ANY($1::uuid[]) AND p.status <> 'PENDING'
        AND ($2::uuid IS NULL OR (p.organization_id = $2::uuid AND p.mode = $3::text))`,
    [ids, owner?.organizationId ?? null, owner?.mode ?? null]
  );
  return rows.map(row => ({
    parcel: toParcel(row),
    relay:
      row.relay_name === null
        ? null
        : {
            name: row.relay_name,
            nameAr: row.relay_name_ar,
            city: row.relay_city ?? "",
            cityAr: row.relay_city_ar,
            address: row.relay_address,
            wilaya: row.relay_wilaya
          }
  }));
}

export async function pendingOlderThan(db: Queryable, seconds: number, limit: number): Promise<ParcelRecord[]> {
  const rows = await db.query<ParcelRow>(
    `SELECT * FROM parcels.parcels WHERE status = 'PENDING' AND created_at < now() - make_interval(secs => $1::int)
        AND (compensating_since IS NULL OR compensating_since < now() - make_interval(secs => $1::int))
      ORDER BY created_at LIMIT $2`,
    [seconds, limit]
  );
  return rows.map(toParcel);
}

export async function refundsPending(db: Queryable, limit: number): Promise<ParcelRecord[]> {
  return (await db.query<ParcelRow>("SELECT * FROM parcels.parcels WHERE refund_pending ORDER BY updated_at LIMIT $1", [limit])).map(
    toParcel
  );
}

export async function clearRefundPending(db: Queryable, id: string): Promise<void> {
  await db.query("UPDATE parcels.parcels SET refund_pending = false WHERE id = $1", [id]);
}

// --- outbox ------------------------------------------------------------------------------------

export interface OutboxRecord {
  id: string;
  parcelId: string;
  event: ParcelEvent;
}

/** One relay at a time across replicas: a lease row, renewed by its holder, taken over once expired. */
export async function holdRelayLease(db: Queryable, holder: string, seconds: number): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO parcels.relay_lease (name, holder, expires_at) VALUES ('outbox', $1, now() + make_interval(secs => $2::int))
     ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
       WHERE parcels.relay_lease.holder = EXCLUDED.holder OR parcels.relay_lease.expires_at < now()
     RETURNING holder`,
    [holder, seconds]
  );
  return rows.length === 1;
}

export async function releaseRelayLease(db: Queryable, holder: string): Promise<void> {
  await db.query("DELETE FROM parcels.relay_lease WHERE name = 'outbox' AND holder = $1", [holder]);
}

// Above the cursor, and never an event whose parcel still has one waiting at or below it: that older
// one committed late and leaves first, at the next full read (decision 0041).
const UNDISPATCHED = named(
  "parcels_outbox_undispatched",
  `SELECT o.id, o.parcel_id, o.payload FROM parcels.outbox o
    WHERE o.dispatched_at IS NULL AND o.id > $2
      AND NOT EXISTS (SELECT 1 FROM parcels.outbox older
                       WHERE older.parcel_id = o.parcel_id AND older.dispatched_at IS NULL AND older.id <= $2)
    ORDER BY o.id LIMIT $1`
);

/**
 * The oldest events not yet dispatched, with an id above `afterId` (outbox-cursor.ts), leaving out
 * the events of a parcel that has one waiting at or below it; "0" reads from the first.
 */
export async function undispatchedEvents(db: Queryable, limit: number, afterId = "0"): Promise<OutboxRecord[]> {
  const rows = await db.query<{ id: string; parcel_id: string; payload: ParcelEvent | string }>(UNDISPATCHED, [limit, afterId]);
  // jsonb arrives parsed from pg, as text from some drivers.
  return rows.map(r => ({
    id: r.id,
    parcelId: r.parcel_id,
    event: typeof r.payload === "string" ? (JSON.parse(r.payload) as ParcelEvent) : r.payload
  }));
}

const MARK_DISPATCHED = named(
  "parcels_outbox_mark_dispatched",
  "UPDATE parcels.outbox SET dispatched_at = now() WHERE id = ANY($1::bigint[])"
);

/** One statement for a whole hand-off (prepared: it runs once per create group). */
export async function markDispatched(db: Queryable, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(MARK_DISPATCHED, [ids]);
}

/** Dispatched rows older than the retention, a bounded batch at a time; answers how many went. */
export async function purgeDispatched(db: Queryable, days: number): Promise<number> {
  const purged = await db.query(
    `DELETE FROM parcels.outbox WHERE id IN (
       SELECT id FROM parcels.outbox WHERE dispatched_at < now() - make_interval(days => $1::int) LIMIT 1000)
     RETURNING id`,
    [days]
  );
  return purged.length;
}

// --- history and public tracking ----------------------------------------------------------------

interface HistoryRow {
  from_status: string | null;
  to_status: string;
  reason: string | null;
  actor: string;
  created_at: Date;
}

/** A parcel's status changes, oldest first (the id orders changes made within one instant). */
export async function parcelHistory(db: Queryable, parcelId: string): Promise<HistoryRecord[]> {
  const rows = await db.query<HistoryRow>(
    "SELECT from_status, to_status, reason, actor, created_at FROM parcels.status_history WHERE parcel_id = $1 ORDER BY id",
    [parcelId]
  );
  // Every parcel has its creation's row until its history is compacted (history-compaction.store.ts):
  // no row means compacted (or no parcel), the one case that reads the parcel's array.
  if (rows.length === 0) return compactedHistory(db, parcelId);
  return rows.map(r => ({ fromStatus: r.from_status, toStatus: r.to_status, reason: r.reason, actor: r.actor, createdAt: r.created_at }));
}

/** A compacted history: [from, to, actor, at] each, oldest first; the notes were erased before. */
async function compactedHistory(db: Queryable, parcelId: string): Promise<HistoryRecord[]> {
  const [row] = await db.query<{ history_compact: Array<[string | null, string, string, string]> | null }>(
    "SELECT history_compact FROM parcels.parcels WHERE id = $1",
    [parcelId]
  );
  return (row?.history_compact ?? []).map(([fromStatus, toStatus, actor, at]) => ({
    fromStatus,
    toStatus,
    reason: null,
    actor,
    createdAt: new Date(at)
  }));
}

/** What public tracking may read of a parcel, by its exact (normalised) number; null when there is no visible parcel. */
export async function publicTrackingSource(
  db: Queryable,
  trackingNumber: string,
  options: { journey?: boolean } = {}
): Promise<PublicTrackingSource | null> {
  const [parcel] = await db.query<
    Pick<ParcelRow, "id" | "tracking_number" | "status" | "mode" | "cod_amount_centimes" | "destination_relay_code" | "pickup_deadline"> & {
      return_code_sent_at: Date | null;
    }
  >(
    `SELECT id, tracking_number, status, mode, cod_amount_centimes, destination_relay_code, pickup_deadline,
            (SELECT r.created_at FROM parcels.returns r
              WHERE r.parcel_id = p.id AND r.status IN ('AWAITING_DROP_OFF', 'DROPPED_OFF')) AS return_code_sent_at
       FROM parcels.parcels p
      WHERE tracking_number = $1 AND status <> 'PENDING'`,
    [trackingNumber]
  );
  if (!parcel) return null;
  const [relay, history, journey] = await Promise.all([
    findRelayPoint(db, parcel.destination_relay_code),
    parcelHistory(db, parcel.id),
    // Decision 0058: the page's middle-mile steps, one indexed read, and only for the page.
    options.journey ? stepsOf(db, parcel.id) : undefined
  ]);
  if (!relay) return null;
  const cod = centimes(parcel.cod_amount_centimes);
  return {
    trackingNumber: parcel.tracking_number,
    status: parcel.status,
    mode: parcel.mode,
    codAmountDzd: cod === null ? null : toDzd(cod),
    pickupDeadline: parcel.pickup_deadline,
    returnCodeSentAt: parcel.return_code_sent_at,
    history: history.map(h => ({ toStatus: h.toStatus, createdAt: h.createdAt })),
    journey: journey?.map(j => ({ kind: j.kind, wilaya: j.wilaya, occurredAt: j.occurredAt })),
    relay
  };
}

// --- relay points: services/parcels/relay-points.store.ts ----------------------------------------

export { findRelayPoint, listRelayPoints, searchRelayPoints, seedRelayPoints, upsertRelayPoint } from "./relay-points.store";
