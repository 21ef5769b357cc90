import relayPoints from "../../../resources/relay-points.json";
import { toTrackingPageParcel, TrackingPageParcel } from "../../../lib/public-tracking";
import type { RelayPointEntry } from "../../../lib/relay-points";
import type { RelayPointSearchItem } from "../../../services/parcels/parcels.contract";
import { CHANGE_MESSAGES, CHANGE_PROBLEMS } from "../../../services/gateway/tracking-page/change-messages";
import {
  ChangeDeps,
  html,
  LANGUAGES,
  renderParcelPage,
  respondToChange,
  respondToChangePage,
  respondToCodeRequest
} from "../../../services/gateway/tracking-page";

/**
 * "Change relay point" on the tracking page (issue 21), without a server: what each of the three
 * answers says, in each language, with everything escaped, and every form a 303 (POST-redirect-GET).
 */

const ALGER = (relayPoints as RelayPointEntry[]).find(p => p.code === "DZ-16-ALGER-CENTRE")!;
const NUMBER = "RP123456785DZ";
const escaped = (text: string) => html`${text}`.text;

function parcel(status = "IN_TRANSIT", mode: "live" | "sandbox" = "live"): TrackingPageParcel {
  return toTrackingPageParcel({
    trackingNumber: NUMBER,
    status,
    mode,
    codAmountDzd: null,
    history: [{ toStatus: "CREATED", createdAt: "2025-03-10T08:12:00Z" }],
    relay: ALGER
  })!;
}

const HOSTILE: RelayPointSearchItem = {
  code: "DZ-16-KOUBA",
  name: '<script>alert(1)</script> "Kouba"',
  city: "Kouba<img src=x>",
  wilaya: "16",
  address: "1 rue <b>x</b>"
};

function deps(overrides: Partial<ChangeDeps> = {}): ChangeDeps & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    lookup: async n => (n === NUMBER ? parcel() : null),
    search: async q => {
      calls.push(`search ${JSON.stringify(q)}`);
      return [HOSTILE, { ...HOSTILE, code: ALGER.code, name: "current" }];
    },
    requestCode: async n => void calls.push(`code ${n}`),
    redirect: async r => void calls.push(`redirect ${JSON.stringify(r)}`),
    ...overrides
  };
}

describe("the parcel's page", () => {
  it.each(LANGUAGES)("offers the change before arrival (%s), never at or after it, nor for a test parcel", lang => {
    const c = CHANGE_MESSAGES[lang];
    expect(renderParcelPage(parcel("IN_TRANSIT"), { lang })).toContain(`/track/${NUMBER}/change`);
    expect(renderParcelPage(parcel("IN_TRANSIT"), { lang, linkLang: lang })).toContain(`/track/${NUMBER}/change?lang=${lang}`);
    for (const other of [parcel("AT_RELAY"), parcel("DELIVERED"), parcel("IN_TRANSIT", "sandbox")]) {
      expect(renderParcelPage(other, { lang })).not.toContain(escaped(c.heading));
    }
    expect(renderParcelPage(parcel(), { lang, changed: true })).toContain(escaped(c.changed));
  });
});

