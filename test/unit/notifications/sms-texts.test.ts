import { LANGUAGES, type Lang } from "../../../lib/languages";
import { smsSize } from "../../../services/notifications/sms-segments";
import {
  expiredText,
  handoverConfirmationText,
  MAX_SEGMENTS,
  newPickupCodeText,
  pickupText,
  redirectCodeText,
  reminderText,
  returnCodeText,
  SmsContext
} from "../../../services/notifications/sms-texts";

/**
 * Issue 30: every SMS the recipient gets, in each language, with the longest relay names of the
 * directory's kind, the largest COD and a production-length link: one segment in French and
 * English, at most two in Arabic. The counts are printed so that a change of wording shows its cost.
 */
const LONG_NAMES = [
  "Supérette El Baraka du Centre Commercial Bab Ezzouar, niveau 2, à côté de la pharmacie",
  "مكتبة النور للأدوات المدرسية والمكتبية حي 1200 مسكن باب الزوار",
  "Librairie du Centre"
];
const TRACKING = "RP123456785DZ";
const DEADLINE = "2026-12-31T22:30:00.000Z";
/** The pick-up SMS's link token to the pickup pass (issue 43): in the link instead of the number, as long. */
const PASS_KEY = "0aZ9bY8cX7dW6";

function contextOf(lang: Lang): SmsContext {
  return { lang, brand: "Relais DZ", baseUrl: "https://suivi.relais.dz" };
}

function textsOf(lang: Lang, relayName: string): Record<string, string> {
  const ctx = contextOf(lang);
  return {
    pickup: pickupText(ctx, {
      trackingNumber: TRACKING,
      relayName,
      pin: "123456",
      codAmountDzd: 14_999.5,
      pickupDeadline: DEADLINE,
      passKey: PASS_KEY
    }),
    handoverConfirmation: handoverConfirmationText(ctx, { trackingNumber: TRACKING, relayName, handedOverAt: DEADLINE, passKey: PASS_KEY }),
    reminder: reminderText(ctx, { trackingNumber: TRACKING, relayName, pickupDeadline: DEADLINE }),
    expired: expiredText(ctx, { trackingNumber: TRACKING, relayName }),
    returnCode: returnCodeText(ctx, { trackingNumber: TRACKING, code: "RT7K2M9Q", expiresAt: DEADLINE }),
    redirectCode: redirectCodeText(ctx, { trackingNumber: TRACKING, code: "654321", validMinutes: 10 }),
    newPickupCode: newPickupCodeText(ctx, { trackingNumber: TRACKING, pin: "654321" })
  };
}

describe("the recipient's SMS fit their segments (GSM-7 ≤ 160, UCS-2 ≤ 70 per segment)", () => {
  const table: string[] = [];
  afterAll(() => console.log(`SMS segments (kind / language / relay name length: encoding, units, segments)\n${table.join("\n")}`));

  for (const lang of LANGUAGES) {
    // The directory's names are in Latin letters; an Arabic name is tried in the Arabic SMS.
    test.each(lang === "ar" ? LONG_NAMES : LONG_NAMES.filter(name => !/[\u0600-\u06ff]/.test(name)))(
      `${lang}: every SMS with the relay name "%s"`,
      relayName => {
        for (const [kind, text] of Object.entries(textsOf(lang, relayName))) {
          const size = smsSize(text);
          table.push(
            `${kind.padEnd(13)} ${lang} ${String(relayName.length).padStart(3)}: ${size.encoding} ${size.units} → ${size.segments}`
          );
          expect({ kind, text, segments: size.segments }).toEqual({ kind, text, segments: expect.any(Number) });
          expect(size.segments).toBeLessThanOrEqual(MAX_SEGMENTS[lang]);
          // French and English stay in GSM-7 even when the relay point's name has letters outside it.
          if (lang !== "ar") expect(size.encoding).toBe("GSM-7");
        }
      }
    );
  }

  test("the pick-up SMS keeps what the recipient needs: code, amount, deadline date, link, and some of the relay's name", () => {
    for (const lang of LANGUAGES) {
      const text = textsOf(lang, LONG_NAMES[0]).pickup;
      expect(text).toContain("123456");
      expect(text).toContain("14999.50");
      expect(text).toContain("31/12");
      expect(text).toContain(`https://suivi.relais.dz/t/${PASS_KEY}`);
      // Two UCS-2 segments leave the Arabic text less room: the name's start, at least.
      expect(text).toMatch(lang === "ar" ? /Supérette El/ : /Sup[ée]rette El Baraka/);
    }
  });

  test('the confirmation of an offline hand-over says when and where, and links to "not me" (issue 43)', () => {
    for (const lang of LANGUAGES) {
      const text = textsOf(lang, "Librairie du Centre").handoverConfirmation;
      // 22:30 UTC is 23:30 in Algiers, the same day.
      expect(text).toContain("31/12");
      expect(text).toContain("23:30");
      expect(text).toContain("Librairie du Centre");
      expect(text.endsWith(`https://suivi.relais.dz/t/${PASS_KEY}`)).toBe(true);
    }
  });

  test("a short relay name is kept whole", () => {
    for (const lang of ["fr", "en"] as const) expect(textsOf(lang, "Librairie du Centre").pickup).toContain("Librairie du Centre");
    // In Arabic, with a usual amount (the 14 999,50 DA above leaves it 12 letters).
    const ar = (relayName: string) =>
      pickupText(contextOf("ar"), { trackingNumber: TRACKING, relayName, pin: "123456", codAmountDzd: 2500, pickupDeadline: DEADLINE });
    expect(ar("Librairie du Centre")).toContain("Librairie du Centre");
    expect(ar("مكتبة النور")).toContain("مكتبة النور");
  });

  test("the deadline date is the day in Algiers (UTC+1), not in UTC", () => {
    // 22:30 UTC on 31 December is 23:30 in Algiers: still the 31st; 23:30 UTC is already 1 January there.
    expect(
      pickupText(contextOf("fr"), {
        trackingNumber: TRACKING,
        relayName: "X",
        pin: null,
        codAmountDzd: null,
        pickupDeadline: "2026-12-31T23:30:00Z"
      })
    ).toContain("Avant le 01/01");
  });
});

describe("segment counting", () => {
  test("GSM-7: 160 septets in one segment, the extension table's characters count double, 153 per split segment", () => {
    expect(smsSize("a".repeat(160))).toEqual({ encoding: "GSM-7", units: 160, segments: 1 });
    expect(smsSize("a".repeat(159) + "€")).toEqual({ encoding: "GSM-7", units: 161, segments: 2 });
    expect(smsSize("a".repeat(307))).toEqual({ encoding: "GSM-7", units: 307, segments: 3 });
    expect(smsSize("éèàù").encoding).toBe("GSM-7");
  });

  test("UCS-2: one character outside GSM-7 makes all of it UCS-2, 70 in one segment, 67 per split segment", () => {
    expect(smsSize("ç" + "a".repeat(69))).toEqual({ encoding: "UCS-2", units: 70, segments: 1 });
    expect(smsSize("س".repeat(71))).toEqual({ encoding: "UCS-2", units: 71, segments: 2 });
    expect(smsSize("س".repeat(135)).segments).toBe(3);
  });
});
