import { AppError } from "./errors";
import { dateTimeText, isDateTime } from "./schemas";

/**
 * When the agent did an operation, not when it reached us (issue 27, decision 0031): a phone
 * offline queues its scans and sends them later. Up to 72 hours back (a long weekend without
 * network), never ahead of our clock beyond a few seconds of a phone's drift.
 */

export const MAX_OCCURRED_AGO_HOURS = 72;
export const CLOCK_SKEW_SECONDS = 10;

export const occurredAtKey = () =>
  dateTimeText()
    .allow(null)
    .default(null)
    .description(
      "When the agent scanned, for an operation queued offline and sent later: at most 72 hours ago, never in the future (a few " +
        "seconds of clock drift aside), else 400 OCCURRED_AT_OUT_OF_RANGE. The history, the till and the pick-up deadline use it. " +
        "Now when omitted."
    )
    .example("2026-11-26T09:14:03Z");

const outOfRange = (message: string) =>
  new AppError("OCCURRED_AT_OUT_OF_RANGE", `occurredAt ${message}`, { details: [{ field: "occurredAt", message }] });

/** The operation's time, checked against `now`; null (now) when not given. */
export function occurredAtOf(given: string | null, now = new Date()): Date | null {
  if (given === null) return null;
  if (!isDateTime(given)) {
    throw new AppError("VALIDATION_FAILED", "The request is not valid", {
      details: [{ field: "occurredAt", message: "must be a date-time such as 2026-11-26T09:14:03Z" }]
    });
  }
  const at = new Date(given);
  if (at.getTime() > now.getTime() + CLOCK_SKEW_SECONDS * 1000) throw outOfRange("is in the future");
  if (at.getTime() < now.getTime() - MAX_OCCURRED_AGO_HOURS * 3_600_000)
    throw outOfRange(`is more than ${MAX_OCCURRED_AGO_HOURS} hours ago`);
  return at;
}
