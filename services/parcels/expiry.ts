import type { Database } from "../../lib/db/database";
import { isOnShelf, PICKUP_EXPIRED } from "./holding-period";
import * as holding from "./holding.store";
import * as store from "./parcels.store";
import { applyStatusChange } from "./status-change";

const BATCH = 100;

/**
 * Sends back the parcels not collected in time: RETURN_PENDING with reason PICKUP_EXPIRED (COD
 * NOT_COLLECTED, the return fee fixed, the status webhook and the recipient's SMS through the
 * outbox). Each parcel is decided under its row lock, looking again at its status and deadline:
 * a hand-over, an extension or another instance's pass that got there first wins, and the parcel
 * is left alone. So a parcel expires once, whoever runs the pass and however often.
 */
export async function expireOverdue(db: Database): Promise<string[]> {
  const expired: string[] = [];
  for (const id of await holding.overdueParcelIds(db, BATCH)) {
    const returned = await db.transaction(async tx => {
      const row = await store.lockParcel(tx, id);
      if (!row || !isOnShelf(row.status) || row.pickupDeadline === null) return null;
      const [{ due }] = await tx.query<{ due: boolean }>("SELECT $1::timestamptz <= now() AS due", [row.pickupDeadline]);
      if (!due) return null;
      return (await applyStatusChange(tx, row, { to: "RETURN_PENDING", reason: PICKUP_EXPIRED, actor: "holding-period" })).row;
    });
    if (returned) expired.push(returned.id);
  }
  return expired;
}
