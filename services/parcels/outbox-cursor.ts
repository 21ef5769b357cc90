/**
 * Where the outbox relay's next read starts (decision 0041). Outbox ids grow with every event, and
 * a dispatched row's entry stays in the `outbox_undispatched` index until a vacuum: each entry
 * leaves that index only when a vacuum passes, and PostgreSQL cannot mark entries on the index's
 * last page dead while new events keep landing on it. Read from the start, every pass walks the
 * entries of every event dispatched since the last vacuum (1.5 ms a read under a c16 create load,
 * a fifth of PostgreSQL's time); read after the last id this relay handed over, it walks none.
 *
 * An id is taken when the event is written, not when its transaction commits, so on a server with
 * several connections an event can become visible after one with a higher id was dispatched.
 * A full read (from the first id) every FULL_READ_EVERY_MS picks such an event up: it waits that
 * long at most. PGlite runs one transaction at a time, where this never happens.
 */
export const FULL_READ_EVERY_MS = 1_000;

export class OutboxCursor {
  private after = 0n;
  private fullReadAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly fullReadEveryMs = FULL_READ_EVERY_MS,
    private readonly now: () => number = () => performance.now()
  ) {}

  /** The id the next read starts after: "0" when a full read is due (it is then counted as done). */
  readFrom(): string {
    const now = this.now();
    if (now - this.fullReadAt >= this.fullReadEveryMs) {
      this.fullReadAt = now;
      return "0";
    }
    return this.after.toString();
  }

  /** Every one of these rows was handed over and marked dispatched. */
  handedOver(ids: readonly string[]): void {
    for (const id of ids) if (BigInt(id) > this.after) this.after = BigInt(id);
  }

  /** Some rows read were kept for a later pass: the next read starts from the first id again. */
  keptSome(): void {
    this.after = 0n;
  }
}
