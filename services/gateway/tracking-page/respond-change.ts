import type { Brand } from "../../../lib/brand";
import { isLang, Lang, negotiateLanguage } from "../../../lib/languages";
import type { TrackingPageParcel } from "../../../lib/public-tracking";
import { parseTrackingInput } from "../../../lib/tracking-number";
import { normaliseWilayaCode } from "../../../lib/wilayas";
import type { RelayPointSearchItem } from "../../parcels/parcels.contract";
import type { RateAnswer } from "../rate-limit";
import { CHANGE_PROBLEMS, ChangeProblem, changeProblemOf } from "./change-messages";
import { changeRelayPath, renderChangeRelayPage } from "./change-relay";
import { renderNotFoundPage, renderTooManyRequestsPage } from "./pages";
import { QueryValue, trackingPageHeaders, TrackingPageResponse } from "./respond";
import { trackingPagePath } from "./layout";
import { renderNotMePage } from "./not-me";
import { renderPinResendPage } from "./pin-resend";

/**
 * The "change relay point" pages (change-relay.ts) as answers: `GET /track/{n}/change`, and the
 * two forms it posts, each answered with a 303 (POST-redirect-GET) so that reloading a page never
 * sends a form again. Each counts against the client address's public limit, like the page and
 * the public API whose calls they make.
 */

export interface ChangeRequest {
  /** The number as it came in the path (already decoded). */
  typed: string;
  /** The query (GET) or the form's fields (POST). */
  fields: Readonly<Record<string, QueryValue>>;
  acceptLanguage?: string | null;
  now?: Date;
  limit?: () => RateAnswer;
  /** Signs the page's form tokens (form-guard.ts). */
  formToken?: (action: string) => string;
  /** The operator's brand (lib/brand.ts); the default brand when absent. */
  brand?: Brand;
}

export interface ChangeDeps {
  lookup: (trackingNumber: string) => Promise<TrackingPageParcel | null>;
  search: (query: { wilaya?: string; city?: string }) => Promise<RelayPointSearchItem[]>;
  requestCode: (trackingNumber: string) => Promise<unknown>;
  redirect: (request: { trackingNumber: string; code: string; destinationRelayCode: string }) => Promise<unknown>;
}

const text = (value: QueryValue): string => ((typeof value === "string" ? value : value?.[0]) ?? "").trim();

function languageOf(request: ChangeRequest): { lang: Lang; linkLang?: Lang; brand?: Brand } {
  const asked = text(request.fields.lang).toLowerCase();
  return {
    lang: negotiateLanguage({ queryLang: asked, acceptLanguage: request.acceptLanguage }),
    linkLang: isLang(asked) ? asked : undefined,
    brand: request.brand
  };
}

/** The limit first; then the number, or a 404 page. */
async function admit(
  request: ChangeRequest
): Promise<
  { answer: TrackingPageResponse } | { trackingNumber: string; lang: Lang; linkLang?: Lang; brand?: Brand; headers: Record<string, string> }
> {
  const { lang, linkLang, brand } = languageOf(request);
  let headers = trackingPageHeaders(lang, brand);
  if (request.limit) {
    const decision = await request.limit();
    headers = { ...headers, "X-RateLimit-Limit": String(decision.limit), "X-RateLimit-Remaining": String(decision.remaining) };
    if (!decision.allowed) {
      return {
        answer: {
          status: 429,
          headers: { ...headers, "Retry-After": String(decision.retryAfterSeconds) },
          body: renderTooManyRequestsPage({ brand, lang, linkLang, number: "" })
        }
      };
    }
  }
  const parsed = parseTrackingInput(request.typed);
  if (!parsed.ok) {
    return {
      answer: { status: 404, headers, body: renderNotFoundPage({ brand, lang, linkLang, number: parsed.normalised, reason: "malformed" }) }
    };
  }
  return { trackingNumber: parsed.trackingNumber, lang, linkLang, brand, headers };
}

const seeOther = (headers: Record<string, string>, location: string): TrackingPageResponse => ({
  status: 303,
  headers: { ...headers, Location: location },
  body: ""
});

