/**
 * A recurring background pass (outbox relay, sweeper, webhook and SMS workers): one pass at a time,
 * the next one `intervalMs` after the previous ended, and `kick()` to run one now when work arrives.
 * A kick during a pass schedules exactly one more right after it, so no arrival waits a full tick,
 * unless the pass said it had caught up after that kick (`caughtUp()`, just before it reads its
 * work): what the kick announced is already in what it reads, and the extra pass would find nothing.
 */
export class BackgroundLoop<T = unknown> {
  private timer: NodeJS.Timeout | null = null;
  /** When `timer` fires (performance.now()), so that kickWithin can tell whether it comes soon enough. */
  private timerDue = 0;
  private current: Promise<T | undefined> | null = null;
  private again = false;
  /** Periodic passes only once started; kicks work either way (an action may run one pass). */
  private started = false;
  private stopped = false;

  constructor(
    private readonly pass: () => Promise<T>,
    private readonly intervalMs: number,
    private readonly onError: (err: Error) => void,
    /** Housekeeping that must never keep the process alive (the embedded autovacuum): its timer is unref'd. */
    private readonly options: { unref?: boolean } = {}
  ) {}

  /**
   * Called by a pass right before it reads its queue: every kick so far announced work this read
   * will see (it was committed before the kick), so none of them needs another pass. The outbox
   * relay, kicked after each create group, so reads its table once per group instead of twice.
   */
  caughtUp(): void {
    this.again = false;
  }

  /** True once `stop()` was called: a long pass checks it between batches. */
  get stopping(): boolean {
    return this.stopped;
  }

  start(): void {
    this.started = true;
    this.stopped = false;
    this.schedule(0);
  }

  /** Runs a pass now, or right after the one in flight; resolves with the in-flight or new pass's result. */
  kick(): Promise<T | undefined> {
    if (this.current) {
      this.again = true;
      return this.current;
    }
    void this.launch().catch(() => undefined);
    return this.current!;
  }

  /**
   * A pass within `delayMs`: at once after the pass in flight, as `kick()`; otherwise when the
   * pass already due comes first, or in `delayMs`. Kicks of a busy path (each create group) so
   * share one pass: the outbox relay hands the events of several groups over in one read, one
   * call per consumer and one mark, instead of all of that once per group.
   */
  kickWithin(delayMs: number): void {
    if (this.current || !this.started || this.stopped || delayMs <= 0) {
      void this.kick();
      return;
    }
    if (this.timer && this.timerDue <= performance.now() + delayMs) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.schedule(delayMs);
  }

  /** A fresh pass once the one in flight is over; its failure is the caller's too (actions, tests). */
  async runNow(): Promise<T> {
    while (this.current) await this.current;
    return this.launch();
  }

  /** Stops scheduling and waits for the pass in flight (before the database it uses is closed). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current;
  }

  private launch(): Promise<T> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const run = this.pass();
    this.current = run
      .catch(err => {
        this.onError(err as Error);
        return undefined;
      })
      .finally(() => {
        this.current = null;
        if (this.again && !this.stopped) {
          this.again = false;
          void this.kick();
        } else {
          this.schedule(this.intervalMs);
        }
      });
    return run;
  }

  private schedule(delayMs: number): void {
    if (!this.started || this.stopped || this.timer) return;
    this.timerDue = performance.now() + delayMs;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.kick();
    }, delayMs);
    if (this.options.unref) this.timer.unref();
  }
}
