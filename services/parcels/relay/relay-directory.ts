import type { Queryable } from "../../../lib/db/database";
import { algiersDate } from "../../../lib/cod";
import type { RelayPointEntry } from "../../../lib/relay-points";
import { addDays } from "../calendar-date";
import type { ClosureRecord } from "./closures.store";
import { directoryVersion, DirectorySnapshot, loadDirectory } from "./relay-directory.store";

/**
 * The relay points and their closures, in memory (issue 31, decision 0038). A create, a quote and
 * every batch item look up their destination and its closures: two round trips per create when
 * they went to the database, more than half of what embedded PGlite did. The directory is a
 * hundred points and a few closures that change a few times a day, so every parcels instance
 * keeps all of it and reloads it whole when it changed: relay-directory.mixin.ts reloads on the
 * broadcast that follows every change and on a change counter read at most once a second.
 */
export class RelayDirectory {
  private points = new Map<string, RelayPointEntry>();
  /** By relay code, first day first (as loaded). */
  private closures = new Map<string, ClosureRecord[]>();
  private loadedVersion = -1;

  constructor(
    private readonly db: Queryable,
    private readonly now: () => Date = () => new Date()
  ) {}

  /** The change counter the directory was loaded at (-1 before the first load). */
  get version(): number {
    return this.loadedVersion;
  }

  /**
   * Reads the change counter (one small query) and reloads everything when it moved. Answers
   * whether it reloaded. Callers run one at a time (the mixin's BackgroundLoop).
   */
  async refresh(): Promise<boolean> {
    if (this.loadedVersion !== -1 && (await directoryVersion(this.db)) === this.loadedVersion) return false;
    // Closures that ended before yesterday cannot refuse a parcel any more; yesterday covers a
    // process whose clock is a little behind the database's.
    this.apply(await loadDirectory(this.db, addDays(algiersDate(this.now()), -1)));
    return true;
  }

  private apply(snapshot: DirectorySnapshot): void {
    const closures = new Map<string, ClosureRecord[]>();
    for (const closure of snapshot.closures) {
      const list = closures.get(closure.relayCode);
      if (list) list.push(closure);
      else closures.set(closure.relayCode, [closure]);
    }
    // Swapped whole: a lookup sees the old directory or the new one, never half of each.
    this.points = new Map(snapshot.points.map(p => [p.code, p]));
    this.closures = closures;
    this.loadedVersion = snapshot.version;
  }

  relayPoint(code: string): RelayPointEntry | null {
    return this.points.get(code) ?? null;
  }

  relayPoints(): RelayPointEntry[] {
    return [...this.points.values()];
  }

  /** The point's closures that meet the days [from, to] (both included), first first. */
  closuresMeeting(code: string, from: string, to: string): ClosureRecord[] {
    return (this.closures.get(code) ?? []).filter(c => c.from <= to && c.to >= from);
  }

  /** Codes of the points with a closure meeting the days [from, to]. */
  relayCodesClosedBetween(from: string, to: string): Set<string> {
    const shut = new Set<string>();
    for (const [code, list] of this.closures) if (list.some(c => c.from <= to && c.to >= from)) shut.add(code);
    return shut;
  }
}
