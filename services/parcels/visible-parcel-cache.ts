import { LRUCache } from "lru-cache";
import type { Database } from "../../lib/db/database";
import { findVisible, Owner, ParcelRecord } from "./parcels.store";

const MAX_ENTRIES = 10_000;

/**
 * `GET /parcels/{id}` — the call merchants poll — remembered while nothing has been written. Only
 * where this process is the database's one writer (embedded PGlite: `Database.writeGeneration`);
 * an entry holds only while not one write has started or ended since it was read, so it can never
 * show a parcel older than the database. On a shared server every read goes to the database.
 */
export class VisibleParcelCache {
  private readonly entries = new LRUCache<string, { generation: number; parcel: ParcelRecord }>({ max: MAX_ENTRIES });

  constructor(private readonly db: Database) {}

  async find(owner: Owner, id: string): Promise<ParcelRecord | null> {
    const generationOf = this.db.writeGeneration;
    if (!generationOf) return findVisible(this.db, owner, { id });
    const key = `${owner.organizationId}:${owner.mode}:${id}`;
    const generation = generationOf();
    const hit = this.entries.get(key);
    if (hit && hit.generation === generation) return hit.parcel;
    const parcel = await findVisible(this.db, owner, { id });
    if (parcel) this.entries.set(key, { generation, parcel: Object.freeze(parcel) });
    else this.entries.delete(key);
    return parcel;
  }
}
