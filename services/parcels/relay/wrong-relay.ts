import type { Logger } from "moleculer";
import { call, type Caller } from "../../../lib/contract";
import type { Database } from "../../../lib/db/database";
import { errorCodeOf } from "../../../lib/errors";
import { normaliseTrackingNumber } from "../../../lib/tracking-number";
import { findRelayPoint } from "../relay-points.store";

/**
 * Decision 0058: an arrival scan answered WRONG_RELAY is a mis-sort — the parcel reached a relay
 * point it is not addressed to. The answer stays the counter's (give it back to the courier);
 * logistics records the exception and the merchant gets parcel.missorted. Reported before the
 * error is rethrown, and never in its place: if logistics cannot be reached, the agent still gets
 * WRONG_RELAY and the loss is logged (the courier's next hub scan sorts the parcel again).
 */
export async function reportIfWrongRelay(
  self: { db: Database; logger: Logger },
  caller: Caller,
  scan: { relayCode: string; trackingNumber: string },
  err: unknown
): Promise<never> {
  if (errorCodeOf(err) === "WRONG_RELAY") {
    try {
      const relay = await findRelayPoint(self.db, scan.relayCode);
      await call(caller, "logistics.reportWrongRelay", {
        trackingNumber: normaliseTrackingNumber(scan.trackingNumber),
        relayCode: scan.relayCode,
        relayWilaya: relay?.wilaya ?? null
      });
    } catch (reportErr) {
      self.logger.warn("A wrong-relay arrival could not be recorded as a mis-sort", { relayCode: scan.relayCode, err: String(reportErr) });
    }
  }
  throw err;
}
