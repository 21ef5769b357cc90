import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import { PublicTracking, TrackingPageParcel, toPublicTracking, toTrackingPageParcel } from "../../lib/public-tracking";
import { parseTrackingInput } from "../../lib/tracking-number";
import * as store from "./parcels.store";
import { PUBLIC_TRACKING_DESCRIPTION, PublicTrackingParams, PublicTrackingSchema, PublicTrackingView } from "./public-tracking.params";
import { PARCEL_NOT_FOUND, ParcelsThis } from "./parcels-this";

/** Public tracking: the API's, without a key, and what the gateway's /track pages show. */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, ParcelsThis>> = {
  actions: {
    publicTracking: defineAction<PublicTrackingParams, ParcelsThis>({
      rest: "GET /tracking/:trackingNumber",
      api: "public",
      schema: PublicTrackingSchema,
      endpoint: {
        operationId: "trackParcel",
        summary: "Track a parcel (public, no key)",
        description: PUBLIC_TRACKING_DESCRIPTION,
        tag: "Public tracking",
        response: PublicTrackingView,
        responseDescription: "Where the parcel is.",
        errors: ["PARCEL_NOT_FOUND"]
      },
      async handler(ctx): Promise<PublicTracking> {
        const tracking = await this.publicSourceOf(ctx.params.trackingNumber).then(source => source && toPublicTracking(source));
        if (!tracking) throw PARCEL_NOT_FOUND();
        return tracking;
      }
    }),

    // For the gateway's /track pages: the public view with what a page adds (Arabic names, position).
    trackingPage: defineAction<PublicTrackingParams, ParcelsThis>({
      visibility: "public",
      schema: PublicTrackingSchema,
      async handler(ctx): Promise<TrackingPageParcel | null> {
        const source = await this.publicSourceOf(ctx.params.trackingNumber, { journey: true });
        return source && toTrackingPageParcel(source);
      }
    })
  },

  methods: {
    /** What public tracking reads of a parcel, from a number as people type it; null when there is nothing to show. */
    async publicSourceOf(this: ParcelsThis, typed: string, options: { journey?: boolean } = {}) {
      const parsed = parseTrackingInput(typed);
      return parsed.ok ? store.publicTrackingSource(this.db, parsed.trackingNumber, options) : null;
    }
  }
};

export const PublicTrackingMixin = mixin as Partial<ServiceSchema>;
