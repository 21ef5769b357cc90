import { occurredAtOf as checkedOccurredAt, withinStory } from "./occurred-at";
import type { StaffPrincipal } from "./staff-keys";

/**
 * The relay API's bound (lib/occurred-at.ts): not in the future, not more than 72 hours back, not
 * before the device's key was made; now when not given.
 */
export function occurredAtOf(staff: StaffPrincipal, given: string | undefined, now = new Date()): Date {
  return withinStory(checkedOccurredAt(given ?? null, now), { now, previousEventAt: null, pairedAt: new Date(staff.issuedAt) }) ?? now;
}
