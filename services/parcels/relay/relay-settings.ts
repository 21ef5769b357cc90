import type { Queryable } from "../../../lib/db/database";
import { relaySettingsOf, RelaySettings, setRelaySettings } from "./relay.store";

/**
 * A relay point's operating settings beside its directory entry: the shelf's capacity and the
 * days a parcel waits (the relay point's own, or the platform's HOLDING_DAYS). Kept apart from
 * the directory's search, whose semantics lib/relay-search.ts defines, and added to its answers.
 */

export type RelayPointWithSettings<T = import("../../../lib/relay-points").RelayPointEntry> = T & {
  capacity: number;
  holdingDays: number;
};

export { setRelaySettings };

export async function withRelaySettings<T extends { code: string }>(
  db: Queryable,
  points: T[],
  defaultHoldingDays: number
): Promise<RelayPointWithSettings<T>[]> {
  const settings = await relaySettingsOf(
    db,
    points.map(p => p.code)
  );
  const fallback: RelaySettings = { capacity: 150, holdingDays: null };
  return points.map(point => {
    const own = settings.get(point.code) ?? fallback;
    return { ...point, capacity: own.capacity, holdingDays: own.holdingDays ?? defaultHoldingDays };
  });
}
