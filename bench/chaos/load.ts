import { randomUUID } from "node:crypto";

/** One create as the client saw it: its key, every answer it got, and the parcel of its 201. */
export interface CreateRecord {
  key: string;
  statuses: number[];
  parcelId: string | null;
  trackingNumber: string | null;
  /** performance-free wall clock (Date.now()) of the 201, when there was one. */
  answeredAt: number | null;
}

export interface Answer {
  /** When the request was sent and when it was answered (Date.now()). */
  sentAt: number;
  at: number;
  status: number;
}

export const PARCEL = {
  recipientName: "Chaos Client",
  recipientPhone: "+213 555 12 34 56",
  weightG: 1200,
  destinationRelayCode: "DZ-16-ALGER-CENTRE"
};
/** A client's retry of an unknown outcome: a 5xx, a 429, the key still in use, no answer at all. */
export const retryable = (status: number) => status >= 500 || status === 429 || status === 409 || status === 0;

export interface Reply {
  status: number;
  body: { id?: string; trackingNumber?: string; status?: string };
}

/** One request as a client sends it: status 0 when no answer came (connection lost, 15 s timeout). */
export async function post(url: string, headers: Record<string, string>, body: unknown, method = "POST"): Promise<Reply> {
  try {
    const res = await fetch(url, {
      method,
      headers: { "Content-Type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000)
    });
    const text = await res.text();
    let parsed: Reply["body"] = {};
    try {
      parsed = JSON.parse(text) as Reply["body"];
    } catch {
      parsed = {};
    }
    return { status: res.status, body: parsed };
  } catch {
    return { status: 0, body: {} };
  }
}

/**
 * A merchant's create with an Idempotency-Key, retried with the same key until an answer that is
 * not "try again" (or `giveUpAt`): the Stripe client's discipline the issue asks us to survive.
 */
export async function createWithRetries(
  baseUrls: string[],
  apiKey: string,
  answers: Answer[],
  giveUpAt: number,
  parcel: Record<string, unknown> = PARCEL
): Promise<CreateRecord> {
  const record: CreateRecord = { key: `chaos-${randomUUID()}`, statuses: [], parcelId: null, trackingNumber: null, answeredAt: null };
  for (let attempt = 0; ; attempt++) {
    const base = baseUrls[attempt % baseUrls.length];
    const sentAt = Date.now();
    const res = await post(`${base}/api/partner/v1/parcels`, { Authorization: `ApiKey ${apiKey}`, "Idempotency-Key": record.key }, parcel);
    record.statuses.push(res.status);
    answers.push({ sentAt, at: Date.now(), status: res.status });
    if (res.status === 201) {
      record.parcelId = res.body.id ?? null;
      record.trackingNumber = res.body.trackingNumber ?? null;
      record.answeredAt = Date.now();
      return record;
    }
    if (!retryable(res.status) || Date.now() > giveUpAt) return record;
    await new Promise(resolve => setTimeout(resolve, 200 + Math.random() * 300));
  }
}

/** A back-office top-up, not retried (it has no key): counted only when acknowledged. */
export async function topUp(baseUrl: string, token: string, orgId: string, answers: Answer[]): Promise<number> {
  const sentAt = Date.now();
  const res = await post(
    `${baseUrl}/api/backoffice/v1/organizations/${orgId}/wallet/top-ups`,
    { Authorization: `Bearer ${token}` },
    { amountDzd: 1000 }
  );
  answers.push({ sentAt, at: Date.now(), status: res.status });
  return res.status === 201 ? 1000 : 0;
}
