import { backoffice, HttpResult, partner } from "../helpers/http";
import type { SystemUnderTest } from "./gateway-contract";

/** What the merchant-surface contracts share: merchants with funded wallets, parcels, the error check. */

export const PARCEL = {
  recipientName: "Amina Benali",
  recipientPhone: "+213 555 12 34 56",
  weightG: 1200,
  destinationRelayCode: "DZ-16-ALGER-CENTRE"
};

export function expectError(res: HttpResult, status: number, code: string, field?: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers.get("content-type")).toContain("application/json");
  expect(res.body).toEqual(expect.objectContaining({ status, message: expect.any(String) }));
  if (field)
    expect({ fields: res.body.details?.map((d: { field: string }) => d.field) }).toEqual({ fields: expect.arrayContaining([field]) });
}

export interface Merchant {
  orgId: string;
  name: string;
  live: ReturnType<typeof partner>;
  sandbox: ReturnType<typeof partner>;
}

export function merchants(system: () => SystemUnderTest) {
  const bo = () => backoffice(system().baseUrl, system().backofficeToken);
  return {
    bo,
    /** An organisation with a live and a sandbox key (every scope unless told), and wallets topped up. */
    async create(name: string, liveDzd: number, sandboxDzd = 0, scopes?: string[]): Promise<Merchant> {
      const org = await bo().createOrganization(name);
      const liveKey = (await bo().createKey(org.id, { rateLimitPerMinute: 100_000, scopes })).key;
      const sandboxKey = (await bo().createKey(org.id, { mode: "sandbox", rateLimitPerMinute: 100_000, scopes })).key;
      if (liveDzd > 0)
        expect((await bo().call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: liveDzd })).status).toBe(201);
      if (sandboxDzd > 0) {
        const res = await bo().call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: sandboxDzd, mode: "sandbox" });
        expect(res.status).toBe(201);
      }
      return { orgId: org.id, name, live: partner(system().baseUrl, liveKey), sandbox: partner(system().baseUrl, sandboxKey) };
    },
    /** Another key of an organisation, with these scopes only. */
    async keyWith(orgId: string, scopes: string[]) {
      return partner(system().baseUrl, (await bo().createKey(orgId, { scopes, rateLimitPerMinute: 100_000 })).key);
    },
    async move(parcelId: string, ...statuses: string[]): Promise<void> {
      for (const toStatus of statuses) {
        const res = await bo().call("POST", `/parcels/${parcelId}/transitions`, { toStatus, reason: `scan ${toStatus}` });
        expect({ toStatus, status: res.status }).toEqual({ toStatus, status: 200 });
      }
    }
  };
}

/** Polls `read` until `done` holds, for state that another service settles on its own (the pick-up SMS). */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, attempts = 100): Promise<T> {
  let value = await read();
  for (let i = 1; i < attempts && !done(value); i++) {
    await new Promise(resolve => setTimeout(resolve, 150));
    value = await read();
  }
  return value;
}

let addressCounter = 0;

/**
 * A client address of its own for each use, sent as the X-Forwarded-For entry of the one proxy
 * the systems under test trust (TRUST_PROXY_HOPS=1): each test's public lookups count against
 * their own per-address limit.
 */
export function freshAddress(): string {
  addressCounter++;
  return `198.51.${Math.floor(addressCounter / 250) % 250}.${(addressCounter % 250) + 1}`;
}

/** A /64 of its own for each use (documentation space), as `prefix + ":<interface id>"` addresses. */
export function freshIpv6Prefix(): string {
  addressCounter++;
  return `2001:db8:${(addressCounter % 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
}
