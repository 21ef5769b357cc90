import type { AgentPrincipal } from "../../lib/agent-keys";
import type { KeyMode, Scope } from "../../lib/api-keys";
import type { PickupAddress } from "../../lib/pickup-address";
import type { Principal } from "../../lib/principal";
import type { StaffPrincipal, StaffRole } from "../../lib/staff-keys";

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

/** A relay-agent key as listed: never the key, which only its creation answer holds. */
export interface AgentKeyRecord {
  id: string;
  relayCode: string;
  name: string | null;
  keyPrefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export type NewAgentKey = AgentKeyRecord & { key: string };

/** Issue 44: a staff key as listed: never the key. */
export interface StaffKeyRecord {
  id: string;
  role: StaffRole;
  subjectId: string;
  hubId: string;
  name: string | null;
  keyPrefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export type NewStaffKey = StaffKeyRecord & { key: string };

declare module "../../lib/contract" {
  interface ActionContracts {
    /** Every partner request, from the gateway: the key's hash, never the key. */
    "auth.resolveKey": { params: { keyHash: string }; answer: Principal | null };
    /** Every relay-API request, from the gateway: the agent key's hash, never the key. */
    "auth.resolveAgentKey": { params: { keyHash: string }; answer: AgentPrincipal | null };
    /** Every courier- and hub-API request, from the gateway: the staff key's hash, never the key. */
    "auth.resolveStaffKey": { params: { keyHash: string }; answer: StaffPrincipal | null };
    /** bin/demo.ts: the demo network's keys (the back-office creates them over HTTP). */
    "auth.createStaffKey": { params: { role: StaffRole; subjectId: string; name: string | null }; answer: NewStaffKey };
    "auth.getOrganization": { params: { organizationId: string }; answer: Organization };
    "auth.createOrganization": { params: { name: string }; answer: Organization };
    "auth.createApiKey": { params: CreateApiKeyInput; answer: NewApiKey };
    /** Issue 44 B, from logistics: the organisation's stored pickup address, null when none. */
    "auth.pickupAddress": { params: { organizationId: string }; answer: { address: PickupAddress | null } };
  }
}
