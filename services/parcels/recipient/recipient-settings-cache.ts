import { LRUCache } from "lru-cache";
import type { Database } from "../../../lib/db/database";
import type { Owner } from "../parcels.store";
import { RecipientSettings, recipientSettingsOf } from "./recipient-settings.store";

const MAX_ENTRIES = 10_000;
/**
 * The staleness bound: a change made through another parcels instance is seen here within 2 s; one
 * made through this instance at once (`forget`). Two seconds of old settings only move a create
 * between a warning and a 400, or its SMS language, for a change the organisation just made.
 */
export const RECIPIENT_SETTINGS_TTL_MS = 2_000;

/**
 * The organisations' recipient settings, remembered for the create, quote and batch paths (issue
 * 31): they were one database read per create, for a row that changes a few times in its life.
 */
export class RecipientSettingsCache {
  private readonly entries = new LRUCache<string, Readonly<RecipientSettings>>({ max: MAX_ENTRIES, ttl: RECIPIENT_SETTINGS_TTL_MS });
  /**
   * The reads in flight, by key: the creates that miss together (every caller of a busy
   * organisation, each time its entry expires) share one read instead of one each.
   */
  private readonly reading = new Map<string, Promise<Readonly<RecipientSettings>>>();

  constructor(private readonly db: () => Database) {}

  async of(owner: Owner): Promise<RecipientSettings> {
    const key = keyOf(owner);
    const hit = this.entries.get(key);
    if (hit) return { ...hit };
    const read = this.reading.get(key) ?? this.startRead(key, owner);
    return { ...(await read) };
  }

  /** One read for every caller that misses until it answers; kept only if not forgotten meanwhile (the read may predate the change). */
  private startRead(key: string, owner: Owner): Promise<Readonly<RecipientSettings>> {
    const read = recipientSettingsOf(this.db(), owner).then(settings => {
      const frozen = Object.freeze({ ...settings });
      if (this.reading.get(key) === read) this.entries.set(key, frozen);
      return frozen;
    });
    const over = () => this.reading.get(key) === read && this.reading.delete(key);
    void read.then(over, over);
    this.reading.set(key, read);
    return read;
  }

  /** After this instance changed them: the next create reads them again (not a read begun before). */
  forget(owner: Owner): void {
    const key = keyOf(owner);
    this.entries.delete(key);
    this.reading.delete(key);
  }
}

function keyOf(owner: Owner): string {
  return `${owner.organizationId}:${owner.mode}`;
}
