import { Joi } from "../../lib/joi";
import { component, dateTime, nullable, objectOf, uuidSchema } from "../../lib/openapi/json-schema";
import type { JsonSchema } from "../../lib/openapi/types";
import { uuid } from "../../lib/schemas";
import { STAFF_KEY_PREFIX, STAFF_KEY_PREFIX_PATTERN, STAFF_ROLES, StaffRole } from "../../lib/staff-keys";
import type { NewStaffKey, StaffKeyRecord } from "./auth.contract";

/** Staff keys (issue 44): the back-office's params and answers. */

export interface CreateStaffKeyParams {
  role: StaffRole;
  subjectId: string;
  name: string | null;
}
export const CreateStaffKeySchema = Joi.object<CreateStaffKeyParams, true>({
  role: Joi.string()
    .valid(...STAFF_ROLES)
    .required()
    .description("courier: opens the courier API; hub: opens the hub API."),
  subjectId: uuid().required().description("The courier's id (role courier) or the hub's id (role hub)."),
  name: Joi.string().trim().max(100).allow(null).default(null).description("A label for the key (the device), at most 100 characters.")
});

export interface ListStaffKeysParams {
  subjectId: string | null;
}
export const ListStaffKeysSchema = Joi.object<ListStaffKeysParams, true>({
  subjectId: uuid().allow(null).default(null).description("Only the keys of this courier or hub.")
}).unknown(true);

export interface StaffKeyIdParams {
  keyId: string;
}
export const StaffKeyIdSchema = Joi.object<StaffKeyIdParams, true>({ keyId: uuid().required().description("Staff key id (uuid).") });

export interface ResolveStaffKeyParams {
  keyHash: string;
}
export const ResolveStaffKeySchema = Joi.object<ResolveStaffKeyParams, true>({ keyHash: Joi.string().hex().length(64).required() });

const fields = {
  id: uuidSchema(),
  role: { type: "string", enum: [...STAFF_ROLES] } as JsonSchema,
  subjectId: uuidSchema("The courier or the hub."),
  hubId: uuidSchema("The hub the key belongs to: the courier's home hub, or the hub itself."),
  name: { type: ["string", "null"] } as JsonSchema,
  keyPrefix: { type: "string", pattern: STAFF_KEY_PREFIX_PATTERN, description: "Readable start of the key." } as JsonSchema,
  createdAt: dateTime("Creation time, UTC."),
  revokedAt: nullable(dateTime("Revocation time, UTC; null while the key works."))
};

export const StaffKeyView = component("StaffKey", objectOf<StaffKeyRecord>(fields));
export const NewStaffKeyView = component(
  "NewStaffKey",
  objectOf<NewStaffKey>({
    ...fields,
    key: { type: "string", pattern: "^rp_staff_[A-Za-z0-9]{40}$", description: "The key itself: shown only in this answer." }
  })
);

export const STAFF_KEYS_TAG = {
  name: "Staff keys",
  description: `Keys of couriers' phones and hubs' sort stations (prefix \`${STAFF_KEY_PREFIX}\`): created (and shown) once, revoked at once.`
};
