import { AppError } from "./errors";
import { dateTimeText, isDateTime } from "./schemas";

/**
 * When the agent did an operation, not when it reached us (issue 27, decision 0031): a phone
 * offline queues its scans and sends them later. Bounded by the clock and by the parcel's story
 * (issue 43): up to 72 hours back (a long weekend without network), never ahead of our clock beyond
 * a few seconds of a phone's drift, never before the parcel's previous event (a hand-over cannot
 * come before the arrival it follows), never before the device was paired (it was not there yet).
 * The relay API and the logistics service's scans both bound their `occurredAt` here.
 */

export const MAX_OCCURRED_AGO_HOURS = 72;
export const CLOCK_SKEW_SECONDS = 10;

export const occurredAtKey = () =>
  dateTimeText()
    .allow(null)
    .default(null)
    .description(
      "When the agent scanned, for an operation queued offline and sent later: at most 72 hours ago, never in the future (a few " +
        "seconds of clock drift aside), never before the parcel's previous event nor before this device was paired, else 400 " +
        "OCCURRED_AT_OUT_OF_RANGE with the reason in details. The history, the till and the pick-up deadline use it. Now when omitted."
    )
    .example("2026-11-26T09:14:03Z");

/** Why a time was refused; each has its own sentence in details[0].message. */
export type OccurredAtRefusal = "future" | "too-old" | "before-previous-event" | "before-pairing";

/** What bounds an operation's time: our clock, and what the server knows of the parcel and the device. */
export interface OccurredAtStory {
  now: Date;
  /** The parcel's latest event (the last line of its status history), or null when it has none. */
  previousEventAt: Date | null;
  /** When the device's key was made (its pairing), or null for a caller that is no device. */
  pairedAt: Date | null;
}

export type BoundedOccurredAt = { ok: true; at: Date } | { ok: false; reason: OccurredAtRefusal; message: string };

/**
 * The pure rule: the operation's time (`given`, or now when not given) within the story, or the
 * reason it cannot be. A time within a phone's drift (CLOCK_SKEW_SECONDS) before the previous event
 * or the pairing is moved up to it. An omitted time is now, which no story refuses: the server's
 * clock wrote the previous event too.
 */
export function boundOccurredAt(given: Date | null, story: OccurredAtStory): BoundedOccurredAt {
  const at = given ?? story.now;
  const time = at.getTime();
  if (time > story.now.getTime() + CLOCK_SKEW_SECONDS * 1000) return { ok: false, reason: "future", message: "is in the future" };
  if (time < story.now.getTime() - MAX_OCCURRED_AGO_HOURS * 3_600_000) {
    return { ok: false, reason: "too-old", message: `is more than ${MAX_OCCURRED_AGO_HOURS} hours ago` };
  }
  // A phone's clock drifts a little either way: a time within the drift of a bound is that bound,
  // so that the history keeps its order; further is a time that cannot be.
  const drift = CLOCK_SKEW_SECONDS * 1000;
  let bounded = time;
  if (story.previousEventAt !== null && time < story.previousEventAt.getTime()) {
    if (time < story.previousEventAt.getTime() - drift) {
      return {
        ok: false,
        reason: "before-previous-event",
        message: `is before the parcel's previous event (${story.previousEventAt.toISOString()})`
      };
    }
    bounded = story.previousEventAt.getTime();
  }
  if (story.pairedAt !== null && bounded < story.pairedAt.getTime()) {
    if (bounded < story.pairedAt.getTime() - drift) {
      return { ok: false, reason: "before-pairing", message: `is before this device was paired (${story.pairedAt.toISOString()})` };
    }
    bounded = story.pairedAt.getTime();
  }
  return { ok: true, at: bounded === time ? at : new Date(bounded) };
}

const outOfRange = (message: string) =>
  new AppError("OCCURRED_AT_OUT_OF_RANGE", `occurredAt ${message}`, { details: [{ field: "occurredAt", message }] });

/** The time given, parsed; VALIDATION_FAILED when it is no date-time. */
function parsed(given: string): Date {
  if (!isDateTime(given)) {
    throw new AppError("VALIDATION_FAILED", "The request is not valid", {
      details: [{ field: "occurredAt", message: "must be a date-time such as 2026-11-26T09:14:03Z" }]
    });
  }
  return new Date(given);
}

/**
 * The operation's time checked against the clock alone (before any parcel is read); null (now) when
 * not given. The parcel's story is checked once it is locked: `withinStory`.
 */
export function occurredAtOf(given: string | null, now = new Date()): Date | null {
  if (given === null) return null;
  const bounded = boundOccurredAt(parsed(given), { now, previousEventAt: null, pairedAt: null });
  if (!bounded.ok) throw outOfRange(bounded.message);
  return bounded.at;
}

/**
 * The operation's time against the whole story, 400 OCCURRED_AT_OUT_OF_RANGE with the reason
 * otherwise; null (now) stays null, so that the database's clock writes it.
 */
export function withinStory(at: Date | null, story: Omit<OccurredAtStory, "now"> & { now?: Date }): Date | null {
  if (at === null) return null;
  const bounded = boundOccurredAt(at, { now: story.now ?? new Date(), previousEventAt: story.previousEventAt, pairedAt: story.pairedAt });
  if (!bounded.ok) throw outOfRange(bounded.message);
  return bounded.at;
}
