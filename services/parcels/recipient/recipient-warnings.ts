import { notMobileWarnings, recipientWarnings } from "../../../lib/recipient-phone";
import type { ParcelRecord } from "../parcels.store";

/**
 * An answer with the `warnings` of its recipient's phone (issue 30), left as it is when there is
 * none: the SPEC's answers stay exactly as they were for a mobile number. A parcel created or
 * replayed already knows whether its number is mobile (`recipientPhoneMobile`, decided from this
 * very number at its creation): the number is then not parsed a second time. Rows from before
 * migration parcels/020 (null) are parsed.
 */
export function withRecipientWarnings<T extends object>(answer: T, phone: unknown, parcel?: Pick<ParcelRecord, "recipientPhoneMobile">): T {
  const raw = typeof phone === "string" ? phone : undefined;
  const known = parcel?.recipientPhoneMobile;
  const warnings = raw !== undefined && typeof known === "boolean" ? notMobileWarnings(known) : recipientWarnings(raw);
  return warnings.length === 0 ? answer : { ...answer, warnings };
}

/** A batch item's phone, as sent (items are checked one by one, after the batch's own schema). */
export function phoneOfItem(item: unknown): unknown {
  return item && typeof item === "object" ? (item as { recipientPhone?: unknown }).recipientPhone : undefined;
}
