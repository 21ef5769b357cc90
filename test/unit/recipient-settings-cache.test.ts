import type { Database } from "../../lib/db/database";
import { RecipientSettingsCache } from "../../services/parcels/recipient/recipient-settings-cache";

const OWNER = { organizationId: "00000000-0000-4000-8000-000000000001", mode: "live" as const };

/** A database whose settings reads wait until released, and are counted. */
function heldDatabase() {
  const reads: Array<(rows: object[]) => void> = [];
  const db = {
    query: (_sql: unknown, _params?: unknown[]) => new Promise<object[]>(resolve => reads.push(resolve))
  } as unknown as Database;
  return { db, reads };
}
const row = (language: string) => [{ reject_non_mobile_phones: true, default_language: language }];

describe("RecipientSettingsCache", () => {
  test("creates that miss together share one read, and the next ones are served from memory", async () => {
    const { db, reads } = heldDatabase();
    const cache = new RecipientSettingsCache(() => db);
    const waiting = Array.from({ length: 16 }, () => cache.of(OWNER));
    expect(reads).toHaveLength(1);
    reads[0](row("ar"));
    const answers = await Promise.all(waiting);
    expect(answers.every(a => a.defaultLanguage === "ar" && a.rejectNonMobilePhones)).toBe(true);
    // Each caller has its own copy.
    answers[0].defaultLanguage = "en";
    expect((await cache.of(OWNER)).defaultLanguage).toBe("ar");
    expect(reads).toHaveLength(1);
  });

  test("a read begun before forget() is not kept, nor shared with the callers after it", async () => {
    const { db, reads } = heldDatabase();
    const cache = new RecipientSettingsCache(() => db);
    const before = cache.of(OWNER);
    cache.forget(OWNER); // the settings changed meanwhile, through this instance
    const after = cache.of(OWNER);
    expect(reads).toHaveLength(2);
    reads[0](row("fr"));
    reads[1](row("ar"));
    expect((await before).defaultLanguage).toBe("fr");
    expect((await after).defaultLanguage).toBe("ar");
    expect((await cache.of(OWNER)).defaultLanguage).toBe("ar");
    expect(reads).toHaveLength(2);
  });

  test("a failed read fails its callers and is not remembered: the next caller reads again", async () => {
    let calls = 0;
    const db = {
      query: async () => {
        calls++;
        if (calls === 1) throw new Error("database away");
        return row("en");
      }
    } as unknown as Database;
    const cache = new RecipientSettingsCache(() => db);
    await expect(Promise.all([cache.of(OWNER), cache.of(OWNER)])).rejects.toThrow("database away");
    expect(calls).toBe(1);
    expect((await cache.of(OWNER)).defaultLanguage).toBe("en");
    expect(calls).toBe(2);
  });
});