describe("GET /track/{n}/change", () => {
  it.each(LANGUAGES)("in %s: three forms, the search's results escaped, the current relay point left out", async lang => {
    const d = deps();
    const answer = await respondToChangePage({ typed: NUMBER.toLowerCase(), fields: { lang, wilaya: "16", city: "kouba" } }, d);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain(`<html lang="${lang}" dir="${lang === "ar" ? "rtl" : "ltr"}">`);
    expect(answer.body).toContain(`method="post" action="/track/${NUMBER}/change/code"`);
    expect(answer.body).toContain(`method="get" action="/track/${NUMBER}/change"`);
    expect(answer.body).toContain(`method="post" action="/track/${NUMBER}/change"`);
    expect(answer.body).not.toContain("<script");
    expect(answer.body).not.toContain("<img");
    expect(answer.body).toContain(escaped(HOSTILE.name));
    expect(answer.body).toContain('value="DZ-16-KOUBA"');
    expect(answer.body).not.toContain(`value="${ALGER.code}"`);
    expect(answer.body).toContain('<option value="16" selected>');
    expect(d.calls).toEqual([`search ${JSON.stringify({ wilaya: "16", city: "kouba" })}`]);
  });

  it("searches the wilayas of 2026; a number that is no wilaya is no filter, never a refused search", async () => {
    const d = deps();
    const bouSaada = await respondToChangePage({ typed: NUMBER, fields: { lang: "ar", wilaya: "68" } }, d);
    expect(bouSaada.body).toContain('<option value="68" selected>68 – بوسعادة</option>');
    expect(bouSaada.body).toContain('<option value="65">65 – عين وسارة</option>');
    const none = await respondToChangePage({ typed: NUMBER, fields: { wilaya: "70", city: "kouba" } }, d);
    expect(none.status).toBe(200);
    expect(d.calls).toEqual([`search ${JSON.stringify({ wilaya: "68" })}`, `search ${JSON.stringify({ city: "kouba" })}`]);
  });

  it("searches nothing until asked; says the code was sent and the problem, from a fixed list only", async () => {
    const d = deps();
    const answer = await respondToChangePage({ typed: NUMBER, fields: { sent: "1", problem: "code" } }, d);
    expect(d.calls).toEqual([]);
    expect(answer.body).toContain(escaped(CHANGE_MESSAGES.fr.codeSent));
    expect(answer.body).toContain(escaped(CHANGE_MESSAGES.fr.problems.code));
    expect(answer.body).toContain(escaped(CHANGE_MESSAGES.fr.searchFirst));
    const made = await respondToChangePage({ typed: NUMBER, fields: { problem: "<b>made up</b>", city: '"><script>' } }, d);
    expect(made.body).not.toContain("made up");
    expect(made.body).not.toContain('"><script>');
  });

  it("an unknown or impossible number is a 404 page; a parcel past arrival says it can no longer change", async () => {
    expect((await respondToChangePage({ typed: "RP000000000DZ", fields: {} }, deps())).status).toBe(404);
    expect((await respondToChangePage({ typed: "nope", fields: {} }, deps())).status).toBe(404);
    const arrived = await respondToChangePage({ typed: NUMBER, fields: {} }, deps({ lookup: async () => parcel("AT_RELAY") }));
    expect(arrived.status).toBe(200);
    expect(arrived.body).toContain(escaped(CHANGE_MESSAGES.fr.notChangeable));
    expect(arrived.body).not.toContain('method="post"');
  });

  it("past the public limit: 429 with Retry-After, nothing looked up", async () => {
    const d = deps({ lookup: async () => Promise.reject(new Error("must not be called")) });
    const limit = async () => ({ allowed: false, limit: 30, remaining: 0, retryAfterSeconds: 42 });
    const answer = await respondToChangePage({ typed: NUMBER, fields: {}, limit }, d);
    expect(answer.status).toBe(429);
    expect(answer.headers["Retry-After"]).toBe("42");
  });
});

describe("the two forms answer 303 (POST-redirect-GET)", () => {
  it("asking for a code: the public call, then the page with sent=1, the language and the search kept", async () => {
    const d = deps();
    const answer = await respondToCodeRequest({ typed: NUMBER, fields: { lang: "ar", wilaya: "16", city: "" } }, d);
    expect(answer.status).toBe(303);
    expect(answer.headers.Location).toBe(`/track/${NUMBER}/change?lang=ar&wilaya=16&sent=1`);
    expect(d.calls).toEqual([`code ${NUMBER}`]);
  });

  it("confirming: the parcel's page saying it is done, or back to the form with the problem", async () => {
    const d = deps();
    const done = await respondToChange({ typed: NUMBER, fields: { lang: "en", code: "123456", destinationRelayCode: "DZ-16-KOUBA" } }, d);
    expect(done.status).toBe(303);
    expect(done.headers.Location).toBe(`/track/${NUMBER}?lang=en&changed=1`);
    expect(d.calls).toEqual([
      `redirect ${JSON.stringify({ trackingNumber: NUMBER, code: "123456", destinationRelayCode: "DZ-16-KOUBA" })}`
    ]);

    const refusedWith = async (type: string) =>
      (
        await respondToChange(
          { typed: NUMBER, fields: { code: "1", destinationRelayCode: "DZ-16-KOUBA", wilaya: "5" } },
          deps({ redirect: async () => Promise.reject(Object.assign(new Error("no"), { type })) })
        )
      ).headers.Location;
    expect(await refusedWith("VERIFICATION_CODE_INVALID")).toBe(`/track/${NUMBER}/change?wilaya=05&sent=1&problem=code`);
    expect(await refusedWith("RELAY_FULL")).toContain("problem=full");
    expect(await refusedWith("REDIRECT_LIMIT")).toContain("problem=limit");
    expect(await refusedWith("PARCEL_ALREADY_AT_RELAY")).toContain("problem=arrived");
    expect(await refusedWith("VALIDATION_FAILED")).toContain("problem=form");
    expect(await refusedWith("UNAVAILABLE")).toContain("problem=other");
  });

  it("every problem has its words in every language", () => {
    for (const lang of LANGUAGES) for (const problem of CHANGE_PROBLEMS) expect(CHANGE_MESSAGES[lang].problems[problem]).toBeTruthy();
  });
});
