import type { AgentPrincipal } from "../../../lib/agent-keys";
import type { Database } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import { normaliseTrackingNumber } from "../../../lib/tracking-number";
import { recordPickupEvent } from "../reminders";
import * as store from "./relay.store";

/** One reminder a day per parcel from the counter: a recipient is reminded, not harassed. */
const HOURS_BETWEEN = 24;

/**
 * A one-tap reminder to a late collector (issue 27): the holding period's own reminder event
 * (parcel.pickup_reminder: the reminder SMS and the merchant's webhook, through the outbox), for a
 * parcel on this shelf, at most once in 24 hours per parcel (409 CONFLICT otherwise).
 */
export async function remindFromCounter(db: Database, agent: AgentPrincipal, typed: string): Promise<void> {
  const trackingNumber = normaliseTrackingNumber(typed);
  await db.transaction(async tx => {
    const found = await store.lockByTracking(tx, trackingNumber);
    if (!found || found.parcel.mode !== "live" || found.parcel.destinationRelayCode !== agent.relayCode) {
      throw new AppError("PARCEL_NOT_FOUND", `Parcel ${trackingNumber} is not on this relay point's shelf, nor addressed to it`);
    }
    if (found.parcel.status !== "AT_RELAY" && found.parcel.status !== "RELAY_NOTIFIED") {
      throw new AppError(
        "INVALID_TRANSITION",
        `Parcel ${trackingNumber} is ${found.parcel.status}: only a parcel on the shelf is reminded`
      );
    }
    const [last] = await tx.query<{ at: Date }>(
      `SELECT created_at AS at FROM parcels.pickup_history
        WHERE parcel_id = $1 AND kind = 'reminder' AND actor = 'relay-agent' AND created_at > now() - make_interval(hours => $2::int)
        LIMIT 1`,
      [found.parcel.id, HOURS_BETWEEN]
    );
    if (last) {
      throw new AppError("CONFLICT", `This parcel's recipient was reminded from the counter at ${last.at.toISOString()}: once in 24 hours`);
    }
    await recordPickupEvent(tx, found.parcel, { type: "parcel.pickup_reminder", kind: "reminder", actor: "relay-agent", reason: null });
  });
}
