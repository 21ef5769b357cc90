import { createHash } from "node:crypto";
import relayPoints from "../../../resources/relay-points.json";
import { PARCEL_STATUSES, ParcelStatus } from "../../../lib/parcel-status";
import { toTrackingPageParcel, TrackingPageParcel } from "../../../lib/public-tracking";
import type { RelayPointEntry } from "../../../lib/relay-points";
import { s10CheckDigit } from "../../../lib/s10";
import {
  formatDateTime,
  formatDzd,
  html,
  LANGUAGES,
  MESSAGES,
  renderNotFoundPage,
  renderParcelPage,
  renderTrackingFormPage,
  respondToTrackingPage,
  TRACKING_PAGE_CSP,
  TrackingLookup
} from "../../../services/gateway/tracking-page";

const ALGER = (relayPoints as RelayPointEntry[]).find(p => p.code === "DZ-16-ALGER-CENTRE")!;
const NUMBER = "RP123456785DZ";
const UNKNOWN = `RP00000001${s10CheckDigit("00000001")}DZ`;
/** Saturday 15 March 2025, 10:00 in Algiers. */
const NOW = new Date("2025-03-15T09:00:00Z");

function parcel(overrides: Partial<TrackingPageParcel> = {}, relay: Partial<RelayPointEntry> = {}): TrackingPageParcel {
  const built = toTrackingPageParcel({
    trackingNumber: NUMBER,
    status: "RELAY_NOTIFIED",
    mode: "live",
    codAmountDzd: 1500,
    history: [
      { toStatus: "CREATED", createdAt: "2025-03-10T08:12:00Z" },
      { toStatus: "AT_RELAY", createdAt: "2025-03-12T13:05:00Z" },
      { toStatus: "RELAY_NOTIFIED", createdAt: "2025-03-12T23:30:00Z" }
    ],
    relay: { ...ALGER, ...relay }
  });
  return { ...built!, ...overrides };
}

/** How a message appears in the markup. */
const escaped = (text: string) => html`${text}`.text;
const styleOf = (page: string) => /<style>([\s\S]*?)<\/style>/.exec(page)?.[1];

describe("the pages are safe under a strict CSP", () => {
  const pages = LANGUAGES.flatMap(lang => [
    renderTrackingFormPage({ lang }),
    renderTrackingFormPage({ lang, value: "x", problem: "malformed" }),
    renderNotFoundPage({ lang, number: NUMBER, reason: "unknown" }),
    renderParcelPage(parcel({ sandbox: true }), { lang, now: NOW })
  ]);

  it("allow their one stylesheet by its hash, and nothing else", () => {
    expect(TRACKING_PAGE_CSP).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}='; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/
    );
    for (const page of pages) {
      const css = styleOf(page);
      expect(css).toBeDefined();
      const hash = `sha256-${createHash("sha256").update(css!, "utf8").digest("base64")}`;
      expect(TRACKING_PAGE_CSP).toContain(`'${hash}'`);
      expect(page.match(/<style/g)).toHaveLength(1);
    }
  });

  it("carry no script, no inline style attribute, no event handler and load nothing", () => {
    for (const page of pages) {
      expect(page).not.toMatch(/<script/i);
      expect(page).not.toMatch(/\sstyle=/i);
      expect(page).not.toMatch(/\son[a-z]+=/i);
      expect(page).not.toMatch(/\ssrc=/i);
      expect([...page.matchAll(/<link [^>]*href="([^"]*)"/g)].map(m => m[1])).toEqual(["data:,"]);
    }
  });

  it("set lang and dir; every page has its landmarks and a labelled input when it has one", () => {
    for (const lang of LANGUAGES) {
      const page = renderTrackingFormPage({ lang });
      expect(page).toContain(`<html lang="${lang}" dir="${lang === "ar" ? "rtl" : "ltr"}">`);
      for (const landmark of ["<header", "<main", "<footer", "<nav"]) expect(page).toContain(landmark);
      expect(page).toContain('<label for="number">');
      expect(page).toContain('id="number"');
      expect(page).toMatch(/<form class="card" method="get" action="\/track">/);
    }
  });
});

