import type { Brand } from "../../lib/brand";
import type { IncomingMessage } from "node:http";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import { call } from "../../lib/contract";
import type { EndpointDocs } from "../../lib/endpoint";
import { clientAddress } from "./http/client-address";
import type { RateAnswer } from "./rate-limit";
import {
  ChangeDeps,
  ChangeRequest,
  FormTokens,
  QueryValue,
  respondToChange,
  respondToChangePage,
  respondToCodeRequest,
  respondToPinResend,
  respondToNotMe,
  respondToTrackingPage,
  TRACK_PATH,
  TrackingPageResponse,
  trackingPagePath,
  passPagePath
} from "./tracking-page";
import { isLang } from "../../lib/languages";
import { parseTrackingInput } from "../../lib/tracking-number";
import { trackingNumberOfToken } from "../../lib/pass-link";

/**
 * The tracking pages for recipients (`/track`, `/track/{number}`): server-rendered HTML from
 * gateway/tracking-page/, in French, Arabic or English. Each lookup counts against the client
 * address's public tracking limit, shared with `GET /api/public/v1/tracking/{n}`, so that the
 * pages are no way around it.
 */

/** Who asks for a page, as the gateway's root route records it (services/gateway.service.ts). */
export interface PageClient {
  address: string;
  acceptLanguage: string | null;
}

export function clientOf(req: IncomingMessage, trustProxyHops: number): PageClient {
  const language = req.headers["accept-language"];
  return {
    address: clientAddress(req, trustProxyHops),
    acceptLanguage: typeof language === "string" ? language : null
  };
}

/** What the root's pages read and set in a call's meta (also the counter app's files). */
export type PageMeta = {
  client?: PageClient;
  $statusCode?: number;
  $location?: string;
  $responseType?: string;
  $responseHeaders?: Record<string, string>;
};

interface TrackingPageVars {
  consumePublicLimit(address: string): RateAnswer;
  /** Signs and checks the forms' tokens (tracking-page/form-guard.ts); made by the gateway at start. */
  formTokens: FormTokens;
  /** BRAND_NAME, BRAND_COLOR, BRAND_LOGO_URL (the gateway's configuration). */
  config: { brand: Brand };
}

interface TrackingPageMethods {
  followShortLink(ctx: Context<Record<string, unknown>, PageMeta>): Promise<string>;
  answerTrackingPage(ctx: Context<Record<string, unknown>, PageMeta>, path: string, query: Record<string, unknown>): Promise<string>;
  answerChangePage(
    ctx: Context<Record<string, unknown>, PageMeta>,
    respond: (request: ChangeRequest, deps: ChangeDeps) => Promise<TrackingPageResponse>
  ): Promise<string>;
}

type TrackingPageThis = TrackingPageVars & TrackingPageMethods;

const page = (operationId: string, summary: string): EndpointDocs => ({
  operationId,
  summary,
  tag: "Tracking pages",
  responseDescription: summary,
  // A web page for people, not an operation of the API: its contract is the page test.
  hidden: true
});

/** The query as the page reads it: text values only (moleculer-web merges path and query into params). */
function queryOf(params: Record<string, unknown>): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === "string") query[name] = value;
    else if (Array.isArray(value) && value.every(v => typeof v === "string")) query[name] = value as string[];
  }
  return query;
}

/** A page's answer as moleculer-web sends it: status, Location, headers and the HTML. */
function answerWith(ctx: Context<unknown, PageMeta>, answer: TrackingPageResponse): string {
  const { Location: location, ...headers } = answer.headers;
  ctx.meta.$statusCode = answer.status;
  if (location) ctx.meta.$location = location;
  ctx.meta.$responseType = headers["Content-Type"];
  ctx.meta.$responseHeaders = headers;
  return answer.body;
}

