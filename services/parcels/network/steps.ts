import type { Database } from "../../../lib/db/database";
import { MISSORT_EVENT_TYPE, type MissortEventData, parcelOf } from "../../../lib/events";
import type { ParcelStatus } from "../../../lib/parcel-status";
import type { NetworkStepRequest } from "../parcels.contract";
import * as parcels from "../parcels.store";
import { appendEvent, eventOf } from "../status-change";
import { insertStep } from "./steps.store";

/** The reason line of parcel.missorted, in the event and for a reader of the events feed. */
export function missortReason(missort: MissortEventData["missort"]): string {
  const where = missort.reason === "WRONG_RELAY" ? "at a relay point it is not addressed to" : "at a hub off its route";
  return `mis-sorted ${where}; rerouted to ${missort.rerouteToRelayCode}`;
}

/**
 * One step under the parcel's lock (decision 0058): recorded once by its id; a `missorted` step
 * writes parcel.missorted to the outbox in the same transaction, its status unchanged. A parcel
 * that does not exist (or is still PENDING) records nothing.
 */
export async function recordNetworkStep(db: Database, step: NetworkStepRequest): Promise<{ stepId: string; recorded: boolean }> {
  return db.transaction(async tx => {
    const parcel = await parcels.lockParcel(tx, step.parcelId);
    if (!parcel || parcel.status === "PENDING") return { stepId: step.stepId, recorded: false };
    const occurredAt = new Date(step.occurredAt);
    const recorded = await insertStep(tx, { id: step.stepId, parcelId: parcel.id, kind: step.kind, wilaya: step.wilaya, occurredAt });
    if (recorded && step.kind === "missorted" && step.missort) {
      const event = eventOf(parcel, {
        type: MISSORT_EVENT_TYPE,
        sequence: await parcels.eventCount(tx, parcel.id),
        occurredAt,
        reason: missortReason(step.missort)
      });
      const data: MissortEventData = {
        previousStatus: parcel.status as ParcelStatus,
        parcel: parcelOf(event)!,
        missort: step.missort
      };
      event.data = data;
      await appendEvent(tx, event);
    }
    return { stepId: step.stepId, recorded };
  });
}
