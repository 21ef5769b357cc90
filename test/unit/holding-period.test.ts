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

  test("the reminder and expiry texts name the parcel and relay point, the reminder its deadline in Algiers time, neither a PIN", () => {
    const input = {
      trackingNumber: "RP123456785DZ",
      relay: { code: "DZ-16-ALGER-CENTRE", name: "Librairie  Didouche", city: "Alger", address: null },
      codAmountDzd: 1500,
      pin: "123456",
      pickupDeadline: "2026-03-20T13:05:00.000Z"
    };
    expect(composeSms("pickup_reminder", input)).toBe(
      "Rappel: votre colis RP123456785DZ vous attend au point relais Librairie Didouche (DZ-16-ALGER-CENTRE). " +
        "Retirez-le avant le 20 mars 2026 à 14:05, sinon il sera renvoyé à l'expéditeur."
    );
    expect(composeSms("pickup_expired", input)).toBe(
      "Votre colis RP123456785DZ n'a pas été retiré à temps au point relais Librairie Didouche (DZ-16-ALGER-CENTRE): " +
        "il est renvoyé à l'expéditeur."
    );
    expect(composeSms("pickup", input)).toContain("123456");
  });
});
