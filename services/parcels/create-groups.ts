import type { Database, Queryable } from "../../lib/db/database";
import { GroupCommit, GroupCommitOptions, ItemOutcome } from "../../lib/group-commit";
import { eventTypeFor } from "../../lib/parcel-status";
import * as groupStore from "./create-groups.store";
import type * as store from "./parcels.store";
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
    insertPending: new GroupCommit(items => groupStore.insertPendingGroup(db(), items), { ...options, name: "creates" }),
    finishCreation: new GroupCommit(items => db().transaction(tx => finishCreationGroup(tx, items)), { ...options, name: "creates" })
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
  const updated = await groupStore.markCreated(tx, ids);
  const byId = new Map(updated.map(p => [p.id, p]));
  const others = ids.filter(id => !byId.has(id));
  if (others.length > 0) for (const p of await groupStore.parcelsByIds(tx, others)) byId.set(p.id, p);
  if (updated.length > 0) {
    const actorOf = new Map(items.map(i => [i.parcelId, i.actor]));
    await groupStore.recordCreations(
      tx,
      updated.map(p => ({ parcelId: p.id, actor: actorOf.get(p.id)! }))
    );
    await groupStore.appendEvents(
      tx,
      updated.map(p => eventOf(p, { type: eventTypeFor("CREATED"), sequence: 1, occurredAt: p.updatedAt, reason: null }))
    );
  }
  return items.map(i => ({ ok: true, value: byId.get(i.parcelId) ?? null }));
}
