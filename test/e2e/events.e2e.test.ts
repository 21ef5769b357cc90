import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { standardWebhooksSecretOf, verifyWebhookSignature } from "../../services/webhooks/signing";
import { backoffice, http, partner } from "../helpers/http";
import { apiResponseValidator } from "../helpers/openapi-validator";
import { waitFor } from "../helpers/parcel-events";
import { parsePdf } from "../helpers/pdf";
import { freePort, RunningProcess, startNode, waitForHttp } from "../helpers/processes";
import { Receiver, ReceivedRequest, startReceiver } from "../helpers/receivers";

const SECRET = "whsec_" + randomBytes(16).toString("hex");
const SMS_TOKEN = "sms-token-" + randomBytes(8).toString("hex");
const VALID = { recipientName: "Karim Haddad", recipientPhone: "0770 11 22 33", weightG: 800, destinationRelayCode: "DZ-31-ORAN-CENTRE" };

interface Delivery {
  deliveryId: string;
  event: string;
  body: {
    id: string;
    type: string;
    createdAt: string;
    sandbox: boolean;
    reason: string | null;
    occurredAt: string;
    sequence: number;
    data: { previousStatus: string | null; previousCodStatus?: string; parcel: Record<string, unknown> };
  };
  raw: ReceivedRequest;
}

function deliveriesOf(receiver: Receiver): Delivery[] {
  return receiver.requests.map(raw => ({
    deliveryId: String(raw.headers["x-relay-delivery-id"]),
    event: String(raw.headers["x-relay-event"]),
    body: JSON.parse(raw.rawBody),
    raw
  }));
}

/**
 * Issue 4, acceptance 1, 5 and 6, embedded: every status change reaches a real receiver as one
 * signed webhook; labels download; AT_RELAY sends one SMS through the http provider, then
 * RELAY_NOTIFIED and its webhook.
 */
/** The PIN of the newest pick-up SMS for a parcel, as the SMS gateway received it. */
function pinInSms(requests: { rawBody: string }[], trackingNumber: string): string {
  const texts = requests.map(r => String(JSON.parse(r.rawBody).message)).filter(t => t.includes(trackingNumber));
  return /Code de retrait: (\d{6})\./.exec(texts[texts.length - 1] ?? "")?.[1] ?? "missing";
}

