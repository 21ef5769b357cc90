import { randomUUID } from "node:crypto";
import type { Database, Queryable } from "../../../lib/db/database";
import { InvestigationEventData, parcelOf } from "../../../lib/events";
import type { ParcelStatus } from "../../../lib/parcel-status";
import * as store from "../parcels.store";
import { appendEvent, eventOf } from "../status-change";
import * as custody from "./custody.store";

/**
 * Investigations (issue 44 D): the network looks for a parcel. Each opening and closing is one
 * transaction under the parcel's row lock with its webhook's outbox row, like every event of the
 * parcel; the unique index on open investigations makes a second opening a no-op, so the pass
 * may run on every instance at once, and again.
 */

type InvestigationEventType = "parcel.investigation_opened" | "parcel.investigation_closed";

function dataOf(inv: custody.InvestigationRecord): InvestigationEventData["investigation"] {
  return {
    id: inv.id,
    reason: inv.reason,
    lastHolder: inv.holder && inv.holderSince ? { holder: inv.holder, since: inv.holderSince.toISOString(), name: inv.holderName } : null,
    openedAt: inv.openedAt.toISOString(),
    outcome: inv.outcome
  };
}

async function recordEvent(
  tx: Queryable,
  parcel: store.ParcelRecord,
  inv: custody.InvestigationRecord,
  type: InvestigationEventType,
  reason: string
): Promise<void> {
  const kind = type === "parcel.investigation_opened" ? "opened" : "closed";
  const { sequence, occurredAt } = await custody.recordInvestigationHistory(tx, { investigationId: inv.id, parcelId: parcel.id, kind });
  const event = eventOf(parcel, { type, sequence, occurredAt, reason });
  const data: InvestigationEventData = {
    previousStatus: parcel.status as ParcelStatus,
    parcel: parcelOf(event)!,
    investigation: dataOf(inv)
  };
  event.data = data;
  await appendEvent(tx, event);
}

/**
 * A parcel silent since before `before` in a courier's or a hub's hands: opened, with its last
 * holder, unless it moved or was scanned meanwhile (read again under the lock). True when opened.
 */
export async function openNoScanInvestigation(db: Database, parcelId: string, before: Date): Promise<boolean> {
  return db.transaction(async tx => {
    const parcel = await store.lockParcel(tx, parcelId);
    const held = parcel?.custody;
    if (!parcel || !held || !["PICKED_UP", "IN_TRANSIT"].includes(parcel.status) || held.since >= before) return false;
    if (!["courier", "hub"].includes(held.holder)) return false;
    const inv = await custody.insertInvestigation(tx, {
      id: randomUUID(),
      parcelId,
      owner: parcel,
      reason: "NO_SCAN",
      holder: held.holder,
      holderName: held.name,
      holderSince: held.since,
      disputeId: null
    });
    if (!inv) return false;
    await recordEvent(tx, parcel, inv, "parcel.investigation_opened", `NO_SCAN since ${held.since.toISOString()}`);
    return true;
  });
}

/** A recipient's "not me" on an offline hand-over (issue 43): into the same queue, once per parcel at a time. */
export async function openDisputeInvestigation(db: Database, dispute: { id: string; parcelId: string }): Promise<boolean> {
  return db.transaction(async tx => {
    const parcel = await store.lockParcel(tx, dispute.parcelId);
    if (!parcel || parcel.status === "PENDING") return false;
    const inv = await custody.insertInvestigation(tx, {
      id: randomUUID(),
      parcelId: parcel.id,
      owner: parcel,
      reason: "HANDOVER_DISPUTED",
      holder: parcel.custody?.holder ?? null,
      holderName: parcel.custody?.name ?? null,
      holderSince: parcel.custody?.since ?? null,
      disputeId: dispute.id
    });
    if (!inv) return false;
    await recordEvent(tx, parcel, inv, "parcel.investigation_opened", "HANDOVER_DISPUTED");
    return true;
  });
}

/**
 * Closes the parcel's open NO_SCAN investigation, in the caller's transaction (parcel locked):
 * FOUND and DISMISSED with parcel.investigation_closed; LOST silently, parcel.lost says it.
 */
export async function closeNoScanInvestigation(
  tx: Queryable,
  parcel: store.ParcelRecord,
  outcome: custody.InvestigationOutcome
): Promise<boolean> {
  const open = await custody.openInvestigationOf(tx, parcel.id);
  if (!open || open.reason !== "NO_SCAN") return false;
  const closed = await custody.closeInvestigation(tx, open.id, outcome);
  if (!closed) return false;
  if (outcome !== "LOST") await recordEvent(tx, parcel, closed, "parcel.investigation_closed", outcome);
  return true;
}

/** A NO_SCAN investigation whose parcel arrived without a custody write (its relay's arrival): DISMISSED. */
export async function dismissStrayInvestigation(db: Database, parcelId: string): Promise<boolean> {
  return db.transaction(async tx => {
    const parcel = await store.lockParcel(tx, parcelId);
    if (!parcel || ["PICKED_UP", "IN_TRANSIT"].includes(parcel.status)) return false;
    return closeNoScanInvestigation(tx, parcel, parcel.status === "LOST" ? "LOST" : "DISMISSED");
  });
}

/**
 * A hand-off logistics recorded (parcels.recordCustody): the holder is written unless a later one
 * is, and an open NO_SCAN investigation closes (FOUND): the parcel is where the scan says.
 */
export async function recordCustody(db: Database, parcelId: string, write: custody.CustodyWrite): Promise<{ recorded: boolean }> {
  return db.transaction(async tx => {
    const parcel = await store.lockParcel(tx, parcelId);
    if (!parcel || parcel.status === "PENDING") return { recorded: false };
    const recorded = await custody.writeCustody(tx, parcelId, write);
    if (recorded) {
      const after = (await store.lockParcel(tx, parcelId))!;
      await closeNoScanInvestigation(tx, after, "FOUND");
    }
    return { recorded };
  });
}

/**
 * An operator closes an investigation (a dispute settled, a parcel found without a scan):
 * DISMISSED with parcel.investigation_closed. Closing a closed one answers it as it is, so a
 * repeat (or two at once, under the parcel's lock) closes it once. A NO_SCAN one of a parcel still
 * silent opens again at the next pass: only a scan ends the silence. Null: no such investigation.
 */
export async function closeByOperator(db: Database, id: string): Promise<custody.InvestigationRecord | null> {
  const found = await custody.findInvestigation(db, id);
  if (!found) return null;
  return db.transaction(async tx => {
    const parcel = (await store.lockParcel(tx, found.parcelId))!;
    const closed = await custody.closeInvestigation(tx, id, "DISMISSED");
    if (!closed) return custody.findInvestigation(tx, id);
    await recordEvent(tx, parcel, closed, "parcel.investigation_closed", "DISMISSED by an operator");
    return closed;
  });
}
