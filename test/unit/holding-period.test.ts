import { isOnShelf, returnFeeCentimes } from "../../services/parcels/holding-period";
import { composeSms } from "../../services/notifications/holding-sms";

describe("holding period rules", () => {
  test("the return fee is the share of the price, to the centime (half a centime rounds up)", () => {
    expect(returnFeeCentimes(45_000, 50)).toBe(22_500);
    expect(returnFeeCentimes(45_001, 50)).toBe(22_501);
    expect(returnFeeCentimes(45_003, 50)).toBe(22_502);
    expect(returnFeeCentimes(45_000, 0)).toBe(0);
    expect(returnFeeCentimes(45_000, 100)).toBe(45_000);
  });

  test("on the shelf means AT_RELAY or RELAY_NOTIFIED, nothing else", () => {
    expect(["AT_RELAY", "RELAY_NOTIFIED"].every(isOnShelf)).toBe(true);
    for (const status of ["IN_TRANSIT", "DELIVERED", "RETURN_PENDING", "PENDING"]) expect(isOnShelf(status)).toBe(false);
  });

  test("the reminder and expiry texts name the parcel and relay point, the reminder its deadline date in Algiers time, neither a PIN", () => {
    const input = {
      trackingNumber: "RP123456785DZ",
      relay: { code: "DZ-16-ALGER-CENTRE", name: "Librairie  Didouche", nameAr: "مكتبة ديدوش", city: "Alger", address: null },
      codAmountDzd: 1500,
      pin: "123456",
      pickupDeadline: "2026-03-20T13:05:00.000Z"
    };
    const fr = { lang: "fr" as const, brand: "Relais DZ", baseUrl: "https://suivi.example.dz" };
    expect(composeSms("pickup_reminder", input, fr)).toBe(
      "Relais DZ: rappel, colis RP123456785DZ au relais Librairie Didouche. Retirez-le avant le 20/03 sinon il repart. " +
        "https://suivi.example.dz/t/RP123456785DZ"
    );
    expect(composeSms("pickup_expired", input, fr)).toBe(
      "Relais DZ: colis RP123456785DZ non retiré à temps au relais Librairie Didouche, il est renvoyé à l'expéditeur."
    );
    expect(composeSms("pickup", input, fr)).toContain("Code de retrait: 123456.");
  });

  test("issue 43: an Arabic SMS names the relay point by its Arabic name, when the directory has one", () => {
    const input = {
      trackingNumber: "RP123456785DZ",
      relay: { code: "DZ-16-ALGER-CENTRE", name: "Librairie Didouche", nameAr: "مكتبة ديدوش", city: "Alger", address: null },
      codAmountDzd: null,
      pin: "123456",
      pickupDeadline: "2026-03-20T13:05:00.000Z"
    };
    const ar = { lang: "ar" as const, brand: "Relais DZ", baseUrl: "https://suivi.example.dz" };
    for (const kind of ["pickup", "pickup_reminder", "pickup_expired"] as const) {
      expect(composeSms(kind, input, ar)).toContain("مكتبة ديدوش");
      expect(composeSms(kind, input, ar)).not.toContain("Librairie");
      expect(composeSms(kind, input, { ...ar, lang: "fr" })).toContain("Librairie Didouche");
    }
    expect(composeSms("pickup", { ...input, relay: { ...input.relay, nameAr: null } }, ar)).toContain("Librairie Didouche");
  });

  test("issue 43: a new pick-up code says the earlier one no longer works, in every language", () => {
    const input = {
      trackingNumber: "RP123456785DZ",
      relay: { code: "DZ-16-ALGER-CENTRE", name: "Librairie Didouche", nameAr: null, city: "Alger", address: null },
      codAmountDzd: 1500,
      pin: "654321",
      pickupDeadline: null
    };
    const context = (lang: "fr" | "ar" | "en") => ({ lang, brand: "Relais DZ", baseUrl: "https://suivi.example.dz" });
    expect(composeSms("pickup_code_resend", input, context("fr"))).toBe(
      "Relais DZ: nouveau code pour le colis RP123456785DZ. Code de retrait: 654321. L'ancien ne marche plus. " +
        "https://suivi.example.dz/t/RP123456785DZ"
    );
    expect(composeSms("pickup_code_resend", input, context("en"))).toContain("The old code no longer works.");
    expect(composeSms("pickup_code_resend", input, context("ar"))).toContain("الرمز القديم لم يعد صالحا");
  });
});
