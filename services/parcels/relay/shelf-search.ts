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

/**
 * Phones are stored as E.164 since issue 30 (+213661223307), while a recipient at the counter
 * says the number as they know it (0661 22 33 07): a hint of a whole national number (8 digits
 * or more after its leading 0) is matched without that trunk 0.
 */
function withoutTrunkZero(digits: string): string {
  return digits.length >= 9 && digits.startsWith("0") ? digits.slice(1) : digits;
}

export function matchesHint(hint: RecipientHint, recipient: { name: string; phone: string }): boolean {
  if (hint.initial !== null && recipientInitial(recipient.name) !== hint.initial) return false;
  if (hint.lastDigits === null) return true;
  const digits = recipient.phone.replace(/\D/g, "");
  return digits.endsWith(hint.lastDigits) || digits.endsWith(withoutTrunkZero(hint.lastDigits));
}
