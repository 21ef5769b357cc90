import { checkCourierPass, COURIER_PASS_TTL_SECONDS, signCourierPass } from "../../lib/courier-pass";

/** The counter's courier pass (decision 0057): this relay point's, signed by us, not expired; nothing else. */
describe("the courier pass", () => {
  const key = "a".repeat(64);
  const now = new Date("2026-12-06T10:00:00Z");
  const { token, expiresAt } = signCourierPass(key, "DZ-16-ALGER-CENTRE", now);

  test("is QR alphanumeric text naming the relay point, valid for its time to live", () => {
    expect(token).toMatch(/^RC1\.DZ-16-ALGER-CENTRE\.\d{10}\.[0-9A-F]{32}$/);
    expect(expiresAt.getTime() - now.getTime()).toBe(COURIER_PASS_TTL_SECONDS * 1000);
    expect(checkCourierPass(key, token, "DZ-16-ALGER-CENTRE", new Date(now.getTime() + 60_000))).toEqual({ ok: true, expiresAt });
    // A scanner that lower-cases, or adds a space, still reads it.
    expect(checkCourierPass(key, ` ${token.toLowerCase()}`, "DZ-16-ALGER-CENTRE", now).ok).toBe(true);
  });

  test("expired, forged, another relay point's, signed with another key, or not a pass: refused with the reason", () => {
    const reason = (t: string, code = "DZ-16-ALGER-CENTRE", at = now, k = key) => {
      const check = checkCourierPass(k, t, code, at);
      return check.ok ? "ok" : check.reason;
    };
    expect(reason(token, "DZ-16-ALGER-CENTRE", expiresAt)).toBe("EXPIRED");
    expect(reason(token.replace(/\.\d{10}\./, `.${Math.floor(expiresAt.getTime() / 1000) + 3600}.`))).toBe("FORGED");
    expect(reason(token.slice(0, -1) + (token.endsWith("0") ? "1" : "0"))).toBe("FORGED");
    expect(reason(token, "DZ-16-BAB-EZZOUAR")).toBe("OTHER_RELAY");
    expect(reason(token, "DZ-16-ALGER-CENTRE", now, "b".repeat(64))).toBe("FORGED");
    expect(reason("RP1.RP123456785DZ.1.ABC")).toBe("MALFORMED");
  });
});
