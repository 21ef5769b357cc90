/**
 * Whether this gateway counts rate limits locally because Redis is unreachable (issue 46). Each
 * gateway then keeps answering with its own per-process limiter (KeyRateLimiter's insurance):
 * a key may get up to N × its limit across N gateways until Redis returns. The change is said
 * once each way, a log line and a gauge, not on every failed reservation or reconnect attempt.
 */
export class RedisFallback {
  private local = false;

  constructor(private readonly report: (local: boolean, reason: string) => void) {}

  /** True while limits are counted in this process only. */
  get active(): boolean {
    return this.local;
  }

  /** A reservation failed, or the connection reported an error. */
  lost(err: unknown): void {
    if (this.local) return;
    this.local = true;
    this.report(true, err instanceof Error ? err.message : String(err));
  }

  /** A reservation succeeded, or the connection is ready again. */
  restored(): void {
    if (!this.local) return;
    this.local = false;
    this.report(false, "ready");
  }
}
