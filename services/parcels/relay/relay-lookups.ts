import type { Queryable } from "../../../lib/db/database";
import type { RelayPointEntry } from "../../../lib/relay-points";
import { findRelayPoint, listRelayPoints } from "../relay-points.store";
import * as closures from "./closures.store";
import type { RelayDirectory } from "./relay-directory";

/**
 * What a new parcel's checks read of relay points and closures (create-parcel.ts's priceParcel,
 * closures.ts's assertRelayOpenForNewParcels): from the in-memory directory when the parcels
 * service attached one to its database (relay-directory.mixin.ts), from the database otherwise
 * (a transaction, a script, a unit test without the service). Found through the database handle
 * the callers already pass, so that no signature on the create path changes.
 */
export interface RelayLookups {
  relayPoint(code: string): Promise<RelayPointEntry | null>;
  relayPoints(): Promise<RelayPointEntry[]>;
  closuresMeeting(code: string, from: string, to: string): Promise<closures.ClosureRecord[]>;
  relayCodesClosedBetween(from: string, to: string): Promise<Set<string>>;
}

/**
 * Several parcels instances of one process on one database (tests; a deployment has one per
 * process) share one Database handle (lib/db/connection.ts): each attaches its own directory, the
 * last attached answers, and one stopping leaves the others'. Each is kept current on its own.
 */
const attached = new WeakMap<Queryable, Attached[]>();

/** A directory, and how to check its change counter now (the mixin's loop: concurrent calls share one check). */
interface Attached {
  directory: RelayDirectory;
  checkNow: () => Promise<unknown>;
}

function fromDirectory({ directory, checkNow }: Attached): RelayLookups {
  return {
    // A code not in memory may be a point added a moment ago without a broadcast (an operator's
    // SQL, a test's fixture): one counter read, and a reload if it moved, before RELAY_NOT_FOUND.
    // A known code, the create path's case, costs nothing.
    relayPoint: async code => directory.relayPoint(code) ?? (await checkNow(), directory.relayPoint(code)),
    relayPoints: async () => directory.relayPoints(),
    closuresMeeting: async (code, from, to) => directory.closuresMeeting(code, from, to),
    relayCodesClosedBetween: async (from, to) => directory.relayCodesClosedBetween(from, to)
  };
}

function fromDatabase(db: Queryable): RelayLookups {
  return {
    relayPoint: code => findRelayPoint(db, code),
    relayPoints: () => listRelayPoints(db),
    closuresMeeting: (code, from, to) => closures.closuresMeeting(db, code, from, to),
    relayCodesClosedBetween: (from, to) => closures.relayCodesClosedBetween(db, from, to)
  };
}

export function attachRelayDirectory(db: Queryable, directory: RelayDirectory, checkNow: () => Promise<unknown>): void {
  attached.set(db, [...(attached.get(db) ?? []), { directory, checkNow }]);
}

export function detachRelayDirectory(db: Queryable, directory: RelayDirectory): void {
  const rest = (attached.get(db) ?? []).filter(a => a.directory !== directory);
  if (rest.length > 0) attached.set(db, rest);
  else attached.delete(db);
}

export function relayLookupsOf(db: Queryable): RelayLookups {
  const last = attached.get(db)?.at(-1);
  return last ? fromDirectory(last) : fromDatabase(db);
}
