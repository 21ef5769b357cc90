import { BackgroundLoop } from "./background-loop";

/**
 * Issue 48, Law 18-07 (decision 0061): the personal-data erasure pass that parcels and notifications
 * each run on their own tables, PII_RETENTION_DAYS after the data's purpose ended. A minute between
 * passes (a day late is no harm at 180 days); a pass erases batches until one comes back short, at
 * most MAX_BATCHES of them, so that a backlog (the first run on a full database) is worked off over
 * a few passes without holding the database.
 */
export const RETENTION_BATCH = 1_000;
export const RETENTION_INTERVAL_MS = 60_000;
const MAX_BATCHES = 20;

export function retentionLoop(eraseBatch: (batch: number) => Promise<number>, onError: (err: Error) => void): BackgroundLoop<number> {
  const loop: BackgroundLoop<number> = new BackgroundLoop(
    async () => {
      let total = 0;
      for (let i = 0; i < MAX_BATCHES && !loop.stopping; i++) {
        const erased = await eraseBatch(RETENTION_BATCH);
        total += erased;
        if (erased < RETENTION_BATCH) break;
      }
      return total;
    },
    RETENTION_INTERVAL_MS,
    onError,
    { unref: true }
  );
  return loop;
}
