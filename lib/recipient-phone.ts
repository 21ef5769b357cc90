import { parsePhoneNumberFromString } from "libphonenumber-js/mobile";

/**
 * A recipient's phone number as the SMS gateway needs it (E.164, "+213661223307"), and whether
 * it can take an SMS at all. The "mobile" metadata of libphonenumber-js knows only the mobile
 * ranges of each country: a number it calls valid is a mobile number, and a landline
 * ("021 23 45 67") or a number too short for its country is not (docs/development/dependencies.md).
 * A national number without a country code is Algerian: the merchants are.
 */
export interface RecipientPhone {
  /** E.164 when the number parses; otherwise its digits, with a leading + when it had one. */
  e164: string;
  /** True when the number is a mobile number of its country: only then is an SMS sent. */
  mobile: boolean;
}

const HOME_COUNTRY = "DZ";

export function normaliseRecipientPhone(raw: string): RecipientPhone {
  const compact = raw.replace(/[^\d+]/g, "");
  const parsed = parsePhoneNumberFromString(compact, HOME_COUNTRY);
  if (!parsed) return { e164: compact, mobile: false };
  return { e164: parsed.number, mobile: parsed.isValid() };
}

/** What the create, quote and batch answers carry when the number cannot take an SMS. */
export interface RecipientWarning {
  code: "RECIPIENT_PHONE_NOT_MOBILE";
  field: "recipientPhone";
  message: string;
}

export const NOT_MOBILE_MESSAGE =
  "This number is not a mobile number (a landline, or too short for its country): the parcel is accepted, but the " +
  "recipient gets no SMS and you get a parcel.recipient_unreachable webhook when one would have been sent.";

export function recipientWarnings(phone: string | undefined): RecipientWarning[] {
  return phone === undefined ? [] : notMobileWarnings(normaliseRecipientPhone(phone).mobile);
}

/** The warnings of a number already known to be mobile or not. */
export function notMobileWarnings(mobile: boolean): RecipientWarning[] {
  return mobile ? [] : [{ code: "RECIPIENT_PHONE_NOT_MOBILE", field: "recipientPhone", message: NOT_MOBILE_MESSAGE }];
}

/**
 * "+213 555 12 34 67" → "+213 5** ** ** 67": enough to tell two recipients apart in a log, not
 * enough to call anyone. Every log line about an SMS goes through this.
 */
export function maskPhone(phone: string): string {
  const compact = phone.replace(/[^\d+]/g, "");
  const digits = compact.replace(/\D/g, "");
  if (digits.length < 6) return "***";
  const international = /^(?:\+|00)213/.test(compact);
  if (international) {
    const national = digits.slice(digits.startsWith("00") ? 5 : 3);
    if (national.length >= 5) return `+213 ${national[0]}${maskGroups(national.length - 3)} ${national.slice(-2)}`;
  }
  const keep = compact.slice(0, 2);
  return `${keep}${maskGroups(compact.length - 4)} ${compact.slice(-2)}`;
}

/** n stars in pairs, "** ** **": the usual spacing of an Algerian number. */
function maskGroups(n: number): string {
  return n <= 0 ? "" : "*".repeat(n).replace(/(\*\*)(?=\*)/g, "$1 ");
}
