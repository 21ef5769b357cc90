import { AppError } from "./errors";

/** What one item of a flushed group came to: its own value, or its own error. */
export type ItemOutcome<O> = { ok: true; value: O } | { ok: false; error: unknown };

export interface GroupCommitOptions {
  /** The most items one flush takes (GROUP_COMMIT_MAX_BATCH). */
  maxBatch: number;
  /** The most items waiting for a flush; one more is refused with 503 (GROUP_COMMIT_MAX_QUEUE). */
  maxQueue: number;
  /** Said in the 503's Retry-After. */
  retryAfterSeconds?: number;
  /** Named in the 503's message. */
  name: string;
  /**
   * Wait one turn of the event loop (setImmediate, no timer) before a flush that starts from idle.
   * For a database in this very process (embedded PGlite): its statements run on this thread, so
   * nothing can arrive while a flush runs and every group would be one item; one turn lets the
   * requests already read from their sockets join. A separate server needs none of it.
   */
  gatherOneTurn?: boolean;
  /**
   * Closed-loop callers (a client that sends its next create once the last is answered): once a
   * group of K was answered, the next flush waits up to this many ms until those K callers are
   * back beside the items that came meanwhile, so that they form one group instead of one alone
   * and K − 1 behind it, or two groups taking turns (measured at c16 distributed: 38 % of the
   * flushes were of one item). 0: never wait. Only at the entry of a pipeline; a stage fed whole
   * groups (wallet.debitBatch) gains nothing by it.
   */
  gatherMs?: number;
  /** Told each flush's size, before it runs (the group-size histogram, lib/metrics.ts). */
  onFlush?: (size: number) => void;
}

/**
 * Commits the items given to one flush together, answering each with its own outcome, in the
 * order given. It must decide every item alone (a per-item check in the statement, or a savepoint
 * per item); if it throws, every item of the group fails with that error.
 */
export type Flush<I, O> = (items: readonly I[]) => Promise<ItemOutcome<O>[]>;

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit (docs/decisions/0025): callers submit one item each and await their own result.
 * A flush starts at once when none is running (a lone request waits for nothing); items that
 * arrive while one runs wait for it to end and then go together, up to `maxBatch` at a time: the
 * group is whatever came during the previous commit, and with `gatherMs` the callers that commit
 * just answered, awaited a few ms at most (the only timer). The queue is bounded: past
 * `maxQueue` waiting items a submission is refused at once with UNAVAILABLE (503, Retry-After).
 */
export class GroupCommit<I, O> {
  private readonly queue: Waiting<I, O>[] = [];
  private flushing = false;
  /** The size of the last flush and when it was answered (performance.now()), for gatherMs. */
  private lastSize = 0;
  private lastAnsweredAt = 0;
  /** Set while a flush waits for the last group's callers: told of each arrival. */
  private onArrival: (() => void) | null = null;

  constructor(
    private readonly flush: Flush<I, O>,
    private readonly options: GroupCommitOptions
  ) {}

  /** Items waiting for a flush (not those of the flush running). */
  get waiting(): number {
    return this.queue.length;
  }

  submit(item: I): Promise<O> {
    return this.submitAll([item])[0];
  }

  /**
   * Several items queued at once, in their order, so that a flush starting from idle takes them
   * together (one `submit` after the other would start the flush with the first alone): a caller
   * that already holds a group (wallet.debitBatch) keeps it one group. Each answers on its own.
   */
  submitAll(items: readonly I[]): Promise<O>[] {
    const answers = items.map(item => {
      if (this.queue.length >= this.options.maxQueue) {
        return Promise.reject<O>(
          new AppError("UNAVAILABLE", `Too many ${this.options.name} waiting to be committed; retry shortly`, {
            retryAfterSeconds: this.options.retryAfterSeconds ?? 1
          })
        );
      }
      return new Promise<O>((resolve, reject) => this.queue.push({ item, resolve, reject }));
    });
    if (!this.flushing && this.queue.length > 0) void this.drain();
    else this.onArrival?.();
    return answers;
  }

  private async drain(): Promise<void> {
    this.flushing = true;
    try {
      // From idle, those queued are the last group's callers coming back: wait for the rest of them.
      const comingBack = this.lastGroupComingBack();
      if (this.options.gatherOneTurn) await new Promise<void>(resolve => setImmediate(resolve));
      else if (comingBack > this.queue.length) await this.gatherLastGroup(comingBack);
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, this.options.maxBatch);
        this.options.onFlush?.(group.length);
        await this.run(group);
        this.lastSize = group.length;
        this.lastAnsweredAt = performance.now();
        // Those who came during the flush wait (gatherMs at most) for the callers just answered.
        const expected = Math.min(this.lastGroupComingBack() + this.queue.length, this.options.maxBatch);
        if (this.queue.length > 0 && expected > this.queue.length) await this.gatherLastGroup(expected);
      }
    } finally {
      this.flushing = false;
    }
  }

  /**
   * gatherMs: how many of the last group's callers the next flush expects back, the size of that
   * group if it was answered a moment ago (within 5 × gatherMs); 0 otherwise. A lone request after a quiet
   * moment waits for nothing, and neither does one after a group of one.
   */
  private lastGroupComingBack(): number {
    const gatherMs = this.options.gatherMs ?? 0;
    if (gatherMs <= 0 || this.lastSize <= 1 || performance.now() - this.lastAnsweredAt > 5 * gatherMs) return 0;
    return Math.min(this.lastSize, this.options.maxBatch);
  }

  /** Waits until `expected` items are queued, or gatherMs. */
  private async gatherLastGroup(expected: number): Promise<void> {
    await new Promise<void>(resolve => {
      const timer = setTimeout(done, this.options.gatherMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.onArrival = () => {
        if (this.queue.length >= expected) done();
      };
    });
    this.onArrival = null;
  }

  private async run(group: Waiting<I, O>[]): Promise<void> {
    let outcomes: ItemOutcome<O>[];
    try {
      outcomes = await this.flush(group.map(w => w.item));
    } catch (err) {
      for (const w of group) w.reject(err);
      return;
    }
    group.forEach((w, i) => {
      const outcome = outcomes[i];
      if (!outcome) w.reject(new Error(`${this.options.name}: the flush gave no outcome for item ${i}`));
      else if (outcome.ok) w.resolve(outcome.value);
      else w.reject(outcome.error);
    });
  }
}

/** Settles each item with `decide`, catching its error as its own outcome (for flushes that go item by item). */
export async function eachOutcome<I, O>(items: readonly I[], decide: (item: I, index: number) => Promise<O>): Promise<ItemOutcome<O>[]> {
  const outcomes: ItemOutcome<O>[] = [];
  for (const [index, item] of items.entries()) {
    try {
      outcomes.push({ ok: true, value: await decide(item, index) });
    } catch (error) {
      outcomes.push({ ok: false, error });
    }
  }
  return outcomes;
}

/**
 * `eachOutcome` inside one transaction, each item behind its own savepoint: an item whose
 * statements fail is rolled back alone, and the transaction goes on with the others.
 */
export async function eachInSavepoint<I, O>(
  tx: { query: (sql: string) => Promise<unknown> },
  items: readonly I[],
  decide: (item: I, index: number) => Promise<O>
): Promise<ItemOutcome<O>[]> {
  return eachOutcome(items, async (item, index) => {
    await tx.query("SAVEPOINT group_item");
    try {
      const value = await decide(item, index);
      await tx.query("RELEASE SAVEPOINT group_item");
      return value;
    } catch (err) {
      await tx.query("ROLLBACK TO SAVEPOINT group_item");
      throw err;
    }
  });
}
