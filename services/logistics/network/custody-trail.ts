import type { CustodyEntry } from "./network.params";

/**
 * A parcel's custody trail from its scans, oldest first: one entry per hand-off. A hand-off at a
 * hub is scanned from both sides: the station's scan out (the giver's: it does not know which
 * courier takes the parcel) and the courier's load scan (the taker's). The two make one entry:
 * the taker named by the load, confirmed by the courier. A load with no scan out before it, or a
 * scan out no courier confirmed yet, stands alone.
 */
export function trailOf(entries: CustodyEntry[]): CustodyEntry[] {
  const trail: CustodyEntry[] = [];
  for (const entry of entries) {
    const previous = trail.at(-1);
    const pairs =
      previous !== undefined &&
      entry.scan === "courier.load" &&
      previous.scan === "hub.out" &&
      previous.holderId === null &&
      previous.givenById === entry.givenById;
    if (pairs) trail[trail.length - 1] = { ...previous, holderId: entry.holderId, confirmedBy: `courier:${entry.holderId}` };
    else trail.push(entry);
  }
  return trail;
}
