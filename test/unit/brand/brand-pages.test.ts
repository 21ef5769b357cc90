import { createHash } from "node:crypto";
import relayPoints from "../../../resources/relay-points.json";
import { brandOf } from "../../../lib/brand";
import { toTrackingPageParcel, TrackingPageParcel } from "../../../lib/public-tracking";
import type { RelayPointEntry } from "../../../lib/relay-points";
import { renderParcelPage, respondToTrackingPage, TRACKING_PAGE_CSP } from "../../../services/gateway/tracking-page";
import { respondToPinResend } from "../../../services/gateway/tracking-page";

/** Issue 30: the tracking pages under the operator's brand — its name, its colour, its logo — and the CSP that lets them through. */

const ALGER = (relayPoints as RelayPointEntry[]).find(p => p.code === "DZ-16-ALGER-CENTRE")!;
const NUMBER = "RP123456785DZ";
const COLIS_EXPRESS = brandOf({ name: "Colis Express", color: "#0a7", logoUrl: null });

const parcel = (): TrackingPageParcel =>
  toTrackingPageParcel({
    trackingNumber: NUMBER,
    status: "RELAY_NOTIFIED",
    mode: "live",
    codAmountDzd: 1500,
    history: [{ toStatus: "RELAY_NOTIFIED", createdAt: "2025-03-12T23:30:00Z" }],
    relay: ALGER
  })!;

const styleOf = (page: string) => /<style>([\s\S]*?)<\/style>/.exec(page)![1];
const hashOf = (css: string) => `sha256-${createHash("sha256").update(css, "utf8").digest("base64")}`;

describe("the tracking pages under BRAND_NAME and BRAND_COLOR", () => {
  it.each(["fr", "ar", "en"] as const)("%s: the name heads the page and ends its title; the colour is the accent", async lang => {
    const answer = await respondToTrackingPage({ path: `/track/${NUMBER}`, query: { lang }, brand: COLIS_EXPRESS }, async () => parcel());
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(/<title>[^<]* – Colis Express<\/title>/);
    expect(answer.body).toContain('<a class="brand" href="/track?lang=' + lang + '"><span>Colis Express</span></a>');
    expect(answer.body).not.toContain("Relay Parcels");
    expect(answer.body).not.toContain("Relais DZ");
    const css = styleOf(answer.body);
    expect(css).toContain("--brand:#00aa77");
    // The one stylesheet, brand included, is what the CSP allows by its hash; nothing inline besides.
    expect(answer.headers["Content-Security-Policy"]).toContain(`style-src '${hashOf(css)}'`);
    expect(answer.headers["Content-Security-Policy"]).not.toBe(TRACKING_PAGE_CSP);
    expect(answer.body.match(/<style/g)).toHaveLength(1);
  });

  it("the other pages too (the polite answer of 'send me the code again')", async () => {
    const answer = await respondToPinResend({ typed: NUMBER, fields: { lang: "ar" }, brand: COLIS_EXPRESS }, async () => ({
      outcome: "accepted" as const
    }));
    expect(answer.body).toMatch(/<title>[^<]* – Colis Express<\/title>/);
    expect(answer.headers["Content-Security-Policy"]).toContain(`'${hashOf(styleOf(answer.body))}'`);
  });

  it("without a brand configured, the default one: Relais DZ, and the CSP every page had", async () => {
    const answer = await respondToTrackingPage({ path: `/track/${NUMBER}`, query: {} }, async () => parcel());
    expect(answer.body).toContain("<span>Relais DZ</span>");
    expect(answer.headers["Content-Security-Policy"]).toBe(TRACKING_PAGE_CSP);
    expect(TRACKING_PAGE_CSP).toContain(`'${hashOf(styleOf(answer.body))}'`);
  });
});

describe("BRAND_LOGO_URL on the pages", () => {
  it('an https logo: shown escaped beside the name, decorative (alt=""), and its origin alone added to img-src', async () => {
    const brand = brandOf({ name: "Colis Express", color: "#0a7", logoUrl: "https://cdn.colis.example/logo.svg?v=2&size=64" });
    const answer = await respondToTrackingPage({ path: `/track/${NUMBER}`, query: {}, brand }, async () => parcel());
    expect(answer.body).toContain(
      '<img src="https://cdn.colis.example/logo.svg?v=2&amp;size=64" alt="" height="32"><span>Colis Express</span>'
    );
    const csp = answer.headers["Content-Security-Policy"];
    expect(csp).toContain("img-src 'self' data: https://cdn.colis.example;");
    expect(csp).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}='; img-src [^;]+; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/
    );
  });

  it("a path of this server: 'self' already allows it", () => {
    const brand = brandOf({ name: "Colis Express", color: "#0a7", logoUrl: "/static/logo.png" });
    const page = renderParcelPage(parcel(), { lang: "fr", brand });
    expect(page).toContain('<img src="/static/logo.png" alt="" height="32">');
  });
});
