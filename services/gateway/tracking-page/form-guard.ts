import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { AppError } from "../../../lib/errors";
import { html, Html } from "./html";
import type { PageOptions } from "./page-options";

/**
 * Cross-site request forgery guard of the tracking pages' forms (issue 26, decision 0030). Any
 * web page can make its visitors' browsers post a form here; a form that asks for an SMS code
 * must not be one of those. Every POST to the root's pages goes through `checkPagePost` (called
 * by the gateway's edge, services/gateway/edge.mixin.ts), and passes only with both:
 *
 * 1. **Where it comes from**: `Sec-Fetch-Site`, when sent, must be `same-origin` (or `none`, a
 *    request the person made by hand); `Origin`, when sent, must be this site (the public base
 *    URL, or the Host the request came to). Browsers send at least one of them on every POST.
 * 2. **A token from the page**: the hidden field `formToken`, signed by the gateway for the
 *    form's own action path and valid FORM_TOKEN_TTL_SECONDS. It binds the post to a page this
 *    site served for that very form (a token of one parcel's form is refused on another's).
 *
 * Neither needs JavaScript or a cookie: a form posted from the page itself carries both. A new
 * form on these pages adds `formTokenField(options, action)` inside its `<form>`; nothing else.
 * A refusal is a 403 `FORBIDDEN` in the error shape, before any action runs.
 */

export const FORM_TOKEN_FIELD = "formToken";
/** Long enough for a page left open over a day's errands; a stale page is reloaded. */
export const FORM_TOKEN_TTL_SECONDS = 12 * 60 * 60;

const sign = (key: Buffer, action: string, expires: number) => createHmac("sha256", key).update(`${action}\n${expires}`).digest();

/** Issues and checks the tokens; one per gateway, keyed from a secret every gateway node shares. */
export class FormTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    // A key of its own, derived: a token reveals nothing of the secret it comes from.
    this.key = createHmac("sha256", secret).update("tracking-page form tokens v1").digest();
  }

  /** The token of the form that posts to `action` (a path, without query). */
  issue(action: string, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + FORM_TOKEN_TTL_SECONDS;
    return `${expires}.${sign(this.key, action, expires).toString("base64url")}`;
  }

  verify(action: string, token: string, now = Date.now()): boolean {
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return false;
    const expires = Number(match[1]);
    if (expires < Math.floor(now / 1000) || expires > Math.floor(now / 1000) + FORM_TOKEN_TTL_SECONDS) return false;
    return timingSafeEqual(Buffer.from(match[2], "base64url"), sign(this.key, action, expires));
  }
}

/** The hidden field a page's form carries; nothing when the page is rendered without a signer (unit tests). */
export function formTokenField(options: Pick<PageOptions, "formToken">, action: string): Html | "" {
  return options.formToken ? html`<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${options.formToken(action)}">` : "";
}

const forbidden = (message: string) => new AppError("FORBIDDEN", message);

/** Step 1, from the headers alone (before the body is read): a cross-site post is refused. */
export function checkPagePostOrigin(req: IncomingMessage, publicBaseUrl: string): void {
  const site = req.headers["sec-fetch-site"];
  if (typeof site === "string" && site !== "same-origin" && site !== "none") {
    throw forbidden("This form can only be sent from this site's own page");
  }
  const origin = req.headers.origin;
  // The pages answer with Referrer-Policy: no-referrer, under which Chromium sends `Origin: null`
  // on the pages' own form posts; Sec-Fetch-Site (which no page can set) then says where it came from.
  if (origin === "null" && site === "same-origin") return;
  if (typeof origin === "string") {
    const own = new Set([new URL(publicBaseUrl).origin]);
    const host = req.headers.host;
    if (host) {
      own.add(`http://${host}`);
      own.add(`https://${host}`);
    }
    if (!own.has(origin)) throw forbidden("This form can only be sent from this site's own page");
  }
}

/** Step 2, once the form is read: its token, for the path it was posted to. The field is taken out of the form. */
export function checkPageFormToken(req: IncomingMessage, fields: Record<string, unknown>, tokens: FormTokens): void {
  const token = fields[FORM_TOKEN_FIELD];
  delete fields[FORM_TOKEN_FIELD];
  const action = (req.url ?? "/").split("?")[0];
  if (typeof token !== "string" || !tokens.verify(action, token)) {
    throw forbidden("The form has expired or did not come from this site: reload the page and send it again");
  }
}
