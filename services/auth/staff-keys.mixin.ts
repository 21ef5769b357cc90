import { randomUUID } from "node:crypto";
import type { Logger, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import { call } from "../../lib/contract";
import type { Database } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { generateStaffKey, StaffPrincipal } from "../../lib/staff-keys";
import type { NewStaffKey, StaffKeyRecord } from "./auth.contract";
import {
  CreateStaffKeyParams,
  CreateStaffKeySchema,
  ListStaffKeysParams,
  ListStaffKeysSchema,
  NewStaffKeyView,
  ResolveStaffKeyParams,
  ResolveStaffKeySchema,
  StaffKeyIdParams,
  StaffKeyIdSchema,
  StaffKeyView
} from "./staff-keys.params";
import * as store from "./staff-keys.store";

interface StaffKeysThis {
  db: Database;
  logger: Logger;
}

/**
 * Issue 44: keys of couriers' phones and hubs' sort stations, beside agent keys and like them:
 * named, listed, revoked at once (the gateway asks on every request). Couriers and hubs are the
 * logistics service's: a key is made only for one it knows, and carries its hub.
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, StaffKeysThis>> = {
  actions: {
    createStaffKey: defineAction<CreateStaffKeyParams, StaffKeysThis>({
      rest: "POST /staff-keys",
      api: "backoffice",
      schema: CreateStaffKeySchema,
      endpoint: {
        operationId: "createStaffKey",
        summary: "Create a courier's or a hub's key (shown once)",
        description:
          "A key for a courier's phone (role courier: the courier API) or a hub's sort station (role hub: the hub API), for " +
          "one courier or hub. The full key is in this answer only: we keep its hash.",
        tag: "Staff keys",
        status: 201,
        response: NewStaffKeyView,
        responseDescription: "Created. `key` is shown here only, never again.",
        errors: ["NOT_FOUND"],
        body: { name: "StaffKeyCreateRequest", description: "The key to create." }
      },
      async handler(ctx): Promise<NewStaffKey> {
        const { hubId } = await call(ctx, "logistics.staffSubject", { role: ctx.params.role, subjectId: ctx.params.subjectId });
        const generated = generateStaffKey();
        const record = await store.insertStaffKey(this.db, {
          id: randomUUID(),
          role: ctx.params.role,
          subjectId: ctx.params.subjectId,
          hubId,
          name: ctx.params.name,
          keyPrefix: generated.keyPrefix,
          keyHash: generated.keyHash
        });
        return { ...record, key: generated.key };
      }
    }),

    listStaffKeys: defineAction<ListStaffKeysParams, StaffKeysThis>({
      rest: "GET /staff-keys",
      api: "backoffice",
      schema: ListStaffKeysSchema,
      endpoint: {
        operationId: "listStaffKeys",
        summary: "List staff keys (without secrets)",
        description: "Staff keys, revoked ones included, newest first (500 at most), optionally of one courier or hub.",
        tag: "Staff keys",
        response: { type: "array", items: StaffKeyView },
        responseDescription: "The keys, newest first."
      },
      handler(ctx): Promise<StaffKeyRecord[]> {
        return store.listStaffKeys(this.db, ctx.params.subjectId);
      }
    }),

    revokeStaffKey: defineAction<StaffKeyIdParams, StaffKeysThis>({
      rest: "DELETE /staff-keys/:keyId",
      api: "backoffice",
      schema: StaffKeyIdSchema,
      endpoint: {
        operationId: "revokeStaffKey",
        summary: "Revoke a staff key",
        description: "The key stops working on the very next request, in every gateway.",
        tag: "Staff keys",
        status: 204,
        responseDescription: "Revoked (also when it already was).",
        errors: ["NOT_FOUND"]
      },
      async handler(ctx) {
        if (!(await store.revokeStaffKey(this.db, ctx.params.keyId))) throw new AppError("NOT_FOUND", "Staff key not found");
        return null;
      }
    }),

    /** The gateway asks on every courier- and hub-API request, with the hash only. */
    resolveStaffKey: defineAction<ResolveStaffKeyParams, StaffKeysThis>({
      visibility: "public",
      schema: ResolveStaffKeySchema,
      handler(ctx): Promise<StaffPrincipal | null> {
        return store.findActiveStaff(this.db, ctx.params.keyHash);
      }
    })
  }
};

export const StaffKeysMixin = mixin as Partial<ServiceSchema>;
