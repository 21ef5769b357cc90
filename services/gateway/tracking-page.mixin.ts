import type { IncomingMessage } from "node:http";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import { call } from "../../lib/contract";
import type { EndpointDocs } from "../../lib/endpoint";
import { clientAddress } from "./http/client-address";
import type { RateDecision } from "./rate-limit";
import { QueryValue, respondToTrackingPage, TRACK_PATH, trackingPagePath } from "./tracking-page";

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
  return { address: clientAddress(req, trustProxyHops), acceptLanguage: typeof language === "string" ? language : null };
}

type PageMeta = {
  client?: PageClient;
  $statusCode?: number;
  $location?: string;
  $responseType?: string;
  $responseHeaders?: Record<string, string>;
};

interface TrackingPageVars {
  consumePublicLimit(address: string): Promise<RateDecision>;
}

interface TrackingPageMethods {
  answerTrackingPage(ctx: Context<Record<string, unknown>, PageMeta>, path: string, query: Record<string, unknown>): Promise<string>;
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
      handler(ctx) {
        const { trackingNumber: typed, ...query } = ctx.params;
        return this.answerTrackingPage(ctx, trackingPagePath(typeof typed === "string" ? typed : ""), query);
      }
    })
  },

  methods: {
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
          limit: () => this.consumePublicLimit(client.address)
        },
        trackingNumber => call(ctx, "parcels.trackingPage", { trackingNumber })
      );
      const { Location: location, ...headers } = answer.headers;
      ctx.meta.$statusCode = answer.status;
      if (location) ctx.meta.$location = location;
      ctx.meta.$responseType = headers["Content-Type"];
      ctx.meta.$responseHeaders = headers;
      return answer.body;
    }
  }
};

export const TrackingPageMixin = mixin as Partial<ServiceSchema>;
