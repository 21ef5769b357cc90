import { AppError } from "../../../lib/errors";
import { recipientInitial } from "./relay-view";

/**
 * The shelf searched by what the recipient says at the counter (issue 27): the last digits of
 * their phone ("56", "3456"), the first letter of their name ("A", "ع"), or both ("A56"). The
 * names and phones are sealed in the database, so the search runs on the shelf's parcels once
 * opened (a shelf holds its capacity, 150 by default), never in SQL.
 */

export interface RecipientHint {
  initial: string | null;
  lastDigits: string | null;
}

const HINT_SHAPE = /^(\p{L})?(\d{1,10})?$/u;

/** "a 56" → { initial: "A", lastDigits: "56" }; 400 for anything else. */
export function parseHint(typed: string): RecipientHint {
  const compact = typed.replace(/[\s.•-]+/g, "");
  const match = HINT_SHAPE.exec(compact);
  if (!match || compact === "") {
    throw new AppError("VALIDATION_FAILED", "The request is not valid", {
      details: [{ field: "hint", message: "must be the last digits of the phone, the first letter of the name, or both (A56)" }]
    });
  }
  return { initial: match[1] ? recipientInitial(match[1]) : null, lastDigits: match[2] ?? null };
}

export function matchesHint(hint: RecipientHint, recipient: { name: string; phone: string }): boolean {
  if (hint.initial !== null && recipientInitial(recipient.name) !== hint.initial) return false;
  return hint.lastDigits === null || recipient.phone.replace(/\D/g, "").endsWith(hint.lastDigits);
}
