import type { KeyMode, Scope } from "../../lib/api-keys";
import type { Principal } from "../../lib/principal";

/** What other services (and the gateway) call `auth` with, and what it answers. Types only. */

export interface Organization {
  id: string;
  name: string;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  name: string | null;
  mode: KeyMode;
  keyPrefix: string;
  scopes: Scope[];
  rateLimitPerMinute: number | null;
  createdAt: string;
  revokedAt: string | null;
}

/** A new key: the record, and the key itself, which exists outside the caller's hands only in this answer. */
export type NewApiKey = ApiKeyRecord & { key: string };

export interface CreateApiKeyInput {
  organizationId: string;
  mode: KeyMode;
  scopes?: Scope[];
  name?: string | null;
  rateLimitPerMinute?: number | null;
}

declare module "../../lib/contract" {
  interface ActionContracts {
    /** Every partner request, from the gateway: the key's hash, never the key. */
    "auth.resolveKey": { params: { keyHash: string }; answer: Principal | null };
    "auth.getOrganization": { params: { organizationId: string }; answer: Organization };
    "auth.createOrganization": { params: { name: string }; answer: Organization };
    "auth.createApiKey": { params: CreateApiKeyInput; answer: NewApiKey };
  }
}
