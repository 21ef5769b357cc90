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
      relay: { code: "DZ-16-ALGER-CENTRE", name: "Librairie  Didouche", city: "Alger", address: null },
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
});
