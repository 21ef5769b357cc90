import { isLang, Lang, negotiateLanguage } from "../../../lib/languages";
import type { TrackingPageParcel } from "../../../lib/public-tracking";
import { parseTrackingInput } from "../../../lib/tracking-number";
import { TRACK_PATH, trackingPagePath } from "./layout";
import type { RateAnswer } from "../rate-limit";
import { renderNotFoundPage, renderParcelPage, renderTooManyRequestsPage, renderTrackingFormPage } from "./pages";
import { brandedStyle } from "./styles";
import { Brand, DEFAULT_BRAND } from "../../../lib/brand";

export type QueryValue = string | readonly string[] | undefined;

export interface TrackingPageRequest {
  /** The path without its query: `/track` or `/track/{number}` (still percent-encoded). */
  path: string;
  query: Readonly<Record<string, QueryValue>>;
  acceptLanguage?: string | null;
  now?: Date;
  /**
   * Counts one lookup against the caller's limit, before any number is looked up; a page that
   * looks nothing up (the form) is not counted. Without it, nothing is limited.
   */
  limit?: () => RateAnswer;
  /** Signs the page's form tokens (form-guard.ts). */
  formToken?: (action: string) => string;
  /** The operator's brand (lib/brand.ts); the default brand when absent. */
  brand?: Brand;
}

export interface TrackingPageResponse {
  status: number;
  headers: Record<string, string>;
  /** Empty for redirects. */
  body: string;
}

/** Finds the public view of a parcel by its normalised number; null when there is none. */
export type TrackingLookup = (trackingNumber: string) => Promise<TrackingPageParcel | null>;

/** The parcel's pickup pass for the SMS link's key (issue 43); null when the key is not the parcel's. */
export type PassLookup = (trackingNumber: string, key: string) => Promise<{ pass: string | null; notMe: boolean } | null>;

/** Headers of every tracking page: the CSP (of the brand's stylesheet), and no caching or referrer for a URL that names a parcel. */
export function trackingPageHeaders(lang: Lang, brand: Brand = DEFAULT_BRAND): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": brandedStyle(brand).csp,
    "Content-Language": lang,
    Vary: "Accept-Language",
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY"
  };
}

function first(value: QueryValue): string | undefined {
  return typeof value === "string" ? value : value?.[0];
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * The whole `/track` surface, without JavaScript: `GET /track` shows the form; the form sends
 * `GET /track?number=…`, answered with a 303 to `/track/{normalised number}` (or the form again,
 * 400, saying what is wrong); `GET /track/{number}` shows the parcel, or 404 with a clear page.
 */
export async function respondToTrackingPage(
  request: TrackingPageRequest,
  lookup: TrackingLookup,
  passLookup?: PassLookup
): Promise<TrackingPageResponse> {
  const queryLang = first(request.query.lang)?.trim().toLowerCase();
  const linkLang = isLang(queryLang) ? queryLang : undefined;
  const lang = negotiateLanguage({ queryLang, acceptLanguage: request.acceptLanguage });
  const brand = request.brand ?? DEFAULT_BRAND;
  const options = { brand, lang, linkLang, now: request.now, formToken: request.formToken };
  const page = (status: number, body: string): TrackingPageResponse => ({ status, headers: trackingPageHeaders(lang, brand), body });
  const path = request.path.replace(/\/+$/, "") || "/";

  if (path === TRACK_PATH) {
    const typed = first(request.query.number);
    if (typed === undefined) return page(200, renderTrackingFormPage(options));
    const parsed = parseTrackingInput(typed);
    if (!parsed.ok) return page(400, renderTrackingFormPage({ ...options, value: typed, problem: parsed.reason }));
    return {
      status: 303,
      headers: { ...trackingPageHeaders(lang, brand), Location: trackingPagePath(parsed.trackingNumber, linkLang) },
      body: ""
    };
  }

  let rate: Record<string, string> = {};
  if (request.limit) {
    const decision = await request.limit();
    rate = { "X-RateLimit-Limit": String(decision.limit), "X-RateLimit-Remaining": String(decision.remaining) };
    if (!decision.allowed) {
      return {
        status: 429,
        headers: { ...trackingPageHeaders(lang, brand), ...rate, "Retry-After": String(decision.retryAfterSeconds) },
        body: renderTooManyRequestsPage({ ...options, number: "" })
      };
    }
  }
  const limited = (status: number, body: string): TrackingPageResponse => ({
    status,
    headers: { ...trackingPageHeaders(lang, brand), ...rate },
    body
  });

  const segment = path.startsWith(`${TRACK_PATH}/`) ? decodeSegment(path.slice(TRACK_PATH.length + 1)) : null;
  if (segment === null || segment.includes("/")) return limited(404, renderNotFoundPage({ ...options, number: "", reason: "malformed" }));
  const parsed = parseTrackingInput(segment);
  if (!parsed.ok) return limited(404, renderNotFoundPage({ ...options, number: parsed.normalised, reason: "malformed" }));
  const parcel = await lookup(parsed.trackingNumber);
  if (!parcel) return limited(404, renderNotFoundPage({ ...options, number: parsed.trackingNumber, reason: "unknown" }));
  // A key that is not the parcel's shows the public page, as the number alone does: it tells a prober nothing.
  const key = first(request.query.pass)?.trim().slice(0, 64);
  const found = key && passLookup ? await passLookup(parsed.trackingNumber, key) : null;
  const pass = key && found ? { key, text: found.pass, notMe: found.notMe } : undefined;
  return limited(200, renderParcelPage(parcel, { ...options, pass, changed: first(request.query.changed) === "1" }));
}
