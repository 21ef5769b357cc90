/**
 * What a screen holds that the agent made during this visit (the answer under the field, the
 * parcels scanned), kept when the screen is drawn again in another language: switching language
 * must not wipe the line the agent was about to read. Going to another screen starts a new visit,
 * and the screen comes back empty, as it always has.
 */
const kept = new Map<string, unknown>();

/** A new visit: main.ts calls it on every navigation, not when it redraws for a language. */
export function startVisit(): void {
  kept.clear();
}

/** This visit's memory of a screen, made by `empty` on the visit's first drawing. */
export function visitMemory<T>(screen: string, empty: () => T): T {
  if (!kept.has(screen)) kept.set(screen, empty());
  return kept.get(screen) as T;
}
