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
const attached = new WeakMap<Queryable, RelayDirectory[]>();

function fromDirectory(directory: RelayDirectory): RelayLookups {
  return {
    relayPoint: async code => directory.relayPoint(code),
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

export function attachRelayDirectory(db: Queryable, directory: RelayDirectory): void {
  attached.set(db, [...(attached.get(db) ?? []), directory]);
}

export function detachRelayDirectory(db: Queryable, directory: RelayDirectory): void {
  const rest = (attached.get(db) ?? []).filter(d => d !== directory);
  if (rest.length > 0) attached.set(db, rest);
  else attached.delete(db);
}

export function relayLookupsOf(db: Queryable): RelayLookups {
  const directory = attached.get(db)?.at(-1);
  return directory ? fromDirectory(directory) : fromDatabase(db);
}
