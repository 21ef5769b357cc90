import { initialCodStatus } from "../../lib/cod";
import type { Queryable } from "../../lib/db/database";
import { named } from "../../lib/db/statement";
import { DEFAULT_LANG } from "../../lib/languages";
import { type ParcelEvent, subjectIdOf } from "../../lib/events";
import type { ItemOutcome } from "../../lib/group-commit";
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
const MARK_CREATED = named(
  "parcels_mark_created_group",
  `UPDATE parcels.parcels SET status = 'CREATED', updated_at = now()
    WHERE id = ANY($1::uuid[]) AND status = 'PENDING' RETURNING ${store.PARCEL_COLUMNS}`
);
const RECORD_CREATIONS = named(
  "parcels_record_creations_group",
  `INSERT INTO parcels.status_history (parcel_id, from_status, to_status, actor)
   SELECT id, 'PENDING', 'CREATED', actor FROM unnest($1::uuid[], $2::text[]) AS t(id, actor)`
);
const APPEND_EVENTS = named(
  "parcels_append_events_group",
  `INSERT INTO parcels.outbox (event_id, parcel_id, organization_id, mode, type, payload)
   SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::jsonb[])`
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
    updatedAt
  };
}

/** PENDING → CREATED for the given rows still PENDING (locked by the update); the others are left as they are. */
export async function markCreated(tx: Queryable, ids: readonly string[]): Promise<store.ParcelRecord[]> {
  const rows = await tx.query<store.ParcelRow>(MARK_CREATED, [ids]);
  return rows.map(store.toParcel);
}

export async function parcelsByIds(tx: Queryable, ids: readonly string[]): Promise<store.ParcelRecord[]> {
  return (await tx.query<store.ParcelRow>(`SELECT ${store.PARCEL_COLUMNS} FROM parcels.parcels WHERE id = ANY($1::uuid[])`, [ids])).map(
    store.toParcel
  );
}

/** The history lines of parcels just created, one statement for all. */
export async function recordCreations(tx: Queryable, lines: readonly { parcelId: string; actor: string }[]): Promise<void> {
  await tx.query(RECORD_CREATIONS, [lines.map(l => l.parcelId), lines.map(l => l.actor)]);
}

/** Outbox rows of several events, in one statement (status-change.ts appendEvent for one). */
export async function appendEvents(tx: Queryable, events: readonly ParcelEvent[]): Promise<void> {
  await tx.query(APPEND_EVENTS, [
    events.map(e => e.id),
    events.map(e => subjectIdOf(e)),
    events.map(e => e.organizationId),
    events.map(e => e.mode),
    events.map(e => e.type),
    events.map(e => JSON.stringify(e))
  ]);
}

/** The PENDING rows of creates the wallet refused, in one statement; a row finished meanwhile stays. */
export async function deletePendingGroup(db: Queryable, ids: readonly string[]): Promise<void> {
  await db.query(DELETE_PENDING_GROUP, [ids]);
}
