import { BackgroundLoop } from "../../lib/background-loop";

const tick = (ms = 0) => new Promise(r => setTimeout(r, ms));

describe("BackgroundLoop", () => {
  test("passes never overlap, and a kick during a pass runs exactly one more after it", async () => {
    let running = 0;
    let maxRunning = 0;
    let passes = 0;
    let release: () => void = () => undefined;
    const loop = new BackgroundLoop(
      async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        passes++;
        await new Promise<void>(r => (release = r));
        running--;
        return passes;
      },
      60_000,
      () => undefined
    );
    const first = loop.kick();
    void loop.kick();
    void loop.kick();
    release();
    expect(await first).toBe(1);
    await tick();
    expect(passes).toBe(2);
    release();
    await tick();
    expect(passes).toBe(2);
    expect(maxRunning).toBe(1);
    await loop.stop();
  });

  test("kicks before the pass caught up need no other pass; a kick after it does", async () => {
    let passes = 0;
    let release: () => void = () => undefined;
    let reading: () => void = () => undefined;
    const loop: BackgroundLoop<number> = new BackgroundLoop(
      async () => {
        passes++;
        // The pass is kicked again while it starts, then reads its queue (caughtUp) and works.
        await new Promise<void>(r => (reading = r));
        loop.caughtUp();
        await new Promise<void>(r => (release = r));
        return passes;
      },
      60_000,
      () => undefined
    );
    void loop.kick();
    void loop.kick(); // before the read: what it announced is in this pass
    reading();
    await tick();
    release();
    await tick();
    expect(passes).toBe(1);

    void loop.kick();
    reading();
    await tick();
    void loop.kick(); // after the read: it needs a pass of its own
    release();
    await tick();
    expect(passes).toBe(3);
    reading();
    await tick();
    release();
    await loop.stop();
  });

  test("runs on its interval once started, and not after stop", async () => {
    let passes = 0;
    const loop = new BackgroundLoop(
      async () => ++passes,
      10,
      () => undefined
    );
    loop.start();
    await tick(80);
    await loop.stop();
    const seen = passes;
    expect(seen).toBeGreaterThanOrEqual(2);
    await tick(50);
    expect(passes).toBe(seen);
  });

  test("a failing pass is reported and the loop goes on", async () => {
    const errors: string[] = [];
    let passes = 0;
    const loop = new BackgroundLoop(
      async () => {
        passes++;
        if (passes === 1) throw new Error("database away");
        return passes;
      },
      5,
      err => errors.push(err.message)
    );
    loop.start();
    await tick(60);
    await loop.stop();
    expect(errors).toEqual(["database away"]);
    expect(passes).toBeGreaterThan(1);
  });
});

describe("BackgroundLoop.runNow", () => {
  test("waits for the pass in flight, then runs a fresh one and passes its failure on", async () => {
    const order: string[] = [];
    let fail = false;
    const loop = new BackgroundLoop(
      async () => {
        order.push("start");
        await tick(10);
        order.push("end");
        if (fail) throw new Error("boom");
        return order.length;
      },
      60_000,
      () => undefined
    );
    void loop.kick();
    expect(await loop.runNow()).toBe(4);
    expect(order).toEqual(["start", "end", "start", "end"]);
    fail = true;
    await expect(loop.runNow()).rejects.toThrow("boom");
  });
});

describe("BackgroundLoop.kickWithin (the outbox relay after creates, decision 0045)", () => {
  afterEach(() => jest.useRealTimers());

  /** A started loop (interval 500 ms) that counts its passes; its first pass, at start, is done. */
  async function startedLoop() {
    jest.useFakeTimers({ doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
    let passes = 0;
    let release: (() => void) | null = null;
    let holding = false;
    const loop = new BackgroundLoop(
      async () => {
        passes++;
        if (holding) await new Promise<void>(r => (release = r));
        return passes;
      },
      500,
      () => undefined
    );
    loop.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(passes).toBe(1);
    return {
      loop,
      passes: () => passes,
      hold: () => (holding = true),
      release: () => ((holding = false), release?.())
    };
  }

  test("kicks within 50 ms share one pass, run 50 ms after the first of them, not at once", async () => {
    const { loop, passes } = await startedLoop();
    loop.kickWithin(50);
    await jest.advanceTimersByTimeAsync(20);
    loop.kickWithin(50);
    loop.kickWithin(50);
    await jest.advanceTimersByTimeAsync(29);
    expect(passes()).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(passes()).toBe(2);
    // Nothing else was due: the next pass is the interval's, 500 ms after that one.
    await jest.advanceTimersByTimeAsync(499);
    expect(passes()).toBe(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(passes()).toBe(3);
    await loop.stop();
  });

  test("a pass due sooner (the interval's) is not put off; a kick during a pass still runs one right after it", async () => {
    const { loop, passes, hold, release } = await startedLoop();
    await jest.advanceTimersByTimeAsync(480); // the interval's pass is due in 20 ms
    loop.kickWithin(50);
    await jest.advanceTimersByTimeAsync(20);
    expect(passes()).toBe(2);
    hold();
    loop.kickWithin(50); // no pass in flight: due in 50 ms
    await jest.advanceTimersByTimeAsync(50);
    expect(passes()).toBe(3); // in flight, held
    loop.kickWithin(50);
    release();
    await jest.advanceTimersByTimeAsync(0);
    expect(passes()).toBe(4);
    await loop.stop();
  });

  test("with 0 ms, or on a loop not started, it is a kick: a pass at once", async () => {
    let passes = 0;
    const idle = new BackgroundLoop(
      async () => ++passes,
      60_000,
      () => undefined
    );
    idle.kickWithin(50);
    await tick();
    expect(passes).toBe(1);
    const { loop, passes: started } = await startedLoop();
    loop.kickWithin(0);
    await jest.advanceTimersByTimeAsync(0);
    expect(started()).toBe(2);
    await loop.stop();
  });
});
