import { hashApiKey, NewKey, randomBase62 } from "./api-keys";

/**
 * Issue 44: keys of the network's staff and devices, a courier's phone or a hub's sort station.
 * Their own prefix, like agent keys: a staff key opens the courier API or the hub API (its role's
 * only) and nothing else. Shared by `auth` (which makes and stores them) and the gateway (which reads them).
 */

export const STAFF_KEY_PREFIX = "rp_staff_";
export const STAFF_ROLES = ["courier", "hub"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

const SECRET_LENGTH = 40;
const VISIBLE_SECRET_CHARS = 8;
const STAFF_KEY_SHAPE = /^rp_staff_[A-Za-z0-9]{40}$/;
export const STAFF_KEY_PREFIX_PATTERN = "^rp_staff_[A-Za-z0-9]{8}$";

export function generateStaffKey(): NewKey {
  const key = STAFF_KEY_PREFIX + randomBase62(SECRET_LENGTH);
  return { key, keyPrefix: key.slice(0, STAFF_KEY_PREFIX.length + VISIBLE_SECRET_CHARS), keyHash: hashApiKey(key) };
}

export function isWellFormedStaffKey(key: string): boolean {
  return STAFF_KEY_SHAPE.test(key);
}

/** Who calls the courier or hub API; travels in `ctx.meta.staff`. */
export interface StaffPrincipal {
  keyId: string;
  keyPrefix: string;
  role: StaffRole;
  /** The courier (role courier) or the hub (role hub) the key was made for. */
  subjectId: string;
  /** The hub the key belongs to: the courier's home hub, or the hub itself. */
  hubId: string;
  /** When the key was made (ISO 8601): no scan of the device happened before it. */
  issuedAt: string;
}

export interface StaffMeta {
  staff: StaffPrincipal;
}
