import { MAX_MONEY_DZD } from "../../lib/money";

/** An organisation of the system under test, with one key of each mode and funded wallets. */
export interface Merchant {
  organizationId: string;
  liveKey: string;
  sandboxKey: string;
}

export const CREATE_BODY = JSON.stringify({
  recipientName: "Amina Benali",
  recipientPhone: "+213 555 12 34 56",
  weightG: 900,
  destinationRelayCode: "DZ-16-ALGER-CENTRE"
});

/** A bench key is never the thing being limited. */
const KEY_RATE_LIMIT = 1_000_000;

export async function backoffice<T>(baseUrl: string, token: string, method: string, path: string, body?: object): Promise<T> {
  const res = await fetch(`${baseUrl}/api/backoffice/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`back-office ${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

export async function partner<T>(
  baseUrl: string,
  key: string,
  method: string,
  path: string,
  body?: string
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl}/api/partner/v1${path}`, {
    method,
    headers: { Authorization: `ApiKey ${key}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Tops a wallet up by `amountDzd`, in as many top-ups as the per-call bound requires. */
export async function fund(
  baseUrl: string,
  token: string,
  organizationId: string,
  mode: "live" | "sandbox",
  amountDzd: number
): Promise<void> {
  for (let left = amountDzd; left > 0; left -= MAX_MONEY_DZD) {
    await backoffice(baseUrl, token, "POST", `/organizations/${organizationId}/wallet/top-ups`, {
      amountDzd: Math.min(left, MAX_MONEY_DZD),
      mode
    });
  }
}

export async function createMerchant(baseUrl: string, token: string, name: string, fundsDzd: number): Promise<Merchant> {
  const org = await backoffice<{ id: string }>(baseUrl, token, "POST", "/organizations", { name });
  return merchantOf(baseUrl, token, org.id, fundsDzd);
}

/** An organisation that exists (a kept seed's), with new keys and its wallets topped up. */
export async function merchantOf(baseUrl: string, token: string, organizationId: string, fundsDzd: number): Promise<Merchant> {
  const org = { id: organizationId };
  const key = (mode: "live" | "sandbox") =>
    backoffice<{ key: string }>(baseUrl, token, "POST", `/organizations/${org.id}/api-keys`, {
      mode,
      rateLimitPerMinute: KEY_RATE_LIMIT
    });
  const live = await key("live");
  const sandbox = await key("sandbox");
  await fund(baseUrl, token, org.id, "live", fundsDzd);
  await fund(baseUrl, token, org.id, "sandbox", fundsDzd);
  return { organizationId: org.id, liveKey: live.key, sandboxKey: sandbox.key };
}

export interface CreatedParcel {
  id: string;
  trackingNumber: string;
  labelUrl: string | null;
}

export async function createParcel(baseUrl: string, key: string, body: string = CREATE_BODY): Promise<CreatedParcel> {
  const res = await partner<CreatedParcel>(baseUrl, key, "POST", "/parcels", body);
  if (res.status !== 201) throw new Error(`POST /parcels answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