const mixin: Partial<ServiceSchema<ServiceSettingSchema, TrackingPageMethods, TrackingPageVars>> = {
  actions: {
    trackingForm: defineAction<Record<string, unknown>, TrackingPageThis, PageMeta>({
      rest: `GET ${TRACK_PATH}`,
      api: "open",
      endpoint: page("getTrackingForm", "The tracking form"),
      handler(ctx) {
        return this.answerTrackingPage(ctx, TRACK_PATH, ctx.params);
      }
    }),

    trackingPage: defineAction<Record<string, unknown>, TrackingPageThis, PageMeta>({
      rest: `GET ${TRACK_PATH}/:trackingNumber`,
      api: "open",
      endpoint: page("getTrackingPage", "A parcel's tracking page"),
      async handler(ctx) {
        const { trackingNumber: typed, ...query } = ctx.params;
        const number = typeof typed === "string" ? parseTrackingInput(typed) : null;
        // Issue 30: the language the recipient picks with the switcher is the one of their later SMS.
        if (number?.ok && isLang(query.lang)) {
          await call(ctx, "parcels.setRecipientLanguage", { trackingNumber: number.trackingNumber, lang: query.lang }).catch(
            () => undefined
          );
        }
        return this.answerTrackingPage(ctx, trackingPagePath(typeof typed === "string" ? typed : ""), query);
      }
    }),

    // Issue 30: the SMS' short link, to the tracking page in the recipient's language.
    shortTrackingLink: defineAction<Record<string, unknown>, TrackingPageThis, PageMeta>({
      rest: "GET /t/:trackingNumber",
      api: "open",
      endpoint: page("followShortTrackingLink", "The SMS' short link to a tracking page"),
      handler(ctx) {
        return this.followShortLink(ctx);
      }
    }),

    // "Change relay point" (issue 21): the page, and the two forms it posts (tracking-page/respond-change.ts).
    changeRelayPage: defineAction<Record<string, unknown>, TrackingPageThis, PageMeta>({
      rest: `GET ${TRACK_PATH}/:trackingNumber/change`,
      api: "open",
      endpoint: page("getChangeRelayPage", "Change a parcel's relay point"),
      handler(ctx) {
        return this.answerChangePage(ctx, respondToChangePage);
      }
    }),

    changeRelayCode: defineAction<Record<string, unknown>, TrackingPageThis, PageMeta>({
      rest: `POST ${TRACK_PATH}/:trackingNumber/change/code`,
      api: "open",
      endpoint: page("postChangeRelayCode", "Ask for the SMS code"),
      handler(ctx) {
        return this.answerChangePage(ctx, respondToCodeRequest);
      }
    }),

    // "Send me the code again" (issue 30, tracking-page/pin-resend.ts).
    resendPin: defineAction<Record<string, unknown>, TrackingPageThis, PageMeta>({
      rest: `POST ${TRACK_PATH}/:trackingNumber/pin`,
      api: "open",
      endpoint: page("postPinResend", "Send the pick-up code again"),
      async handler(ctx) {
        const client = ctx.meta.client ?? { address: "unknown", acceptLanguage: null };
        const { trackingNumber: typed, ...fields } = ctx.params;
        const answer = await respondToPinResend(
          {
            typed: typeof typed === "string" ? typed : "",
            fields: queryOf(fields),
            acceptLanguage: client.acceptLanguage,
            limit: () => this.consumePublicLimit(client.address),
            brand: this.config.brand
          },
          trackingNumber => call(ctx, "parcels.resendPickupPinForRecipient", { trackingNumber })
        );
        return answerWith(ctx, answer);
      }
    }),

    // "Not me" on an offline PIN hand-over (issue 43, tracking-page/not-me.ts), from the page opened with the SMS's key.
    disputeHandover: defineAction<Record<string, unknown>, TrackingPageThis, PageMeta>({
      rest: `POST ${TRACK_PATH}/:trackingNumber/dispute`,
      api: "open",
      endpoint: page("postHandoverDispute", "Say an offline hand-over was not me"),
      async handler(ctx) {
        const client = ctx.meta.client ?? { address: "unknown", acceptLanguage: null };
        const { trackingNumber: typed, ...fields } = ctx.params;
        const answer = await respondToNotMe(
          {
            typed: typeof typed === "string" ? typed : "",
            fields: queryOf(fields),
            acceptLanguage: client.acceptLanguage,
            limit: () => this.consumePublicLimit(client.address),
            brand: this.config.brand
          },
          (trackingNumber, key) => call(ctx, "parcels.disputeHandover", { trackingNumber, key })
        );
        return answerWith(ctx, answer);
      }
    }),

    changeRelay: defineAction<Record<string, unknown>, TrackingPageThis, PageMeta>({
      rest: `POST ${TRACK_PATH}/:trackingNumber/change`,
      api: "open",
      endpoint: page("postChangeRelay", "Change the relay point with the code"),
      handler(ctx) {
        return this.answerChangePage(ctx, respondToChange);
      }
    })
  },

  methods: {
    /**
     * A 302 from the SMS' link to the page in the recipient's language: `/t/{number}` to the public
     * page, `/t/{pass token}` (the pick-up SMS's, lib/pass-link.ts) to the page with the pickup pass.
     */
    async followShortLink(this: TrackingPageThis, ctx: Context<Record<string, unknown>, PageMeta>): Promise<string> {
      const typed = typeof ctx.params.trackingNumber === "string" ? ctx.params.trackingNumber : "";
      const typedNumber = parseTrackingInput(typed);
      const tokenNumber = typedNumber.ok ? null : trackingNumberOfToken(typed);
      const number = tokenNumber === null ? typedNumber : parseTrackingInput(tokenNumber);
      const known = number.ok ? await call(ctx, "parcels.recipientLanguageOf", { trackingNumber: number.trackingNumber }) : null;
      const lang = known?.lang ?? undefined;
      const shown = number.ok ? number.trackingNumber : typed;
      ctx.meta.$statusCode = 302;
      ctx.meta.$responseHeaders = {
        Location: tokenNumber !== null ? passPagePath(shown, typed, lang) : trackingPagePath(shown, lang),
        "Cache-Control": "no-store",
        "Referrer-Policy": "no-referrer"
      };
      return "";
    },

    async answerChangePage(
      this: TrackingPageThis,
      ctx: Context<Record<string, unknown>, PageMeta>,
      respond: (request: ChangeRequest, deps: ChangeDeps) => Promise<TrackingPageResponse>
    ): Promise<string> {
      const client = ctx.meta.client ?? { address: "unknown", acceptLanguage: null };
      const { trackingNumber: typed, ...fields } = ctx.params;
      const answer = await respond(
        {
          typed: typeof typed === "string" ? typed : "",
          fields: queryOf(fields),
          acceptLanguage: client.acceptLanguage,
          limit: () => this.consumePublicLimit(client.address),
          formToken: action => this.formTokens.issue(action),
          brand: this.config.brand
        },
        {
          lookup: trackingNumber => call(ctx, "parcels.trackingPage", { trackingNumber }),
          search: async query => (await call(ctx, "parcels.searchRelayPoints", { ...query, page: 0, size: 50 })).items,
          requestCode: trackingNumber => call(ctx, "parcels.requestRedirectCode", { trackingNumber }),
          redirect: request => call(ctx, "parcels.recipientRedirect", request)
        }
      );
      return answerWith(ctx, answer);
    },

    async answerTrackingPage(
      this: TrackingPageThis,
      ctx: Context<Record<string, unknown>, PageMeta>,
      path: string,
      params: Record<string, unknown>
    ): Promise<string> {
      const client = ctx.meta.client ?? { address: "unknown", acceptLanguage: null };
      const answer = await respondToTrackingPage(
        {
          path,
          query: queryOf(params),
          acceptLanguage: client.acceptLanguage,
          limit: () => this.consumePublicLimit(client.address),
          formToken: action => this.formTokens.issue(action),
          brand: this.config.brand
        },
        trackingNumber => call(ctx, "parcels.trackingPage", { trackingNumber }),
        (trackingNumber, key) => call(ctx, "parcels.pickupPass", { trackingNumber, key })
      );
      return answerWith(ctx, answer);
    }
  }
};

export const TrackingPageMixin = mixin as Partial<ServiceSchema>;
