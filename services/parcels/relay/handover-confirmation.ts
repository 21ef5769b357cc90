import { createHash } from "node:crypto";
import type { Logger } from "moleculer";
import { call, Caller } from "../../../lib/contract";
import type { Database } from "../../../lib/db/database";
import * as store from "./offline-handovers.store";

/**
 * Each hand-over a phone recorded offline against the PIN it checked is confirmed to the recipient
 * by SMS once it reaches us, with the link to say "not me" (issue 43, decision 0047): the one
 * witness a cracked PIN cannot silence. Asked of notifications right after the hand-over commits,
 * and again by the holding pass for any still unconfirmed (notifications away, a crash between),
 * under one id per parcel, so that the recipient gets it once.
 */

export interface ConfirmationDeps {
  db: Database;
  logger: Logger;
  caller: Caller;
}

/** The SMS's id, the same on every try: a UUID drawn from the parcel's. */
export function confirmationId(parcelId: string): string {
  const hex = createHash("sha256").update(`handover-confirmation:${parcelId}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Asks notifications for the confirmations still owed (one parcel's, or the oldest); answers how many were stored. */
export async function confirmOfflineHandovers(
  deps: ConfirmationDeps,
  options: { parcelId?: string; limit?: number } = {}
): Promise<number> {
  let confirmed = 0;
  for (const handover of await store.unconfirmedHandovers(deps.db, { parcelId: options.parcelId, limit: options.limit ?? 50 })) {
    try {
      await call(deps.caller, "notifications.sendHandoverConfirmation", {
        requestId: confirmationId(handover.parcelId),
        organizationId: handover.organizationId,
        parcelId: handover.parcelId,
        trackingNumber: handover.trackingNumber,
        relayCode: handover.relayCode,
        handedOverAt: handover.occurredAt.toISOString()
      });
      await store.markConfirmed(deps.db, handover.parcelId);
      confirmed += 1;
    } catch (err) {
      deps.logger.warn(`parcel ${handover.trackingNumber}: hand-over confirmation SMS left for the next pass (${(err as Error).message})`);
      break;
    }
  }
  return confirmed;
}
