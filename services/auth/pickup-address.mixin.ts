import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import type { Database } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import type { ObjectSchema } from "joi";
import { nullable, objectOf } from "../../lib/openapi/json-schema";
import { type PickupAddress, PickupAddressJsonSchema, PickupAddressSchema } from "../../lib/pickup-address";
import type { PartnerMeta } from "../../lib/principal";
import { NoParams, NoParamsSchema, uuid } from "../../lib/schemas";
import { OrganizationIdParams, OrganizationIdSchema } from "./auth.params";
import * as orgs from "./auth.store";
import * as store from "./pickup-address.store";

interface PickupAddressThis {
  db: Database;
}

type AddressOfParams = OrganizationIdParams;
const AddressOfSchema = OrganizationIdSchema;

type SetParams = PickupAddress & { organizationId?: string };
const SetSchema = (PickupAddressSchema as ObjectSchema<SetParams>).keys({ organizationId: uuid().required() });

interface AddressView {
  address: PickupAddress | null;
}
const VIEW = objectOf<AddressView>(
  { address: nullable({ ...PickupAddressJsonSchema, description: "The stored pickup address; null while none is stored." }) },
  { description: "The organisation's pickup address." }
);

const DESCRIPTION =
  "Where couriers collect your parcels unless a pickup says otherwise: POST /pickups without `address` uses it (copied into " +
  "the pickup, so a later change moves no booked pickup).";

async function existing(db: Database, organizationId: string): Promise<void> {
  if (!(await orgs.findOrganization(db, organizationId))) throw new AppError("ORGANIZATION_NOT_FOUND", "Organization not found");
}

/** Issue 44 B (decision 0054): the organisation's stored pickup address, for the merchant and the back-office. */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, PickupAddressThis>> = {
  actions: {
    /** From logistics, at a booking without an address. */
    pickupAddress: defineAction<AddressOfParams, PickupAddressThis>({
      schema: AddressOfSchema,
      async handler(ctx): Promise<{ address: PickupAddress | null }> {
        return { address: await store.findPickupAddress(this.db, ctx.params.organizationId) };
      }
    }),

    getOwnPickupAddress: defineAction<NoParams, PickupAddressThis, PartnerMeta>({
      rest: "GET /organization/pickup-address",
      api: "partner",
      scope: "parcels:read",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "getPickupAddress",
        summary: "Read your stored pickup address",
        description: DESCRIPTION,
        tag: "Pickups",
        response: VIEW,
        responseDescription: "The address, or null."
      },
      async handler(ctx): Promise<AddressView> {
        return { address: await store.findPickupAddress(this.db, ctx.meta.auth.organizationId) };
      }
    }),

    setOwnPickupAddress: defineAction<SetParams, PickupAddressThis, PartnerMeta>({
      rest: "PUT /organization/pickup-address",
      api: "partner",
      scope: "parcels:write",
      schema: PickupAddressSchema,
      endpoint: {
        operationId: "setPickupAddress",
        summary: "Store your pickup address",
        description: `${DESCRIPTION} Replaces the one stored; the same for live and sandbox keys.`,
        tag: "Pickups",
        response: VIEW,
        responseDescription: "Stored.",
        body: { name: "PickupAddressRequest", description: "The address." }
      },
      async handler(ctx): Promise<AddressView> {
        const { line1, city, wilaya } = ctx.params;
        await store.storePickupAddress(this.db, ctx.meta.auth.organizationId, { line1, city, wilaya });
        return { address: { line1, city, wilaya } };
      }
    }),

    getPickupAddress: defineAction<AddressOfParams, PickupAddressThis>({
      rest: "GET /organizations/:organizationId/pickup-address",
      api: "backoffice",
      schema: AddressOfSchema,
      endpoint: {
        operationId: "getOrganizationPickupAddress",
        summary: "Read an organisation's pickup address",
        description: DESCRIPTION,
        tag: "Organisations",
        response: VIEW,
        responseDescription: "The address, or null.",
        errors: ["ORGANIZATION_NOT_FOUND"]
      },
      async handler(ctx): Promise<AddressView> {
        await existing(this.db, ctx.params.organizationId);
        return { address: await store.findPickupAddress(this.db, ctx.params.organizationId) };
      }
    }),

    setPickupAddress: defineAction<SetParams, PickupAddressThis>({
      rest: "PUT /organizations/:organizationId/pickup-address",
      api: "backoffice",
      schema: SetSchema,
      endpoint: {
        operationId: "setOrganizationPickupAddress",
        summary: "Store an organisation's pickup address",
        description: `${DESCRIPTION} Replaces the one stored.`,
        tag: "Organisations",
        response: VIEW,
        responseDescription: "Stored.",
        errors: ["ORGANIZATION_NOT_FOUND"],
        body: { name: "OrganizationPickupAddressRequest", description: "The address." }
      },
      async handler(ctx): Promise<AddressView> {
        const organizationId = ctx.params.organizationId!;
        await existing(this.db, organizationId);
        const { line1, city, wilaya } = ctx.params;
        await store.storePickupAddress(this.db, organizationId, { line1, city, wilaya });
        return { address: { line1, city, wilaya } };
      }
    })
  }
};

export const PickupAddressMixin = mixin as Partial<ServiceSchema>;
