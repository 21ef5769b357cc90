import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { ParcelPage, ParcelPageSchema, ParcelView, ParcelViewSchema, pageOf } from "../../../lib/parcel-view";
import type { PartnerMeta } from "../../../lib/principal";
import { freshLabelUrls } from "../../../mixins/label-urls";
import { ParcelEventView, redirectHistoryLine, toParcelEventView } from "../parcel-events";
import { toParcelView } from "../parcel-view";
import {
  IdParams,
  IdSchema,
  ListParams,
  ListSchema,
  PARCELS_PATH,
  ParcelEventsView,
  TrackingParams,
  TrackingSchema
} from "../parcels.params";
import * as store from "../parcels.store";
import { decodeCursor, encodeCursor } from "../list-cursor";
import { redirectsOf } from "../redirect/redirect.store";
import { VisibleParcelCache } from "../visible-parcel-cache";
import { PARCEL_NOT_FOUND, ParcelsThis } from "../parcels-this";

/** A partner reading its parcels: the list, one parcel by id or tracking number, and its history. */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, ParcelsThis>> = {
  actions: {
    list: defineAction<ListParams, ParcelsThis, PartnerMeta>({
      rest: `GET ${PARCELS_PATH}`,
      api: "partner",
      scope: "parcels:read",
      schema: ListSchema,
      endpoint: {
        operationId: "listParcels",
        summary: "List parcels",
        description:
          "The parcels of the key's organisation (live or sandbox, as the key), newest first, one page at a time. Other query parameters are ignored. " +
          "To walk the whole list (an export, a synchronisation), follow `nextCursor` with `after`: every page then costs the same, " +
          "where a deep `page` number costs more the deeper it is, and a parcel created meanwhile neither shifts nor repeats a page.",
        tag: "Parcels",
        response: ParcelPageSchema,
        responseDescription: "A page of parcels."
      },
      async handler(ctx): Promise<ParcelPage> {
        const { status, direction, page, size, after } = ctx.params;
        // With a cursor, the page number is ignored: the page counts from the cursor (0).
        const position = after === null ? null : decodeCursor(after);
        const filter = { status, direction, page: position ? 0 : page, size, after: position };
        const { records, total, next } = await store.listVisible(this.db, this.owner(ctx), filter);
        return { ...pageOf(await this.viewsOf(ctx, records), filter.page, size, total), nextCursor: next && encodeCursor(next) };
      }
    }),

    get: defineAction<IdParams, ParcelsThis, PartnerMeta>({
      rest: "GET /parcels/:id",
      api: "partner",
      scope: "parcels:read",
      schema: IdSchema,
      endpoint: {
        operationId: "getParcel",
        summary: "Read a parcel",
        description: "A parcel of the key's organisation, with a fresh label URL. Another organisation's parcel is reported as not found.",
        tag: "Parcels",
        response: ParcelViewSchema,
        responseDescription: "The parcel.",
        errors: ["PARCEL_NOT_FOUND"]
      },
      async handler(ctx) {
        this.visibleCache ??= new VisibleParcelCache(this.db);
        const parcel = await this.visibleCache.find(this.owner(ctx), ctx.params.id);
        if (!parcel) throw PARCEL_NOT_FOUND();
        return (await this.viewsOf(ctx, [parcel]))[0];
      }
    }),

    events: defineAction<IdParams, ParcelsThis, PartnerMeta>({
      rest: "GET /parcels/:id/events",
      api: "partner",
      scope: "parcels:read",
      schema: IdSchema,
      endpoint: {
        operationId: "listParcelEvents",
        summary: "List a parcel's events",
        description:
          "Every status a parcel of the key's organisation went through, oldest first, with the note given and who made the change. " +
          "Another organisation's parcel, or one of the other mode, is reported as not found.",
        tag: "Parcels",
        response: ParcelEventsView,
        responseDescription: "The parcel's history.",
        errors: ["PARCEL_NOT_FOUND"]
      },
      async handler(ctx): Promise<{ items: ParcelEventView[] }> {
        const parcel = await this.visibleOrNotFound(ctx, { id: ctx.params.id });
        const [history, redirects] = await Promise.all([store.parcelHistory(this.db, parcel.id), redirectsOf(this.db, parcel.id)]);
        const lines = [...history, ...redirects.map(redirectHistoryLine)].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
        return { items: lines.map(toParcelEventView).filter((event): event is ParcelEventView => event !== null) };
      }
    }),

    getByTracking: defineAction<TrackingParams, ParcelsThis, PartnerMeta>({
      rest: "GET /parcels/by-tracking/:trackingNumber",
      api: "partner",
      scope: "parcels:read",
      schema: TrackingSchema,
      endpoint: {
        operationId: "getParcelByTracking",
        summary: "Find a parcel by tracking number",
        description:
          "Looks the tracking number up among the organisation's parcels (case and surrounding spaces do not matter). " +
          "`by-tracking` is a literal segment, tried before any parcel id.",
        tag: "Parcels",
        response: ParcelViewSchema,
        responseDescription: "The parcel.",
        errors: ["PARCEL_NOT_FOUND"]
      },
      async handler(ctx) {
        const parcel = await this.visibleOrNotFound(ctx, { trackingNumber: ctx.params.trackingNumber.trim().toUpperCase() });
        return (await this.viewsOf(ctx, [parcel]))[0];
      }
    })
  },

  methods: {
    async visibleOrNotFound(this: ParcelsThis, ctx: Context<unknown, PartnerMeta>, by: { id: string } | { trackingNumber: string }) {
      const parcel = await store.findVisible(this.db, this.owner(ctx), by);
      if (!parcel) throw PARCEL_NOT_FOUND();
      return parcel;
    },

    /** Views with a fresh pre-signed label URL each, or null when the labels service cannot answer right now (SPEC §2.1). */
    async viewsOf(this: ParcelsThis, ctx: Context, parcels: store.ParcelRecord[]): Promise<ParcelView[]> {
      if (parcels.length === 0) return [];
      const urls = await freshLabelUrls(
        ctx,
        this.broker,
        parcels.map(p => p.id)
      );
      return parcels.map(parcel => toParcelView(parcel, urls[parcel.id] ?? null));
    }
  }
};

export const ReadsMixin = mixin as Partial<ServiceSchema>;
