import fc from "fast-check";
import { AppError } from "../../lib/errors";
import { eachOutcome, GroupCommit, ItemOutcome } from "../../lib/group-commit";

/** A flush that records its groups and ends only when the test lets it. */
function gatedFlush() {
  const groups: number[][] = [];
  const gates: (() => void)[] = [];
  const flush = async (items: readonly number[]): Promise<ItemOutcome<number>[]> => {
    groups.push([...items]);
    await new Promise<void>(release => gates.push(release));
    return items.map(n => (n < 0 ? { ok: false, error: new Error(`refused ${n}`) } : { ok: true, value: n * 10 }));
  };
  const releaseNext = async () => {
    while (gates.length === 0) await new Promise(r => setImmediate(r));
    gates.shift()!();
  };
  return { groups, flush, releaseNext };
}

describe("GroupCommit", () => {
  test("a lone item is flushed at once, alone, with no timer", async () => {
    const calls: number[][] = [];
    const batcher = new GroupCommit<number, number>(async items => items.map(n => (calls.push([n]), { ok: true, value: n + 1 })), {
      name: "items",
      maxBatch: 10,
      maxQueue: 10
    });
    // No fake timers and no wait: the flush starts in the same tick as the submission.
    const answer = batcher.submit(4);
    expect(calls).toEqual([[4]]);
    expect(await answer).toBe(5);
  });

  test("with gatherOneTurn (a database on this thread), the items of one turn go together from idle; a lone one still goes alone", async () => {
    const groups: number[][] = [];
    const batcher = new GroupCommit<number, number>(
      async items => (groups.push([...items]), items.map(n => ({ ok: true as const, value: n * 2 }))),
      { name: "items", maxBatch: 10, maxQueue: 10, gatherOneTurn: true }
    );
    // Submitted in one turn, as the requests read in one poll of the event loop are.
    const answers = [1, 2, 3].map(n => batcher.submit(n));
    expect(groups).toEqual([]);
    expect(await Promise.all(answers)).toEqual([2, 4, 6]);
    expect(await batcher.submit(7)).toBe(14);
    expect(groups).toEqual([[1, 2, 3], [7]]);
  });

  test("submitAll from idle: the items given together are one group, in their order, each answered alone; onFlush is told its size", async () => {
    const { groups, flush, releaseNext } = gatedFlush();
    const sizes: number[] = [];
    const batcher = new GroupCommit(flush, { name: "items", maxBatch: 10, maxQueue: 10, onFlush: size => sizes.push(size) });
    const answers = Promise.allSettled(batcher.submitAll([1, -2, 3]));
    await releaseNext();
    expect((await answers).map(a => (a.status === "fulfilled" ? a.value : (a.reason as Error).message))).toEqual([10, "refused -2", 30]);
    expect(groups).toEqual([[1, -2, 3]]);
    expect(sizes).toEqual([3]);
  });

  test("items that arrive during a flush go together in the next one, each answered with its own result", async () => {
    const { groups, flush, releaseNext } = gatedFlush();
    const batcher = new GroupCommit(flush, { name: "items", maxBatch: 100, maxQueue: 100 });
    const first = batcher.submit(1);
    const later = [2, 3, 4, 5].map(n => batcher.submit(n));
    expect(groups).toEqual([[1]]);
    await releaseNext();
    expect(await first).toBe(10);
    await releaseNext();
    expect(await Promise.all(later)).toEqual([20, 30, 40, 50]);
    expect(groups).toEqual([[1], [2, 3, 4, 5]]);
  });

  test("a group is never larger than maxBatch; the rest goes in the next flush", async () => {
    const { groups, flush, releaseNext } = gatedFlush();
    const batcher = new GroupCommit(flush, { name: "items", maxBatch: 2, maxQueue: 100 });
    const answers = [1, 2, 3, 4, 5].map(n => batcher.submit(n));
    for (let i = 0; i < 3; i++) await releaseNext();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50]);
    expect(groups).toEqual([[1], [2, 3], [4, 5]]);
  });

  test("one item's failure fails that item only", async () => {
    const { flush, releaseNext } = gatedFlush();
    const batcher = new GroupCommit(flush, { name: "items", maxBatch: 100, maxQueue: 100 });
    const answers = [0, 1, -2, 3].map(n =>
      batcher.submit(n).then(
        v => ({ v }),
        (e: Error) => ({ e: e.message })
      )
    );
    await releaseNext();
    await releaseNext();
    expect(await Promise.all(answers)).toEqual([{ v: 0 }, { v: 10 }, { e: "refused -2" }, { v: 30 }]);
  });

  test("a flush that throws fails its own group, and the next group still goes", async () => {
    let calls = 0;
    const batcher = new GroupCommit<number, number>(
      async items => {
        calls++;
        if (calls === 1) throw new Error("database gone");
        return items.map(n => ({ ok: true, value: n }));
      },
      { name: "items", maxBatch: 10, maxQueue: 10 }
    );
    await expect(batcher.submit(1)).rejects.toThrow("database gone");
    expect(await batcher.submit(2)).toBe(2);
  });

  test("past the queue bound a submission is refused at once with 503 UNAVAILABLE and a Retry-After", async () => {
    const { flush, releaseNext } = gatedFlush();
    const batcher = new GroupCommit(flush, { name: "debits", maxBatch: 10, maxQueue: 2, retryAfterSeconds: 3 });
    const running = batcher.submit(1);
    const queued = [batcher.submit(2), batcher.submit(3)];
    const refused = await batcher.submit(4).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ type: "UNAVAILABLE", code: 503, data: { retryAfterSeconds: 3 } });
    expect(batcher.waiting).toBe(2);
    await releaseNext();
    await releaseNext();
    expect(await Promise.all([running, ...queued])).toEqual([10, 20, 30]);
  });

  test("property: whatever the arrivals and sizes, every item gets exactly its own outcome, in groups of at most maxBatch", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.nat({ max: 3 }), { minLength: 60, maxLength: 60 }),
        async (values, maxBatch, pauses) => {
          const sizes: number[] = [];
          const batcher = new GroupCommit<number, number>(
            async items => {
              sizes.push(items.length);
              await new Promise(r => setImmediate(r));
              return eachOutcome(items, async n => {
                if (n < 0) throw new Error(`no ${n}`);
                return n * 2;
              });
            },
            { name: "items", maxBatch, maxQueue: 1_000 }
          );
          const answers: Promise<string>[] = [];
          for (const [i, n] of values.entries()) {
            answers.push(
              batcher.submit(n).then(
                v => `ok ${v}`,
                (e: Error) => e.message
              )
            );
            for (let p = 0; p < pauses[i]; p++) await new Promise(r => setImmediate(r));
          }
          expect(await Promise.all(answers)).toEqual(values.map(n => (n < 0 ? `no ${n}` : `ok ${n * 2}`)));
          expect(sizes.every(s => s >= 1 && s <= maxBatch)).toBe(true);
          expect(sizes.reduce((a, b) => a + b, 0)).toBe(values.length);
        }
      ),
      { numRuns: 50 }
    );
  });
});

