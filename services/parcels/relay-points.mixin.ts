import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import { RELAY_POINTS_PATH } from "../../lib/endpoint";
import { AppError } from "../../lib/errors";
import { Page } from "../../lib/parcel-view";
import type { PartnerMeta } from "../../lib/principal";
import { positionProblems } from "../../lib/relay-points";
import { NoParams, NoParamsSchema, RelayCodeParams, RelayCodeSchema } from "./parcels.params";
import * as store from "./parcels.store";
import {
  RELAY_POINT_DESCRIPTION,
  RELAY_SEARCH_DESCRIPTION,
  RelayPointListView,
  RelayPointPageView,
  RelayPointParams,
  RelayPointSchema,
  RelayPointSearchQuery,
  RelayPointSearchSchema,
  RelayPointView
} from "./relay-points.params";
import { RelayPointResult, relaySearchProblems } from "./relay-search";
import { placeRelayPoint } from "./relay-place";
import { ClosureStatus, withClosureStatus } from "./relay/closures";
import { RelayPointWithSettings, setRelaySettings, withRelaySettings } from "./relay/relay-settings";
import { refuseProblems, ParcelsThis } from "./parcels-this";

/** The relay-point directory: the back office's list and upsert, the partner's search, and the one point other services read. */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, ParcelsThis>> = {
  actions: {
    listRelayPoints: defineAction<NoParams, ParcelsThis>({
      rest: `GET ${RELAY_POINTS_PATH}`,
      api: "backoffice",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "listRelayPoints",
        summary: "List the relay-point directory",
        description: "The relay points parcels may be sent to, active or not.",
        tag: "Relay points",
        response: RelayPointListView,
        responseDescription: "Every relay point, by code."
      },
      async handler(): Promise<RelayPointWithSettings[]> {
        return withRelaySettings(this.db, await store.listRelayPoints(this.db), this.config.holdingDays);
      }
    }),

    upsertRelayPoint: defineAction<RelayPointParams, ParcelsThis>({
      rest: `POST ${RELAY_POINTS_PATH}`,
      api: "backoffice",
      schema: RelayPointSchema,
      endpoint: {
        operationId: "upsertRelayPoint",
        summary: "Add or replace a relay point",
        description: RELAY_POINT_DESCRIPTION,
        tag: "Relay points",
        status: 201,
        errors: ["COMMUNE_NOT_IN_WILAYA"],
        location: { action: "parcels.listRelayPoints", params: {} },
        response: RelayPointView,
        responseDescription: "Stored.",
        body: { name: "RelayPointRequest", description: "The relay point." }
      },
      async handler(ctx): Promise<RelayPointWithSettings> {
        refuseProblems(positionProblems(ctx.params));
        const { capacity, holdingDays, formerWilaya, ...point } = ctx.params;
        const place = placeRelayPoint({ ...point, formerWilaya });
        const stored = await this.db.transaction(async tx => {
          const entry = await store.upsertRelayPoint(tx, { ...point, ...place });
          await setRelaySettings(tx, entry.code, { capacity, holdingDays });
          return entry;
        });
        return { ...stored, capacity, holdingDays: holdingDays ?? this.config.holdingDays };
      }
    }),

    // The partner API's search, on the same path as the back-office directory under its own base.
    searchRelayPoints: defineAction<RelayPointSearchQuery, ParcelsThis, PartnerMeta>({
      rest: `GET ${RELAY_POINTS_PATH}`,
      api: "partner",
      scope: "parcels:read",
      schema: RelayPointSearchSchema,
      endpoint: {
        operationId: "searchRelayPoints",
        summary: "Search relay points",
        description: RELAY_SEARCH_DESCRIPTION,
        tag: "Relay points",
        response: RelayPointPageView,
        responseDescription: "A page of active relay points."
      },
      async handler(ctx): Promise<Page<RelayPointWithSettings<RelayPointResult> & ClosureStatus>> {
        refuseProblems(relaySearchProblems(ctx.params));
        const found = await store.searchRelayPoints(this.db, ctx.params);
        const items = await withRelaySettings(this.db, found.items, this.config.holdingDays);
        return { ...found, items: await withClosureStatus(this.db, items) };
      }
    }),

    relayPoint: defineAction<RelayCodeParams, ParcelsThis>({
      visibility: "public",
      schema: RelayCodeSchema,
      async handler(ctx) {
        const relay = await store.findRelayPoint(this.db, ctx.params.code);
        if (!relay) throw new AppError("RELAY_NOT_FOUND", `Relay point ${ctx.params.code} does not exist`);
        return relay;
      }
    })
  }
};

export const RelayPointsMixin = mixin as Partial<ServiceSchema>;