describe("event path: webhooks, SMS and labels (embedded)", () => {
  let proc: RunningProcess;
  let hooks: Receiver;
  let sms: Receiver;
  let base: string;
  let dataDir: string;
  const token = `bo_${randomBytes(12).toString("hex")}`;

  beforeAll(async () => {
    [hooks, sms] = [await startReceiver(), await startReceiver()];
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-events-"));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    proc = await startNode({
      PORT: String(port),
      DATA_DIR: dataDir,
      BACKOFFICE_TOKEN: token,
      SMS_PROVIDER: "http",
      SMS_HTTP_URL: `${sms.url}/send`,
      SMS_HTTP_TOKEN: SMS_TOKEN,
      OUTBOX_INTERVAL_MS: "100",
      WEBHOOK_WORKER_INTERVAL_MS: "100",
      // The receiver is on this machine.
      WEBHOOK_ALLOW_PRIVATE: "true"
    });
    await waitForHttp(`${base}/readyz`);
  }, 200_000);

  afterAll(async () => {
    await proc?.stop();
    await hooks?.close();
    await sms?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("create, the whole live graph, a cancel and sandbox triggers: one signed delivery per change, in order", async () => {
    const bo = backoffice(base, token);
    const org = await bo.createOrganization("Evénements SARL");
    const live = partner(base, (await bo.createKey(org.id)).key);
    const sandbox = partner(base, (await bo.createKey(org.id, { mode: "sandbox" })).key);
    await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 100_000 });
    await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 100_000, mode: "sandbox" });
    const setHook = await bo.call("PUT", `/organizations/${org.id}/webhook`, { url: `${hooks.url}/hooks`, secret: SECRET });
    expect(setHook.status).toBe(200);
    expect(setHook.text).not.toContain(SECRET);

    // Each walk covers edges of DESIGN §3; AT_RELAY is followed by RELAY_NOTIFIED once the SMS is sent.
    const walks: string[][] = [
      ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "AT_RELAY", "(RELAY_NOTIFIED)", "DELIVERED"],
      ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "AT_RELAY", "(RELAY_NOTIFIED)", "RETURN_PENDING", "RETURNED"],
      ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "RETURN_PENDING", "LOST"],
      ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "LOST"],
      ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "DAMAGED"],
      ["READY_FOR_PICKUP", "PICKED_UP", "LOST"],
      ["READY_FOR_PICKUP", "PICKED_UP", "DAMAGED"]
    ];
    const expected = new Map<string, string[]>();
    for (const walk of walks) {
      const parcel = (await live("POST", "/parcels", { ...VALID, codAmountDzd: 1500 })).body;
      const seen = ["CREATED"];
      for (const step of walk) {
        if (step.startsWith("(")) {
          const status = step.slice(1, -1);
          await waitForStatus(live, parcel.id, status);
          seen.push(status);
          continue;
        }
        // The hand-over takes the PIN of the pick-up SMS, as the recipient would show it.
        const pin = step === "DELIVERED" ? pinInSms(sms.requests, parcel.trackingNumber) : undefined;
        const res = await bo.call("POST", `/parcels/${parcel.id}/transitions`, { toStatus: step, reason: "scan", pin });
        expect({ step, status: res.status }).toEqual({ step, status: 200 });
        seen.push(step);
      }
      expected.set(parcel.id, seen);
    }
    const cancelled = (await live("POST", "/parcels", VALID)).body;
    expect((await live("POST", `/parcels/${cancelled.id}/cancel`, { reason: "no longer needed" })).status).toBe(200);
    expected.set(cancelled.id, ["CREATED", "CANCELLED"]);

    const sandboxParcel = (await sandbox("POST", "/parcels", VALID)).body;
    for (const toStatus of ["IN_TRANSIT", "DELIVERED", "LOST"]) {
      const res = await sandbox("POST", `/sandbox/parcels/${sandboxParcel.id}/trigger-event`, { toStatus, reason: `simulate ${toStatus}` });
      expect(res.status).toBe(202);
    }
    expected.set(sandboxParcel.id, ["CREATED", "IN_TRANSIT", "DELIVERED", "LOST"]);

    // The walk to DELIVERED collects its COD: one cod.collected event more.
    const total = [...expected.values()].reduce((n, s) => n + s.length, 0) + 1;
    const standard = new Webhook(standardWebhooksSecretOf(SECRET));
    await hooks.waitFor(reqs => reqs.length >= total, 60_000);
    // Nothing more will come once every delivery is final: a condition on the delivery log, not a pause.
    const log = await waitFor(
      () => bo.call("GET", `/organizations/${org.id}/webhook-deliveries?size=100`),
      res => res.status === 200 && res.body.items.every((d: { status: string }) => d.status === "delivered"),
      60_000
    );
    expect(log.body.totalElements).toBe(total);
    const all = deliveriesOf(hooks);
    expect(all).toHaveLength(total);
    const collected = all.filter(d => d.body.type === "cod.collected");
    expect(
      collected.map(d => [d.body.data.parcel.status, d.body.data.parcel.codStatus, d.body.data.previousCodStatus, d.body.sequence])
    ).toEqual([["DELIVERED", "COLLECTED", "PENDING", 8]]);
    expect(apiResponseValidator().validateWebhook("partner", { headers: collected[0].raw.headers, body: collected[0].body })).toEqual([]);
    const deliveries = all.filter(d => d.body.type.startsWith("parcel."));

    for (const d of deliveries) {
      expect(d.raw.method).toBe("POST");
      expect(d.raw.path).toBe("/hooks");
      expect(d.raw.headers["content-type"]).toBe("application/json");
      expect(verifyWebhookSignature(d.raw.rawBody, String(d.raw.headers["x-relay-signature"]), SECRET)).toBe(true);
      expect(verifyWebhookSignature(d.raw.rawBody, String(d.raw.headers["x-relay-signature"]), SECRET + "x")).toBe(false);
      expect(d.deliveryId).toMatch(/^[0-9a-f-]{36}$/);
      expect(d.event).toBe(d.body.type);
      expect(d.event).toBe(`parcel.${String(d.body.data.parcel.status).toLowerCase()}`);
      expect(Math.abs(Number(d.raw.headers["x-relay-timestamp"]) - Date.now() / 1000)).toBeLessThan(300);
      expect(Object.keys(d.body).sort()).toEqual(["createdAt", "data", "id", "occurredAt", "reason", "sandbox", "sequence", "type"]);
      expect(d.body.occurredAt).toBe(d.body.createdAt);
      // The Standard Webhooks check, by the official library, on the very bytes received.
      expect(standard.verify(d.raw.rawBody, d.raw.headers as Record<string, string>)).toEqual(d.body);
      expect(d.raw.rawBody).not.toContain("Karim");
      // The delivery is what the partner document's `webhooks` entry for its event says (issue 5).
      expect(apiResponseValidator().validateWebhook("partner", { headers: d.raw.headers, body: d.body })).toEqual([]);
    }
    // Exactly one delivery id per event, and per event one request (no failure, so no retry).
    expect(new Set(all.map(d => d.body.id)).size).toBe(total);
    expect(new Set(all.map(d => d.deliveryId)).size).toBe(total);

    for (const [parcelId, statuses] of expected) {
      const mine = deliveries.filter(d => d.body.data.parcel.id === parcelId);
      expect(mine.map(d => d.body.data.parcel.status)).toEqual(statuses);
      expect(mine.map(d => d.body.data.previousStatus)).toEqual([null, ...statuses.slice(0, -1)]);
      expect(mine.map(d => d.body.sequence)).toEqual(statuses.map((_s, i) => i + 1));
      const view = (await (parcelId === sandboxParcel.id ? sandbox : live)("GET", `/parcels/${parcelId}`)).body;
      const last = mine[mine.length - 1].body.data.parcel;
      expect({ ...last, labelUrl: null }).toEqual({ ...view, labelUrl: null });
      expect(last.labelUrl).toEqual(expect.stringContaining(`/labels/${parcelId}.pdf?expires=`));
    }
    for (const d of deliveries.filter(d => d.body.data.parcel.id === sandboxParcel.id)) {
      expect(d.body.sandbox).toBe(true);
      if (d.body.type !== "parcel.created") expect(d.body.reason).toBe(`simulate ${d.body.data.parcel.status}`);
    }
    for (const d of deliveries.filter(d => d.body.data.parcel.id !== sandboxParcel.id)) expect(d.body.sandbox).toBe(false);
    expect(deliveries.find(d => d.body.data.parcel.id === cancelled.id && d.body.type === "parcel.cancelled")!.body.reason).toBe(
      "no longer needed"
    );

    // AT_RELAY happened twice (two walks): one SMS each, through the http provider, with the COD amount.
    expect(sms.requests).toHaveLength(2);
    for (const req of sms.requests) {
      expect(req.headers.authorization).toBe(`Bearer ${SMS_TOKEN}`);
      const body = JSON.parse(req.rawBody);
      // Issue 30: the SMS goes to the number as E.164, whatever way the merchant typed it.
      expect(body.to).toBe("+213770112233");
      expect(body.message).toMatch(/RP\d{9}DZ/);
      // One SMS segment (issue 30): the amount in its short form, the deadline and the short tracking link.
      expect(body.message).toContain("Payer 1500 DA");
      // The short link to the page with the pickup pass: a 13-character token, not the number (decision 0047).
      expect(body.message).toMatch(/\/t\/[0-9A-Za-z]{13}$/);
      expect(body.message).toMatch(/Code de retrait: \d{6}\./);
    }
    // The PIN went in the SMS only: never in a webhook or a log.
    for (const req of sms.requests) {
      const pin = /Code de retrait: (\d{6})/.exec(JSON.parse(req.rawBody).message)![1];
      expect(proc.output()).not.toContain(pin);
      for (const d of all) expect(d.raw.rawBody).not.toContain(`"${pin}"`);
    }
    expect(proc.output()).not.toContain("0770 11 22 33");
    expect(proc.output()).not.toContain(SECRET);
  }, 180_000);

  test("label URL: a one-page PDF for a valid URL; 403 when tampered or expired; 404 for a malformed path", async () => {
    const bo = backoffice(base, token);
    const org = await bo.createOrganization("Etiquettes");
    const live = partner(base, (await bo.createKey(org.id)).key);
    await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 5_000 });
    const parcel = (await live("POST", "/parcels", VALID)).body;
    const url = new URL(parcel.labelUrl);
    const pdf = await fetch(`${base}${url.pathname}${url.search}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toContain("application/pdf");
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const parsed = await parsePdf(bytes);
    expect(parsed.numpages).toBe(1);
    expect(parsed.text.replace(/\s/g, "")).toContain(parcel.trackingNumber);

    const tampered = url.search.replace(/signature=([0-9a-f])/, (_m, c) => `signature=${c === "a" ? "b" : "a"}`);
    expect((await http(base, "GET", `${url.pathname}${tampered}`)).body).toMatchObject({ status: 403, code: "LABEL_URL_INVALID" });
    const expired = url.search.replace(/expires=\d+/, "expires=1000");
    expect((await http(base, "GET", `${url.pathname}${expired}`)).status).toBe(403);
    expect((await http(base, "GET", `${url.pathname}`)).status).toBe(403);
    expect((await http(base, "GET", "/labels/../../etc/passwd")).status).toBe(404);
    // A URL that does not verify is one 403, whichever part is wrong (nothing tells a prober more).
    expect((await http(base, "GET", "/labels/not-a-parcel.pdf")).body).toMatchObject({ status: 403, code: "LABEL_URL_INVALID" });
    // A fresh URL on every read.
    const again = (await live("GET", `/parcels/${parcel.id}`)).body;
    expect(again.labelUrl).toEqual(expect.stringContaining(parcel.id));
  });
});

async function waitForStatus(call: ReturnType<typeof partner>, id: string, status: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await call("GET", `/parcels/${id}`)).body.status === status) return;
    await new Promise(r => setTimeout(r, 100));
  }
  throw new Error(`parcel ${id} never reached ${status}`);
}
