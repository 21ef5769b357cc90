import type { KeyMode, Scope } from "./api-keys";

/** Who is calling, as resolved from an API key; travels in `ctx.meta.auth` to every service. */
export interface Principal {
  keyId: string;
  keyPrefix: string;
  organizationId: string;
  organizationName: string;
  mode: KeyMode;
  scopes: Scope[];
  rateLimitPerMinute: number | null;
}

export interface PartnerMeta {
  auth: Principal;
}
