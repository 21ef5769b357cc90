import { randomBytes, randomUUID } from "node:crypto";
import type { SmsInbox } from "../../test/helpers/sms-inbox";
import { Answer, createWithRetries, CreateRecord, PARCEL, post, Reply, retryable } from "./load";

/**
 * The relay side of `npm run chaos` (issue 46): a relay point's counter, on its agent key, receives
 * parcels created in the run (arrivals) and hands them over with the PIN of the recipient's SMS.
 * Every operation carries an Idempotency-Key and an occurredAt drawn once, when the agent "scans",
 * and is sent again with both after a 503, a 409 (key in use), a 429 or no answer — what the counter
 * app does (docs/relay-points/guide.md). Only the acknowledged (2xx) ones are held against the system.
 */

/** One counter operation as the agent's phone saw it. */
export interface RelayOperation {
  key: string;
  occurredAt: string;
  statuses: number[];
  acknowledged: boolean;
}

export interface RelayRecord {
  parcelId: string;
  trackingNumber: string;
  arrival: RelayOperation | null;
  handover: RelayOperation | null;
}

export interface RelayCounter {
  code: string;
  agentKey: string;
}

const pause = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/** A relay point of the run's own (a fresh code, room for every parcel of the run) and its agent key. */
export async function openCounter(base: string, backofficeToken: string): Promise<RelayCounter> {
  const code = `DZ-99-CHAOS-${randomBytes(3).toString("hex").toUpperCase()}`;
  const headers = { Authorization: `Bearer ${backofficeToken}` };
  const point = await post(`${base}/api/backoffice/v1/relay-points`, headers, {
    code,
    name: `Chaos ${code}`,
    city: "Alger",
    capacity: 100_000
  });
  if (point.status !== 201) throw new Error(`relay point: ${point.status} ${JSON.stringify(point.body)}`);
  const key = await post(`${base}/api/backoffice/v1/relay-points/${code}/agent-keys`, headers, { name: "chaos counter" });
  if (key.status !== 201) throw new Error(`agent key: ${key.status}`);
  return { code, agentKey: (key.body as { key: string }).key ?? "" };
}

/** Sends one operation until an answer that is not "try again" (or `giveUpAt`), the same key and body each time. */
async function operate(
  bases: string[],
  agentKey: string,
  path: string,
  body: Record<string, unknown>,
  answers: Answer[],
  giveUpAt: number
): Promise<RelayOperation> {
  const op: RelayOperation = { key: `chaos-${randomUUID()}`, occurredAt: new Date().toISOString(), statuses: [], acknowledged: false };
  for (let attempt = 0; ; attempt++) {
    const sentAt = Date.now();
    const res = await post(
      `${bases[attempt % bases.length]}/api/relay/v1${path}`,
      { Authorization: `ApiKey ${agentKey}`, "Idempotency-Key": op.key },
      { ...body, occurredAt: op.occurredAt }
    );
    op.statuses.push(res.status);
    answers.push({ sentAt, at: Date.now(), status: res.status });
    if (res.status >= 200 && res.status < 300) {
      op.acknowledged = true;
      return op;
    }
    if (!retryable(res.status) || Date.now() > giveUpAt) return op;
    await pause(200 + Math.random() * 300);
  }
}

/**
 * The carrier's scans up to IN_TRANSIT (back office, no Idempotency-Key): after an unknown outcome
 * the parcel's status says whether the transition happened, as an operator would look.
 */
async function advance(
  base: string,
  token: string,
  merchantKey: string,
  parcelId: string,
  toStatus: string,
  giveUpAt: number
): Promise<boolean> {
  for (;;) {
    const res: Reply = await post(
      `${base}/api/backoffice/v1/parcels/${parcelId}/transitions`,
      { Authorization: `Bearer ${token}` },
      {
        toStatus,
        reason: `chaos scan ${toStatus}`
      }
    );
    if (res.status === 200) return true;
    const now = await post(`${base}/api/partner/v1/parcels/${parcelId}`, { Authorization: `ApiKey ${merchantKey}` }, undefined, "GET");
    if (now.body.status === toStatus) return true;
    if ((!retryable(res.status) && res.status !== 0) || Date.now() > giveUpAt) return false;
    await pause(200 + Math.random() * 300);
  }
}

/** The PIN of the recipient's pick-up SMS, waited for until `giveUpAt` (null when it never came). */
async function pinOf(sms: SmsInbox, trackingNumber: string, giveUpAt: number): Promise<string | null> {
  while (Date.now() < giveUpAt) {
    try {
      return await sms.pinOf(trackingNumber);
    } catch {
      // not yet: the notification waits on the outbox, which waits on the database
    }
  }
  return null;
}

/** One parcel's way through the counter: created, carried, arrived, handed over. */
export async function counterRound(
  bases: string[],
  backofficeToken: string,
  merchantKey: string,
  counter: RelayCounter,
  sms: SmsInbox,
  run: { answers: Answer[]; creates: CreateRecord[] },
  giveUpAt: number
): Promise<RelayRecord | null> {
  const answers = run.answers;
  const created = await createWithRetries(bases, merchantKey, answers, giveUpAt, { ...PARCEL, destinationRelayCode: counter.code });
  run.creates.push(created);
  if (!created.parcelId || !created.trackingNumber) return null;
  const record: RelayRecord = { parcelId: created.parcelId, trackingNumber: created.trackingNumber, arrival: null, handover: null };
  for (const status of ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT"])
    if (!(await advance(bases[0], backofficeToken, merchantKey, record.parcelId, status, giveUpAt))) return record;
  record.arrival = await operate(bases, counter.agentKey, "/arrivals", { trackingNumber: record.trackingNumber }, answers, giveUpAt);
  if (!record.arrival.acknowledged) return record;
  const pin = await pinOf(sms, record.trackingNumber, giveUpAt);
  if (pin === null) return record;
  record.handover = await operate(
    bases,
    counter.agentKey,
    "/handovers",
    { trackingNumber: record.trackingNumber, pin, codCollectedDzd: 0 },
    answers,
    giveUpAt
  );
  return record;
}
