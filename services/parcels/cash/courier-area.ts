import type { Context } from "moleculer";
import { call } from "../../../lib/contract";
import type { Database } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import "../../logistics/logistics.contract";
import { findCounter } from "../relay/relay.store";

/**
 * A courier collects cash only at the relay points of its hub's wilaya, the ones its run lists
 * (decision 0066). The hub's wilaya is the logistics service's: asked at each collection (a few a
 * day per courier), never copied. An unknown relay point is left to the collection, which answers
 * 404 RELAY_POINT_NOT_FOUND; a relay point without a wilaya is in no courier's area.
 */
export async function mayCollectAt(db: Database, ctx: Context, hubId: string, relayCode: string): Promise<void> {
  const [relay, hub] = await Promise.all([findCounter(db, relayCode), call(ctx, "logistics.hubWilaya", { hubId })]);
  if (relay && relay.wilaya !== hub.wilaya) {
    throw new AppError(
      "RELAY_OUTSIDE_COURIER_AREA",
      `Relay point ${relay.code} is ${relay.wilaya === null ? "in no wilaya" : `in wilaya ${relay.wilaya}`}; ` +
        `this courier collects in wilaya ${hub.wilaya}, its hub's`
    );
  }
}
