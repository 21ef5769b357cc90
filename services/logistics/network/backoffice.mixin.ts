import { randomUUID } from "node:crypto";
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { encryptField } from "../../../lib/crypto";
import { isUniqueViolation } from "../../../lib/db/unique-violation";
import { AppError } from "../../../lib/errors";
import { NoParams, NoParamsSchema } from "../../../lib/schemas";
import type { LogisticsThis } from "../logistics-this";
import {
  CourierView,
  CourierViewSchema,
  CreateCourierParams,
  CreateCourierSchema,
  CreateHubParams,
  CreateHubSchema,
  CustodyEntry,
  CustodyViewSchema,
  HubView,
  ParcelIdParams,
  ParcelIdSchema,
  HubWilayaParams,
  HubWilayaSchema,
  StaffSubjectParams,
  StaffSubjectSchema
} from "./network.params";
import { trailOf } from "./custody-trail";
import * as store from "./network.store";

const courierView = (c: store.CourierRecord): CourierView => ({
  id: c.id,
  firstName: c.firstName,
  lastName: c.lastName,
  homeHubId: c.homeHubId,
  active: c.active,
  createdAt: c.createdAt
});

/** The back-office's side of the network (issue 44 C): hubs, couriers, and a parcel's custody trail. */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, LogisticsThis>> = {
  actions: {
    createHub: defineAction<CreateHubParams, LogisticsThis>({
      rest: "POST /hubs",
      api: "backoffice",
      schema: CreateHubSchema,
      endpoint: {
        operationId: "createHub",
        summary: "Create a hub",
        description: "A sort centre: its code (printed on its bins), wilaya, name and address. A code already taken is 409.",
        tag: "Network",
        status: 201,
        response: HubView,
        responseDescription: "Created.",
        errors: ["CONFLICT"],
        body: { name: "HubCreateRequest", description: "The hub." }
      },
      async handler(ctx): Promise<store.Hub> {
        try {
          return await store.insertHub(this.db, { id: randomUUID(), ...ctx.params });
        } catch (err) {
          if (isUniqueViolation(err)) throw new AppError("CONFLICT", `A hub ${ctx.params.code} exists already`);
          throw err;
        }
      }
    }),

    listHubs: defineAction<NoParams, LogisticsThis>({
      rest: "GET /hubs",
      api: "backoffice",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "listHubs",
        summary: "List hubs",
        description: "Every hub, by code.",
        tag: "Network",
        response: { type: "array", items: HubView },
        responseDescription: "By code."
      },
      handler(): Promise<store.Hub[]> {
        return store.listHubs(this.db);
      }
    }),

    createCourier: defineAction<CreateCourierParams, LogisticsThis>({
      rest: "POST /couriers",
      api: "backoffice",
      schema: CreateCourierSchema,
      endpoint: {
        operationId: "createCourier",
        summary: "Create a courier",
        description: "A courier and the hub they start from; the phone is kept encrypted and never shown.",
        tag: "Network",
        status: 201,
        response: CourierViewSchema,
        responseDescription: "Created.",
        errors: ["NOT_FOUND"],
        body: { name: "CourierCreateRequest", description: "The courier." }
      },
      async handler(ctx): Promise<CourierView> {
        if (!(await store.findHub(this.db, ctx.params.homeHubId))) throw new AppError("NOT_FOUND", "No such hub");
        const { phone, ...rest } = ctx.params;
        return courierView(
          await store.insertCourier(this.db, { id: randomUUID(), ...rest, phoneEnc: encryptField(phone, this.encryptionKey) })
        );
      }
    }),

    listCouriers: defineAction<NoParams, LogisticsThis>({
      rest: "GET /couriers",
      api: "backoffice",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "listCouriers",
        summary: "List couriers",
        description: "Every courier with their home hub, oldest first; never their phone.",
        tag: "Network",
        response: { type: "array", items: CourierViewSchema },
        responseDescription: "Oldest first."
      },
      async handler(): Promise<CourierView[]> {
        return (await store.listCouriers(this.db)).map(courierView);
      }
    }),

    getCustody: defineAction<ParcelIdParams, LogisticsThis>({
      rest: "GET /parcels/:id/custody",
      api: "backoffice",
      schema: ParcelIdSchema,
      endpoint: {
        operationId: "getParcelCustody",
        summary: "A parcel's custody trail",
        description: "Who held the parcel, from when, handed over by whom: one entry per hand-off, both sides of it, oldest first.",
        tag: "Network",
        response: CustodyViewSchema,
        responseDescription: "The trail (empty before the first scan)."
      },
      async handler(ctx): Promise<{ parcelId: string; trail: CustodyEntry[] }> {
        const scans = await store.scansOf(this.db, ctx.params.id);
        return {
          parcelId: ctx.params.id,
          trail: trailOf(
            scans.map(s => ({
              holder: s.holderKind,
              holderId: s.holderId,
              since: s.occurredAt,
              givenBy: s.giverKind,
              givenById: s.giverId,
              scan: s.kind,
              hubId: s.hubId,
              confirmedBy: s.confirmedBy
            }))
          )
        };
      }
    }),

    staffSubject: defineAction<StaffSubjectParams, LogisticsThis>({
      visibility: "public",
      schema: StaffSubjectSchema,
      async handler(ctx): Promise<{ hubId: string; name: string }> {
        if (ctx.params.role === "hub") {
          const hub = await store.findHub(this.db, ctx.params.subjectId);
          if (!hub) throw new AppError("NOT_FOUND", "No such hub");
          return { hubId: hub.id, name: hub.name };
        }
        const courier = await store.findCourier(this.db, ctx.params.subjectId);
        if (!courier) throw new AppError("NOT_FOUND", "No such courier");
        return { hubId: courier.homeHubId, name: `${courier.firstName} ${courier.lastName}` };
      }
    }),

    // call logistics.hubWilaya --hubId <uuid>
    hubWilaya: defineAction<HubWilayaParams, LogisticsThis>({
      visibility: "public",
      schema: HubWilayaSchema,
      async handler(ctx): Promise<{ wilaya: string }> {
        const hub = await store.findHub(this.db, ctx.params.hubId);
        if (!hub) throw new AppError("NOT_FOUND", "No such hub");
        return { wilaya: hub.wilaya };
      }
    })
  }
};

export const NetworkBackofficeMixin = mixin as Partial<ServiceSchema>;