describe("GroupCommit with gatherMs (closed-loop callers coming back)", () => {
  afterEach(() => jest.useRealTimers());

  /** A batcher whose flushes end at once, after a first group of `first` was answered. */
  async function afterAGroupOf(first: number, gatherMs = 2) {
    const groups: number[][] = [];
    const batcher = new GroupCommit<number, number>(
      async items => (groups.push([...items]), items.map(n => ({ ok: true as const, value: n }))),
      { name: "items", maxBatch: 64, maxQueue: 100, gatherMs }
    );
    await Promise.all(batcher.submitAll(Array.from({ length: first }, (_, i) => i)));
    return { groups, batcher };
  }

  test("right after a group of 3 was answered, the next flush waits until 3 are back, then takes them together", async () => {
    jest.useFakeTimers({ doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
    const { groups, batcher } = await afterAGroupOf(3);
    const answers = [batcher.submit(10)];
    await Promise.resolve();
    expect(groups).toEqual([[0, 1, 2]]);
    answers.push(batcher.submit(11), batcher.submit(12));
    expect(await Promise.all(answers)).toEqual([10, 11, 12]);
    expect(groups).toEqual([
      [0, 1, 2],
      [10, 11, 12]
    ]);
  });

  test("callers that do not come back hold a flush for gatherMs at most", async () => {
    jest.useFakeTimers({ doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
    const { groups, batcher } = await afterAGroupOf(3);
    const answer = batcher.submit(10);
    jest.advanceTimersByTime(1);
    await Promise.resolve();
    expect(groups).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(await answer).toBe(10);
    expect(groups).toEqual([[0, 1, 2], [10]]);
  });

  test("a lone request after a quiet moment, or after a group of one, waits for nothing", async () => {
    jest.useFakeTimers({ doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
    const quiet = await afterAGroupOf(3);
    jest.advanceTimersByTime(11); // more than 5 × gatherMs since that group
    void quiet.batcher.submit(10);
    expect(quiet.groups).toEqual([[0, 1, 2], [10]]);

    const lone = await afterAGroupOf(1);
    void lone.batcher.submit(10);
    expect(lone.groups).toEqual([[0], [10]]);
  });

  test("those who came during a flush wait for the callers it answered, then all go together", async () => {
    jest.useFakeTimers({ doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
    const { groups, flush, releaseNext } = gatedFlush();
    const batcher = new GroupCommit<number, number>(flush, { name: "items", maxBatch: 64, maxQueue: 100, gatherMs: 4 });
    const first = batcher.submitAll([1, 2, 3]);
    const during = batcher.submit(4);
    await releaseNext();
    expect(await Promise.all(first)).toEqual([10, 20, 30]);
    // 4 waits for 1, 2 and 3 to come back (up to 4 ms), instead of going alone.
    await Promise.resolve();
    expect(groups).toEqual([[1, 2, 3]]);
    const back = [batcher.submit(5), batcher.submit(6), batcher.submit(7)];
    await releaseNext();
    expect(await Promise.all([during, ...back])).toEqual([40, 50, 60, 70]);
    expect(groups).toEqual([
      [1, 2, 3],
      [4, 5, 6, 7]
    ]);

    // Callers that do not come back hold it for gatherMs at most.
    const alone = batcher.submit(8);
    const last = batcher.submit(9);
    jest.advanceTimersByTime(3);
    await Promise.resolve();
    expect(groups).toHaveLength(2);
    jest.advanceTimersByTime(1);
    await releaseNext();
    expect(await Promise.all([alone, last])).toEqual([80, 90]);
    expect(groups[2]).toEqual([8, 9]);
  });
});
