import {
  DISABLE_ENDPOINT_AFTER_MS,
  EndpointFailureStreak,
  failureStreakAfterAttempt,
  shouldDisableEndpoint
} from "../../../services/webhooks/retry-schedule";
import { endpointDisabledNotice, EndpointDisabledNoticeInput } from "../../../services/webhooks/signing";

const DAY = 24 * 3600 * 1000;
const T0 = new Date("2026-03-12T13:05:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

describe("shouldDisableEndpoint", () => {
  it("disables an endpoint that has failed for 5 days without one success", () => {
    expect(DISABLE_ENDPOINT_AFTER_MS).toBe(5 * DAY);
    expect(shouldDisableEndpoint(T0, null, at(5 * DAY))).toBe(true);
    expect(shouldDisableEndpoint(T0, at(-DAY), at(6 * DAY))).toBe(true);
  });

  it("waits until the 5 days are over", () => {
    expect(shouldDisableEndpoint(T0, null, at(5 * DAY - 1))).toBe(false);
    expect(shouldDisableEndpoint(T0, null, at(4 * DAY))).toBe(false);
  });

  it("keeps an endpoint that succeeded since its failures began, or never failed", () => {
    expect(shouldDisableEndpoint(T0, at(3 * DAY), at(10 * DAY))).toBe(false);
    expect(shouldDisableEndpoint(T0, T0, at(10 * DAY))).toBe(false);
    expect(shouldDisableEndpoint(null, null, at(10 * DAY))).toBe(false);
    expect(shouldDisableEndpoint(null, T0, at(10 * DAY))).toBe(false);
  });

  it("takes milliseconds as well as dates", () => {
    expect(shouldDisableEndpoint(T0.getTime(), null, T0.getTime() + 5 * DAY)).toBe(true);
  });
});

describe("failureStreakAfterAttempt", () => {
  const fresh: EndpointFailureStreak = { firstFailureAt: null, lastSuccessAt: null };

  it("starts a streak at the first failure and keeps its start on later ones", () => {
    const once = failureStreakAfterAttempt(fresh, false, T0);
    expect(once).toEqual({ firstFailureAt: T0, lastSuccessAt: null });
    expect(failureStreakAfterAttempt(once, false, at(DAY))).toEqual(once);
  });

  it("ends the streak on a success", () => {
    const failing = { firstFailureAt: T0, lastSuccessAt: null };
    expect(failureStreakAfterAttempt(failing, true, at(DAY))).toEqual({ firstFailureAt: null, lastSuccessAt: at(DAY) });
  });

  it("lets no older result, recorded late by another worker, undo a newer one", () => {
    // A success at day 1 recorded after a failure at day 2 began a streak: the streak stands.
    const failingSinceDay2 = { firstFailureAt: at(2 * DAY), lastSuccessAt: null };
    expect(failureStreakAfterAttempt(failingSinceDay2, true, at(DAY))).toEqual({ firstFailureAt: at(2 * DAY), lastSuccessAt: at(DAY) });
    // A failure older than the last success starts nothing.
    const healthy = { firstFailureAt: null, lastSuccessAt: at(2 * DAY) };
    expect(failureStreakAfterAttempt(healthy, false, at(DAY))).toEqual(healthy);
    // A failure older than the streak's start moves the start back; a success older than the last keeps the last.
    expect(failureStreakAfterAttempt(failingSinceDay2, false, at(DAY)).firstFailureAt).toEqual(at(DAY));
    expect(failureStreakAfterAttempt(healthy, true, at(DAY)).lastSuccessAt).toEqual(at(2 * DAY));
  });

  it("drives the rule: 5 days of failures from one success later disables", () => {
    let streak = failureStreakAfterAttempt(fresh, true, T0);
    for (let day = 1; day <= 6; day++) {
      streak = failureStreakAfterAttempt(streak, false, at(day * DAY));
      expect(shouldDisableEndpoint(streak.firstFailureAt, streak.lastSuccessAt, at(day * DAY))).toBe(day >= 6);
    }
  });
});

describe("endpointDisabledNotice", () => {
  const input: EndpointDisabledNoticeInput = {
    organizationName: "Boutique Amel",
    brandName: "Colis Express",
    endpointUrl: "https://shop.example.dz/hooks/relay?token=s3cr3t",
    firstFailureAt: T0,
    disabledAt: at(5 * DAY + 60_000),
    lastError: "HTTP 500",
    undeliveredCount: 12
  };

  it("is French first, then English, with the dates in Algiers time", () => {
    const notice = endpointDisabledNotice(input);
    expect(notice).toMatchObject({ kind: "webhook.endpoint_disabled", language: "fr" });
    expect(notice.subject).toBe("Webhooks désactivés / Webhooks disabled – Boutique Amel");
    const [french, english] = notice.text.split("\n— English —\n");
    expect(french).toContain("Bonjour Boutique Amel,");
    expect(french).toContain("Depuis le 12 mars 2026 à 14:05 (heure d'Alger)");
    expect(french).toContain("désactivé cette adresse le 17 mars 2026 à 14:06");
    expect(french).toContain("(dernière erreur : HTTP 500)");
    expect(french).toContain("12 livraisons n'ont pas abouti.");
    expect(french).toContain("Paramètres, Webhooks");
    expect(english).toContain("Hello Boutique Amel,");
    expect(english).toContain("Since 12 March 2026 at 14:05 (Algiers time)");
    expect(english).toContain("12 deliveries did not go through.");
    expect(english).toContain("Settings, Webhooks");
    // Signed with BRAND_NAME (issue 30), the name the merchant signed up with.
    expect(french.trimEnd().endsWith("L'équipe Colis Express")).toBe(true);
    expect(english.trimEnd().endsWith("The Colis Express team")).toBe(true);
  });

  it("shows the endpoint's scheme and host only: its path and query may hold a token", () => {
    const { text } = endpointDisabledNotice(input);
    expect(text).toContain("https://shop.example.dz ");
    expect(text).not.toContain("token");
    expect(text).not.toContain("/hooks");
  });

  it("keeps the organisation's name and the error on one line, so no header or paragraph can be forged", () => {
    const notice = endpointDisabledNotice({
      ...input,
      organizationName: "Amel\r\nBcc: all@example.dz",
      lastError: "boom\n\nFake paragraph"
    });
    expect(notice.subject).not.toMatch(/[\r\n]/);
    expect(notice.subject).toBe("Webhooks désactivés / Webhooks disabled – Amel Bcc: all@example.dz");
    expect(notice.text).toContain("(dernière erreur : boom Fake paragraph)");
  });

  it("says it plainly when there is no error text or nothing was waiting, and counts one in the singular", () => {
    const none = endpointDisabledNotice({ ...input, lastError: null, undeliveredCount: 0 }).text;
    expect(none).not.toContain("dernière erreur");
    expect(none).toContain("Aucune livraison n'était en attente.");
    expect(none).toContain("No delivery was waiting.");
    const one = endpointDisabledNotice({ ...input, undeliveredCount: 1 }).text;
    expect(one).toContain("1 livraison n'a pas abouti.");
    expect(one).toContain("1 delivery did not go through.");
  });

  it("refuses a count that is not one", () => {
    expect(() => endpointDisabledNotice({ ...input, undeliveredCount: -1 })).toThrow(RangeError);
    expect(() => endpointDisabledNotice({ ...input, undeliveredCount: 1.5 })).toThrow(RangeError);
  });
});