describe("escaping", () => {
  it("a relay point named <script> is shown as text", () => {
    const page = renderParcelPage(
      parcel({}, { name: '<script>alert("x")</script>', address: '"><img src=x onerror=alert(1)>', nameAr: null }),
      { lang: "fr", now: NOW }
    );
    expect(page).not.toContain("<script>alert");
    expect(page).not.toContain("<img");
    expect(page).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(page).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
  });

  it("what a person typed comes back inert, in the input and in the message", () => {
    const typed = '"><script>alert(1)</script>';
    const form = renderTrackingFormPage({ lang: "en", value: typed, problem: "malformed" });
    expect(form).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    const missing = renderNotFoundPage({ lang: "en", number: "<b>RP</b>", reason: "unknown" });
    expect(missing).toContain('<span class="tn">&lt;b&gt;RP&lt;/b&gt;</span>');
  });

  it("the html tag escapes values and keeps markup built by itself", () => {
    expect(html`<p title="${`a"b`}">${"<i>"}${html`<b>${"&"}</b>`}${[html`<br>`, "<br>"]}${null}${false}${0}</p>`.text).toBe(
      '<p title="a&quot;b">&lt;i&gt;<b>&amp;</b><br>&lt;br&gt;0</p>'
    );
  });
});

describe("the parcel page", () => {
  it("never shows personal data, the price, the organisation or the id, even when passed", () => {
    const leaky = {
      ...parcel(),
      id: "7f1c0b6e-3f5a",
      organizationId: "0b5d5c1e-8e43",
      organizationName: "Boutique Amel",
      recipientName: "Amina Benali",
      recipientPhone: "+213 555 12 34 56",
      pricePaidDzd: 777
    };
    for (const lang of LANGUAGES) {
      const page = renderParcelPage(leaky, { lang, now: NOW });
      for (const secret of ["7f1c0b6e", "0b5d5c1e", "Boutique Amel", "Amina", "555 12 34", "777"]) expect(page).not.toContain(secret);
    }
  });

  it("describes each of the 12 statuses for the recipient, in each language", () => {
    for (const lang of LANGUAGES) {
      const titles = new Set(PARCEL_STATUSES.map(s => MESSAGES[lang].statuses[s].title));
      expect(titles.size).toBe(12);
      for (const status of PARCEL_STATUSES) {
        const { title, detail } = MESSAGES[lang].statuses[status];
        expect(title.length).toBeGreaterThan(2);
        expect(detail.length).toBeGreaterThan(20);
        const page = renderParcelPage(parcel({ status }), { lang, now: NOW });
        expect(page).toContain(`<p class="status-title">${escaped(title)}</p>`);
      }
    }
    expect(MESSAGES.fr.statuses.AT_RELAY.detail).toBe("Votre colis vous attend au point relais.");
  });

  it("shows the cash to bring while the parcel is on its way or waiting, never after", () => {
    const awaiting: ParcelStatus[] = ["CREATED", "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "AT_RELAY", "RELAY_NOTIFIED"];
    for (const status of PARCEL_STATUSES) {
      const page = renderParcelPage(parcel({ status }), { lang: "fr", now: NOW });
      expect({ status, shown: page.includes('class="card cod"') }).toEqual({ status, shown: awaiting.includes(status) });
    }
    expect(renderParcelPage(parcel({ codToPayDzd: null }), { lang: "fr", now: NOW })).not.toContain('class="card cod"');
    const page = renderParcelPage(parcel(), { lang: "fr", now: NOW });
    expect(page).toContain(`<p class="amount">${formatDzd(1500, "fr")}</p>`);
  });

  it("announces a sandbox parcel, and only then", () => {
    expect(renderParcelPage(parcel({ sandbox: true }), { lang: "fr", now: NOW })).toContain(escaped(MESSAGES.fr.sandbox));
    expect(renderParcelPage(parcel(), { lang: "fr", now: NOW })).not.toContain(escaped(MESSAGES.fr.sandbox));
  });

  it("lists the events newest first in an ordered list, in Algiers time", () => {
    const page = renderParcelPage(parcel(), { lang: "fr", now: NOW });
    const timeline = /<ol class="timeline" reversed>([\s\S]*?)<\/ol>/.exec(page)![1];
    expect([...timeline.matchAll(/<span class="event">([^<]*)<\/span>/g)].map(m => m[1])).toEqual([
      "Disponible au retrait",
      "Arrivé au point relais",
      "Colis enregistré"
    ]);
    // 23:30 UTC on the 12th is 00:30 on the 13th in Algiers.
    expect(timeline).toContain('datetime="2025-03-12T23:30:00.000Z">13 mars 2025 à 00:30</time>');
  });

  it("shows the relay point in the reader's script, its hours and whether it is open now", () => {
    const fr = renderParcelPage(parcel(), { lang: "fr", now: NOW });
    expect(fr).toContain("<bdi>Librairie Didouche</bdi>");
    expect(fr).toContain("Ouvert en ce moment · ferme à 12:30");
    expect(fr).toMatch(/<tr class="today"><th scope="row">Du samedi au jeudi<span class="tag">aujourd’hui<\/span><\/th>/);
    expect(fr).toContain("https://www.openstreetmap.org/?mlat=36.766950&amp;mlon=3.052870");
    const ar = renderParcelPage(parcel(), { lang: "ar", now: NOW });
    expect(ar).toContain("<bdi>مكتبة ديدوش</bdi>");
    expect(ar).toContain("<bdi>الجزائر الوسطى</bdi>");
    expect(ar).toContain("مفتوح الآن · يغلق على الساعة 12:30");
    const bare = renderParcelPage(parcel({}, { nameAr: null, openingHours: null, latitude: null, longitude: null }), {
      lang: "ar",
      now: NOW
    });
    expect(bare).toContain("<bdi>Librairie Didouche</bdi>");
    expect(bare).toContain(escaped(MESSAGES.ar.noOpeningHours));
    expect(bare).not.toContain("openstreetmap");
  });

  it("names the point's wilaya in the reader's script, a wilaya of 2026 too, and nothing when the directory has none", () => {
    const bouSaada = (relayPoints as RelayPointEntry[]).find(p => p.code === "DZ-68-BOU-SAADA")!;
    const at = (lang: "fr" | "ar" | "en", relay: Partial<RelayPointEntry>) => renderParcelPage(parcel({}, relay), { lang, now: NOW });
    expect(at("fr", bouSaada)).toContain('<br><span class="wilaya">Wilaya <bdi dir="ltr">68</bdi> – <bdi>Bou Saâda</bdi></span></p>');
    expect(at("ar", bouSaada)).toContain('<br><span class="wilaya">الولاية <bdi dir="ltr">68</bdi> – <bdi>بوسعادة</bdi></span></p>');
    expect(at("en", { wilaya: "65" })).toContain('Wilaya <bdi dir="ltr">65</bdi> – <bdi>Aïn Ouessara</bdi>');
    expect(at("fr", {})).toContain(
      '<bdi>42 Rue Didouche Mourad, Alger Centre</bdi><br><span class="wilaya">Wilaya <bdi dir="ltr">16</bdi> – <bdi>Alger</bdi></span></p>'
    );
    expect(at("fr", { wilaya: null })).not.toContain('class="wilaya"');
  });
});

describe("formats", () => {
  it("dinars the way each language writes them, with Latin digits", () => {
    expect(formatDzd(1500, "fr")).toMatch(/^1\s500\sDA$/u);
    expect(formatDzd(1500.5, "fr")).toMatch(/^1\s500,50\sDA$/u);
    expect(formatDzd(1500, "en")).toMatch(/^DZD\s1,500$/u);
    expect(formatDzd(1500, "ar")).toContain("1.500");
    expect(formatDzd(1500, "ar")).toContain("د.ج.");
    expect(formatDzd(1500, "ar")).not.toMatch(/[\u0660-\u0669]/);
  });

  it("times on a 24-hour Algiers clock", () => {
    expect(formatDateTime("2025-03-12T13:05:00Z", "fr")).toBe("12 mars 2025 à 14:05");
    expect(formatDateTime("2025-03-12T13:05:00Z", "en")).toBe("12 March 2025 at 14:05");
    expect(formatDateTime("2025-03-12T13:05:00Z", "ar")).toBe("12 مارس 2025 في 14:05");
  });
});

describe("respondToTrackingPage", () => {
  const calls: string[] = [];
  const lookup: TrackingLookup = async n => {
    calls.push(n);
    return n === NUMBER ? parcel() : null;
  };
  const get = (path: string, query: Record<string, string> = {}, acceptLanguage?: string) =>
    respondToTrackingPage({ path, query, acceptLanguage, now: NOW }, lookup);

  beforeEach(() => {
    calls.length = 0;
  });

  it("GET /track is the form, in the language asked for", async () => {
    const res = await get("/track", {}, "ar-DZ,ar;q=0.9");
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": TRACKING_PAGE_CSP,
      "Content-Language": "ar",
      Vary: "Accept-Language",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "X-Content-Type-Options": "nosniff"
    });
    expect(res.body).toContain('dir="rtl"');
    expect((await get("/track/")).status).toBe(200);
  });

  it("the form's GET redirects to the parcel's own address, keeping a chosen language", async () => {
    const res = await get("/track", { number: " rp 1234 5678 5 dz" });
    expect(res.status).toBe(303);
    expect(res.headers.Location).toBe(`/track/${NUMBER}`);
    expect(res.body).toBe("");
    expect((await get("/track", { number: NUMBER, lang: "ar" })).headers.Location).toBe(`/track/${NUMBER}?lang=ar`);
    expect((await get("/track", { number: NUMBER, lang: "de" })).headers.Location).toBe(`/track/${NUMBER}`);
    expect(calls).toEqual([]);
  });

  it("a number that cannot be one gets the form again, 400, saying why, without a lookup", async () => {
    const empty = await get("/track", { number: "  " });
    expect(empty.status).toBe(400);
    expect(empty.body).toContain(escaped(MESSAGES.fr.emptyNumber));
    const typo = await get("/track", { number: "RP123456784DZ", lang: "en" });
    expect(typo.status).toBe(400);
    expect(typo.body).toContain(escaped(MESSAGES.en.malformedNumber));
    expect(typo.body).toContain('aria-invalid="true"');
    expect(typo.body).toContain('<input type="hidden" name="lang" value="en">');
    expect(calls).toEqual([]);
  });

  it("GET /track/{number} shows the parcel, whatever the case and spacing", async () => {
    const res = await get(`/track/${encodeURIComponent("rp 123456785 dz")}`, {}, "en");
    expect(res.status).toBe(200);
    expect(res.body).toContain(escaped(MESSAGES.en.statuses.RELAY_NOTIFIED.title));
    expect(calls).toEqual([NUMBER]);
  });

  it("an unknown number is a 404 page that says so; so is anything else under /track", async () => {
    const unknown = await get(`/track/${UNKNOWN}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain(MESSAGES.fr.notFoundHeading);
    expect(unknown.body).toContain(`Aucun colis ne porte le numéro <span class="tn">${UNKNOWN}</span>.`);
    expect(unknown.headers["Content-Security-Policy"]).toBe(TRACKING_PAGE_CSP);
    for (const path of ["/track/hello", "/track/%E0%A4%A", "/track/RP123456785DZ/extra"]) {
      const res = await get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body).toContain(MESSAGES.fr.notFoundHeading);
    }
    expect(calls).toEqual([UNKNOWN]);
  });

  it("with a limit, each /track/{number} counts before the lookup; past it a 429 page with Retry-After and no lookup", async () => {
    let left = 2;
    const limit = async () => {
      left--;
      return { allowed: left >= 0, limit: 2, remaining: Math.max(left, 0), retryAfterSeconds: left >= 0 ? 0 : 42 };
    };
    const limited = (path: string, query: Record<string, string> = {}) =>
      respondToTrackingPage({ path, query, acceptLanguage: "en", now: NOW, limit }, lookup);
    expect((await limited("/track")).headers["X-RateLimit-Limit"]).toBeUndefined();
    expect((await limited("/track", { number: NUMBER })).status).toBe(303);
    const first = await limited(`/track/${NUMBER}`);
    expect(first.status).toBe(200);
    expect(first.headers).toMatchObject({ "X-RateLimit-Limit": "2", "X-RateLimit-Remaining": "1" });
    const second = await limited(`/track/${UNKNOWN}`);
    expect(second.status).toBe(404);
    expect(second.headers).toMatchObject({ "X-RateLimit-Limit": "2", "X-RateLimit-Remaining": "0" });
    const refused = await limited(`/track/${NUMBER}`);
    expect(refused.status).toBe(429);
    expect(refused.headers).toMatchObject({
      "Retry-After": "42",
      "X-RateLimit-Remaining": "0",
      "Content-Type": "text/html; charset=utf-8"
    });
    expect(refused.body).toContain(MESSAGES.en.tooManyHeading);
    expect(calls).toEqual([NUMBER, UNKNOWN]);
  });
});

describe("the pick-up deadline", () => {
  const deadline = "2025-03-17T13:05:00.000Z";

  it.each(LANGUAGES)("%s: 'to collect before' with the deadline, in Algiers time, while the parcel waits", lang => {
    const page = renderParcelPage(parcel({ pickupDeadline: deadline }), { lang, now: NOW });
    expect(page).toContain(escaped(MESSAGES[lang].collectBefore));
    expect(page).toContain(`<time datetime="${deadline}">${escaped(formatDateTime(deadline, lang))}</time>`);
  });

  it("says which words in each language", () => {
    expect(MESSAGES.fr.collectBefore).toBe("À retirer avant le");
    expect(MESSAGES.en.collectBefore).toBe("To collect before");
    expect(MESSAGES.ar.collectBefore).toBe("يُسحب قبل");
  });

  it("is not shown once the parcel was collected or went back, nor before it arrived", () => {
    for (const status of ["DELIVERED", "RETURN_PENDING"] as const) {
      expect(renderParcelPage(parcel({ status, pickupDeadline: deadline }), { lang: "en", now: NOW })).not.toContain("To collect before");
    }
    expect(renderParcelPage(parcel({ pickupDeadline: null }), { lang: "en", now: NOW })).not.toContain("To collect before");
  });
});
