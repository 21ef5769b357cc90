import { MAX_BRAND_NAME_LENGTH } from "../../../lib/brand";
import { LANGUAGES } from "../../../lib/languages";
import { smsSize } from "../../../services/notifications/sms-segments";
import {
  expiredText,
  MAX_SEGMENTS,
  pickupText,
  redirectCodeText,
  reminderText,
  returnCodeText
} from "../../../services/notifications/sms-texts";

/**
 * Issue 30: BRAND_NAME starts every SMS, so the longest one the configuration accepts must keep
 * every SMS within its segments (one in French and English, two in Arabic) and still leave the
 * recipient enough of the relay point's name to recognise it, with the largest COD and a deadline.
 */

const LONGEST_BRAND = "Express Colis DZ";
const RELAY = "Supérette El Baraka du Centre Commercial Bab Ezzouar, niveau 2, à côté de la pharmacie";
const DEADLINE = "2026-12-31T22:30:00.000Z";
const TRACKING = "RP123456785DZ";
/** The relay name's first letters an SMS keeps, at the least. */
const MIN_RELAY_LETTERS = 9;

/** How much of the start of the relay point's name the text keeps. */
function relayLettersKept(text: string): number {
  for (let i = RELAY.length; i > 0; i--) if (text.includes(RELAY.slice(0, i))) return i;
  return 0;
}

describe("the brand in the recipient's SMS", () => {
  it("the longest name accepted is the one tried here", () => {
    expect(LONGEST_BRAND).toHaveLength(MAX_BRAND_NAME_LENGTH);
  });

  it.each(LANGUAGES)("%s: a brand of the longest accepted length keeps every SMS within its segments and the relay recognisable", lang => {
    const ctx = { lang, brand: LONGEST_BRAND, baseUrl: "https://suivi.relais.dz" };
    const withRelay = [
      pickupText(ctx, { trackingNumber: TRACKING, relayName: RELAY, pin: "123456", codAmountDzd: 14_999.5, pickupDeadline: DEADLINE }),
      reminderText(ctx, { trackingNumber: TRACKING, relayName: RELAY, pickupDeadline: DEADLINE }),
      expiredText(ctx, { trackingNumber: TRACKING, relayName: RELAY })
    ];
    const others = [
      returnCodeText(ctx, { trackingNumber: TRACKING, code: "RT7K2M9Q", expiresAt: DEADLINE }),
      redirectCodeText(ctx, { trackingNumber: TRACKING, code: "654321", validMinutes: 10 })
    ];
    for (const text of [...withRelay, ...others]) {
      expect(text.startsWith(`${LONGEST_BRAND}: `)).toBe(true);
      expect({ text, segments: smsSize(text).segments }).toEqual({ text, segments: expect.any(Number) });
      expect(smsSize(text).segments).toBeLessThanOrEqual(MAX_SEGMENTS[lang]);
    }
    for (const text of withRelay) expect({ text, kept: relayLettersKept(text) >= MIN_RELAY_LETTERS }).toEqual({ text, kept: true });
  });

  it("Colis Express signs the pick-up SMS in each language", () => {
    for (const lang of LANGUAGES) {
      const text = pickupText(
        { lang, brand: "Colis Express", baseUrl: "https://suivi.relais.dz" },
        { trackingNumber: TRACKING, relayName: "Librairie du Centre", pin: "123456", codAmountDzd: null, pickupDeadline: DEADLINE }
      );
      expect(text.startsWith("Colis Express: ")).toBe(true);
    }
  });
});
