import { initialCodStatus } from "../../lib/cod";
import type { Queryable } from "../../lib/db/database";
import { named } from "../../lib/db/statement";
import { DEFAULT_LANG } from "../../lib/languages";
import type { ParcelEvent } from "../../lib/events";
import type { ItemOutcome } from "../../lib/group-commit";
import { PARCEL_COLUMNS } from "./parcel-columns";
import * as store from "./parcels.store";

// The create group's statements, prepared once per connection (lib/db/statement.ts, decision 0037).
const INSERT_PENDING = named(
  "parcels_insert_pending_group",
  `INSERT INTO parcels.parcels (id, organization_id, mode, tracking_number, status, destination_relay_code,
     recipient_name_enc, recipient_phone_enc, weight_g, length_cm, width_cm, height_cm,
     declared_value_centimes, cod_amount_centimes, price_centimes, idempotency_key, request_fingerprint, cod_status,
     recipient_phone_mobile, recipient_language)
   SELECT id, organization_id, mode, tracking_number, 'PENDING', destination_relay_code,
     recipient_name_enc, recipient_phone_enc, weight_g, length_cm, width_cm, height_cm,
     declared_value_centimes, cod_amount_centimes, price_centimes, idempotency_key, request_fingerprint, cod_status,
     recipient_phone_mobile, recipient_language
     FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[],
                 $10::int[], $11::int[], $12::bigint[], $13::bigint[], $14::bigint[], $15::text[], $16::text[], $17::text[],
                 $18::boolean[], $19::text[])
       AS t(id, organization_id, mode, tracking_number, destination_relay_code, recipient_name_enc, recipient_phone_enc,
            weight_g, length_cm, width_cm, height_cm, declared_value_centimes, cod_amount_centimes, price_centimes,
            idempotency_key, request_fingerprint, cod_status, recipient_phone_mobile, recipient_language)
   ON CONFLICT DO NOTHING
   RETURNING id, created_at, updated_at`
);
/**
 * PENDING → CREATED, the history lines and the outbox rows of a group in ONE statement (decision
 * 0037, addendum 2): a statement is atomic on its own, so no BEGIN and COMMIT around three
 * statements. Only rows still PENDING are updated (and locked by the update); the history lines and
 * events of the others are dropped by the joins. The time is the caller's ($2), so that the events,
 * built before the statement, carry the very `updatedAt` stored.
 */
const FINISH_GROUP = named(
  "parcels_finish_creation_group",
  `WITH done AS (
     UPDATE parcels.parcels SET status = 'CREATED', updated_at = $2
      WHERE id = ANY($1::uuid[]) AND status = 'PENDING' RETURNING id
   ), history AS (
     INSERT INTO parcels.status_history (parcel_id, from_status, to_status, actor, created_at)
     SELECT t.id, 'PENDING', 'CREATED', t.actor, $2
       FROM unnest($1::uuid[], $3::text[]) WITH ORDINALITY AS t(id, actor, n) JOIN done ON done.id = t.id
      ORDER BY t.n
   ), events AS (
     INSERT INTO parcels.outbox (event_id, parcel_id, organization_id, mode, type, payload)
     SELECT e.event_id, e.parcel_id, e.organization_id, e.mode, e.type, e.payload
       FROM unnest($4::uuid[], $1::uuid[], $5::uuid[], $6::text[], $7::text[], $8::jsonb[])
              WITH ORDINALITY AS e(event_id, parcel_id, organization_id, mode, type, payload, n)
       JOIN done ON done.id = e.parcel_id
      ORDER BY e.n
   )
   SELECT id FROM done`
);
const DELETE_PENDING_GROUP = named(
  "parcels_delete_pending_group",
  "DELETE FROM parcels.parcels WHERE id = ANY($1::uuid[]) AND status = 'PENDING'"
);

/** The SQL of the create path's group commits (create-groups.ts, docs/decisions/0025): each statement for a whole group. */

/** One statement for the group: rows whose unique key is taken are skipped (null), the others inserted. */
export async function insertPendingGroup(
  db: Queryable,
  items: readonly store.NewParcel[]
): Promise<ItemOutcome<store.ParcelRecord | null>[]> {
  const column = <K extends keyof store.NewParcel>(key: K) => items.map(p => p[key]);
  const rows = await db.query<{ id: string; created_at: Date; updated_at: Date }>(INSERT_PENDING, [
    column("id"),
    column("organizationId"),
    column("mode"),
    column("trackingNumber"),
    column("destinationRelayCode"),
    column("recipientNameEnc"),
    column("recipientPhoneEnc"),
    column("weightG"),
    column("lengthCm"),
    column("widthCm"),
    column("heightCm"),
    column("declaredValueCentimes"),
    column("codAmountCentimes"),
    column("priceCentimes"),
    column("idempotencyKey"),
    column("requestFingerprint"),
    items.map(p => initialCodStatus(p.codAmountCentimes)),
    items.map(p => p.recipientPhoneMobile ?? null),
    items.map(p => p.recipientLanguage ?? DEFAULT_LANG)
  ]);
  const inserted = new Map(rows.map(r => [r.id, r]));
  return items.map(p => {
    const row = inserted.get(p.id);
    return { ok: true, value: row ? pendingRecord(p, row.created_at, row.updated_at) : null };
  });
}

/** The record of a PENDING row just inserted, as `SELECT *` would read it. */
function pendingRecord(p: store.NewParcel, createdAt: Date, updatedAt: Date): store.ParcelRecord {
  return {
    ...p,
    status: "PENDING",
    refundPending: false,
    codStatus: initialCodStatus(p.codAmountCentimes),
    codCashAt: null,
    pickupPinEnc: null,
    pickupPinFailures: 0,
    pickupDeadline: null,
    pickupRemindedFor: null,
    pickupExtendedDays: null,
    returnFeeCentimes: null,
    returnFeePending: false,
    direction: "OUTBOUND",
    returnOf: null,
    originRelayCode: null,
    recipientPhoneMobile: p.recipientPhoneMobile ?? null,
    recipientLanguage: p.recipientLanguage ?? DEFAULT_LANG,
    createdAt,
    updatedAt,
    custody: null
  };
}

/**
 * Finishes a group (FINISH_GROUP): each row's event is built beforehand from its PENDING record as
 * it will be once CREATED at `at`. Answers the ids actually finished: a row no longer PENDING (the
 * sweeper got there first) or gone is not among them.
 */
export async function finishGroup(
  db: Queryable,
  rows: readonly { parcel: store.ParcelRecord; actor: string; event: ParcelEvent }[],
  at: Date
): Promise<Set<string>> {
  const done = await db.query<{ id: string }>(FINISH_GROUP, [
    rows.map(r => r.parcel.id),
    at,
    rows.map(r => r.actor),
    rows.map(r => r.event.id),
    rows.map(r => r.event.organizationId),
    rows.map(r => r.event.mode),
    rows.map(r => r.event.type),
    rows.map(r => JSON.stringify(r.event))
  ]);
  return new Set(done.map(r => r.id));
}

export async function parcelsByIds(tx: Queryable, ids: readonly string[]): Promise<store.ParcelRecord[]> {
  return (await tx.query<store.ParcelRow>(`SELECT ${PARCEL_COLUMNS} FROM parcels.parcels WHERE id = ANY($1::uuid[])`, [ids])).map(
    store.toParcel
  );
}

/** The PENDING rows of creates the wallet refused, in one statement; a row finished meanwhile stays. */
export async function deletePendingGroup(db: Queryable, ids: readonly string[]): Promise<void> {
  await db.query(DELETE_PENDING_GROUP, [ids]);
}
