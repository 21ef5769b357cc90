import { recipientWarnings } from "../../../lib/recipient-phone";

/**
 * An answer with the `warnings` of its recipient's phone (issue 30), left as it is when there is
 * none: the SPEC's answers stay exactly as they were for a mobile number.
 */
export function withRecipientWarnings<T extends object>(answer: T, phone: unknown): T {
  const warnings = recipientWarnings(typeof phone === "string" ? phone : undefined);
  return warnings.length === 0 ? answer : { ...answer, warnings };
}

/** A batch item's phone, as sent (items are checked one by one, after the batch's own schema). */
export function phoneOfItem(item: unknown): unknown {
  return item && typeof item === "object" ? (item as { recipientPhone?: unknown }).recipientPhone : undefined;
}
