import type { Context } from "moleculer";
import { call } from "../../../lib/contract";
import type { Database } from "../../../lib/db/database";
import * as store from "./network.store";

/**
 * After a hand-off is recorded here, parcels is told who holds the parcel now (decision 0056): the
 * partner GET then shows it without asking this service, and the loss pass counts silence from it.
 * Only what a merchant may see goes: a courier's first name, a hub's code and wilaya. Idempotent
 * (the same hand-off again changes nothing), so a scan retried with its key repeats it harmlessly.
 */
export async function tellCustody(
  ctx: Context,
  db: Database,
  parcelId: string,
  holder: { kind: "courier" | "hub"; id: string | null },
  at: Date
): Promise<void> {
  let name: string | null = null;
  let wilaya: string | null = null;
  if (holder.kind === "courier" && holder.id) name = (await store.findCourier(db, holder.id))?.firstName ?? null;
  if (holder.kind === "hub" && holder.id) {
    const hub = await store.findHub(db, holder.id);
    name = hub?.code ?? null;
    wilaya = hub?.wilaya ?? null;
  }
  await call(ctx, "parcels.recordCustody", { parcelId, holder: holder.kind, since: at.toISOString(), name, wilaya });
}
