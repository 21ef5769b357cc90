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

  constructor(private readonly db: () => Database) {}

  async of(owner: Owner): Promise<RecipientSettings> {
    const key = keyOf(owner);
    const hit = this.entries.get(key);
    if (hit) return { ...hit };
    const settings = await recipientSettingsOf(this.db(), owner);
    this.entries.set(key, Object.freeze({ ...settings }));
    return settings;
  }

  /** After this instance changed them: the next create reads them again. */
  forget(owner: Owner): void {
    this.entries.delete(keyOf(owner));
  }
}

function keyOf(owner: Owner): string {
  return `${owner.organizationId}:${owner.mode}`;
}