/** What the search keeps in the links: a wilaya's number (01 to 69; anything else is no wilaya), a city of at most 100 characters. */
function searchOf(fields: ChangeRequest["fields"]): { wilaya: string; city: string } {
  return { wilaya: normaliseWilayaCode(text(fields.wilaya)) ?? "", city: text(fields.city).slice(0, 100) };
}

export async function respondToChangePage(request: ChangeRequest, deps: ChangeDeps): Promise<TrackingPageResponse> {
  const admitted = await admit(request);
  if ("answer" in admitted) return admitted.answer;
  const { trackingNumber, lang, linkLang, brand, headers } = admitted;
  const parcel = await deps.lookup(trackingNumber);
  if (!parcel)
    return { status: 404, headers, body: renderNotFoundPage({ brand, lang, linkLang, number: trackingNumber, reason: "unknown" }) };
  const { wilaya, city } = searchOf(request.fields);
  const results = wilaya || city ? await deps.search({ wilaya: wilaya || undefined, city: city || undefined }) : null;
  const problem = text(request.fields.problem);
  return {
    status: 200,
    headers,
    body: renderChangeRelayPage(
      parcel,
      { brand, lang, linkLang, now: request.now, formToken: request.formToken },
      {
        sent: text(request.fields.sent) === "1",
        problem: (CHANGE_PROBLEMS as readonly string[]).includes(problem) ? (problem as ChangeProblem) : null,
        wilaya,
        city,
        results
      }
    )
  };
}

/** The first form: the public API's verification call, then back to the page (`sent=1`) whatever it did. */
export async function respondToCodeRequest(request: ChangeRequest, deps: ChangeDeps): Promise<TrackingPageResponse> {
  const admitted = await admit(request);
  if ("answer" in admitted) return admitted.answer;
  const { trackingNumber, linkLang, headers } = admitted;
  await deps.requestCode(trackingNumber);
  return seeOther(headers, changeRelayPath(trackingNumber, { lang: linkLang, ...searchOf(request.fields), sent: "1" }));
}

/** The last form: the recipient's redirect; the parcel's page (`changed=1`), or back here with the problem. */
export async function respondToChange(request: ChangeRequest, deps: ChangeDeps): Promise<TrackingPageResponse> {
  const admitted = await admit(request);
  if ("answer" in admitted) return admitted.answer;
  const { trackingNumber, linkLang, headers } = admitted;
  const code = text(request.fields.code);
  const destinationRelayCode = text(request.fields.destinationRelayCode);
  try {
    await deps.redirect({ trackingNumber, code, destinationRelayCode });
  } catch (err) {
    const problem = changeProblemOf((err as { type?: string }).type);
    return seeOther(headers, changeRelayPath(trackingNumber, { lang: linkLang, ...searchOf(request.fields), sent: "1", problem }));
  }
  const page = trackingPagePath(trackingNumber, linkLang);
  return seeOther(headers, `${page}${page.includes("?") ? "&" : "?"}changed=1`);
}

/**
 * "Send me the code again" (pin-resend.ts): counted against the address's limit like every form,
 * then the same page for any number (200), or the polite refusal past the day's three (429).
 */
export async function respondToPinResend(
  request: ChangeRequest,
  resend: (trackingNumber: string) => Promise<{ outcome: "accepted" | "limited" }>
): Promise<TrackingPageResponse> {
  const admitted = await admit(request);
  if ("answer" in admitted) return admitted.answer;
  const { trackingNumber, lang, linkLang, brand, headers } = admitted;
  const { outcome } = await resend(trackingNumber);
  return {
    status: outcome === "accepted" ? 200 : 429,
    headers,
    body: renderPinResendPage(trackingNumber, { brand, lang, linkLang }, outcome)
  };
}

/** "Not me" (not-me.ts): the dispute asked of parcels with the page's key; the same answer whatever came of it. */
export async function respondToNotMe(
  request: ChangeRequest,
  dispute: (trackingNumber: string, key: string) => Promise<{ recorded: boolean }>
): Promise<TrackingPageResponse> {
  const admitted = await admit(request);
  if ("answer" in admitted) return admitted.answer;
  const { trackingNumber, lang, linkLang, brand, headers } = admitted;
  const key = text(request.fields.pass).slice(0, 64);
  if (key) await dispute(trackingNumber, key);
  return { status: 200, headers, body: renderNotMePage(trackingNumber, key, { brand, lang, linkLang }) };
}
