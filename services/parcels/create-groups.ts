import { initialCodStatus } from "../../lib/cod";
import type { Database, Queryable } from "../../lib/db/database";
import type { ParcelEvent } from "../../lib/events";
import { GroupCommit, GroupCommitOptions, ItemOutcome } from "../../lib/group-commit";
import { eventTypeFor } from "../../lib/parcel-status";
import * as store from "./parcels.store";
import { eventOf } from "./status-change";

/**
 * The create path's two writes, each committed for a group of creates at once (lib/group-commit.ts,
 * docs/decisions/0025): the PENDING rows in one multi-row insert, and PENDING → CREATED with its
 * history line and its outbox row, for the whole group in one transaction.
 */
export interface CreateGroups {
  /** The PENDING row, or null when a unique key is taken (tracking number or Idempotency-Key): the caller finds out which. */
  insertPending: GroupCommit<store.NewParcel, store.ParcelRecord | null>;
  /** PENDING → CREATED + event; the row as it is if someone else finished it; null if it is gone (discarded). */
  finishCreation: GroupCommit<{ parcelId: string; actor: string }, store.ParcelRecord | null>;
}

export function createGroups(db: () => Database, options: Omit<GroupCommitOptions, "name">): CreateGroups {
  return {
    insertPending: new GroupCommit(items => insertPendingGroup(db(), items), { ...options, name: "creates" }),
    finishCreation: new GroupCommit(items => db().transaction(tx => finishCreationGroup(tx, items)), { ...options, name: "creates" })
  };
}

const ok = <O>(value: O): ItemOutcome<O> => ({ ok: true, value });

/** One statement for the group: rows whose unique key is taken are skipped (null), the others inserted. */
export async function insertPendingGroup(db: Queryable, items: readonly store.NewParcel[]): Promise<ItemOutcome<store.ParcelRecord | null>[]> {
  const column = <K extends keyof store.NewParcel>(key: K) => items.map(p => p[key]);
  const rows = await db.query<{ id: string; created_at: Date; updated_at: Date }>(
    `INSERT INTO parcels.parcels (id, organization_id, mode, tracking_number, status, destination_relay_code,
       recipient_name_enc, recipient_phone_enc, weight_g, length_cm, width_cm, height_cm,
       declared_value_centimes, cod_amount_centimes, price_centimes, idempotency_key, request_fingerprint, cod_status)
     SELECT id, organization_id, mode, tracking_number, 'PENDING', destination_relay_code,
       recipient_name_enc, recipient_phone_enc, weight_g, length_cm, width_cm, height_cm,
       declared_value_centimes, cod_amount_centimes, price_centimes, idempotency_key, request_fingerprint, cod_status
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[],
                   $10::int[], $11::int[], $12::bigint[], $13::bigint[], $14::bigint[], $15::text[], $16::text[], $17::text[])
         AS t(id, organization_id, mode, tracking_number, destination_relay_code, recipient_name_enc, recipient_phone_enc,
              weight_g, length_cm, width_cm, height_cm, declared_value_centimes, cod_amount_centimes, price_centimes,
              idempotency_key, request_fingerprint, cod_status)
     ON CONFLICT DO NOTHING
     RETURNING id, created_at, updated_at`,
    [
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
      items.map(p => initialCodStatus(p.codAmountCentimes))
    ]
  );
  const inserted = new Map(rows.map(r => [r.id, r]));
  return items.map(p => {
    const row = inserted.get(p.id);
    return ok(row ? pendingRecord(p, row.created_at, row.updated_at) : null);
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
    createdAt,
    updatedAt
  };
}

/**
 * PENDING → CREATED for a group, in the caller's transaction: one update, one multi-row insert of
 * history lines and one of outbox rows, whatever the group's size. A PENDING row has no history,
 * so its creation is its event number 1 (no count needed). Rows that are no longer PENDING (the
 * sweeper got there first) are answered as they are; rows that are gone, with null.
 */
export async function finishCreationGroup(
  tx: Queryable,
  items: readonly { parcelId: string; actor: string }[]
): Promise<ItemOutcome<store.ParcelRecord | null>[]> {
  const ids = items.map(i => i.parcelId);
  const updated = (
    await tx.query<store.ParcelRow>(
      `UPDATE parcels.parcels SET status = 'CREATED', updated_at = now()
        WHERE id = ANY($1::uuid[]) AND status = 'PENDING' RETURNING *`,
      [ids]
    )
  ).map(store.toParcel);
  const byId = new Map(updated.map(p => [p.id, p]));
  const others = ids.filter(id => !byId.has(id));
  if (others.length > 0) {
    const rows = await tx.query<store.ParcelRow>("SELECT * FROM parcels.parcels WHERE id = ANY($1::uuid[])", [others]);
    for (const row of rows) byId.set(row.id, store.toParcel(row));
  }
  if (updated.length > 0) {
    const actorOf = new Map(items.map(i => [i.parcelId, i.actor]));
    await tx.query(
      `INSERT INTO parcels.status_history (parcel_id, from_status, to_status, actor)
       SELECT id, 'PENDING', 'CREATED', actor FROM unnest($1::uuid[], $2::text[]) AS t(id, actor)`,
      [updated.map(p => p.id), updated.map(p => actorOf.get(p.id)!)]
    );
    await appendEvents(
      tx,
      updated.map(p => eventOf(p, { type: eventTypeFor("CREATED"), sequence: 1, occurredAt: p.updatedAt, reason: null }))
    );
  }
  return items.map(i => ok(byId.get(i.parcelId) ?? null));
}

/** Outbox rows of several events, in one statement (status-change.ts appendEvent for one). */
async function appendEvents(tx: Queryable, events: readonly ParcelEvent[]): Promise<void> {
  await tx.query(
    `INSERT INTO parcels.outbox (event_id, parcel_id, organization_id, mode, type, payload)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::jsonb[])`,
    [
      events.map(e => e.id),
      events.map(e => e.data.parcel.id),
      events.map(e => e.organizationId),
      events.map(e => e.mode),
      events.map(e => e.type),
      events.map(e => JSON.stringify(e))
    ]
  );
}
