import { randomBytes, randomUUID } from "node:crypto";
import { inspect } from "node:util";
import { Loggers, ServiceBroker } from "moleculer";
import { loadConfig } from "../../lib/config";
import type { Database } from "../../lib/db/database";
import { openPostgres } from "../../lib/db/postgres";
import { AppError } from "../../lib/errors";
import { ParcelEvent, parcelOf } from "../../lib/events";
import type { ParcelEventType } from "../../lib/parcel-status";
import type { ParcelView } from "../../lib/parcel-view";
import { attachConfig } from "../../mixins/config.mixin";
import { brokerOptions } from "../../moleculer.config";
import NotificationsService, { SmsMessageView, WorkerPassResult } from "../../services/notifications.service";
import { composeSms } from "../../services/notifications/holding-sms";
import { normaliseRecipientPhone } from "../../lib/recipient-phone";
import { maskPhone } from "../../services/notifications/sms-providers";
import { createTestDatabase } from "../helpers/postgres";
import { ReceivedRequest, startReceiver } from "../helpers/receivers";
import { describeWithServers } from "../helpers/servers";

const ENCRYPTION_KEY = randomBytes(32).toString("hex");
const SMS_TOKEN = `sms_${randomBytes(12).toString("hex")}`;
const ORG_ID = randomUUID();
const RELAY = { code: "DZ-ALG-0042", name: "Librairie du Centre", city: "Alger", address: "12 rue Didouche Mourad" };

/** Every log line of the brokers, rendered as text, to search for phone numbers. */
const logLines: string[] = [];

class CapturingLogger extends Loggers.Base<{ level: "debug" }> {
  override getLogHandler(bindings: { nodeID: string }) {
    return (level: string, args: unknown[]) => {
      logLines.push(`${bindings.nodeID} ${level} ${args.map(a => (typeof a === "string" ? a : inspect(a, { depth: 6 }))).join(" ")}`);
    };
  }
}

/** What the SMS gateway got: the JSON body of a POST. */
const smsBody = (r: ReceivedRequest) => JSON.parse(r.rawBody) as { to: string; message: string };

/** A local SMS gateway: records each POST and answers with the next planned status (200 when none). */
async function startSmsGateway() {
  const plan: number[] = [];
  const receiver = await startReceiver();
  receiver.respond = (_req, index) => {
    const status = plan.shift() ?? 200;
    return { status, body: JSON.stringify(status < 300 ? { id: `gw-${index + 1}` } : { error: "try later" }) };
  };
  return Object.assign(receiver, { plan });
}

interface Recipient {
  parcelId: string;
  phone: string;
  /** Other spellings of the same number that must not appear in a log either. */
  phoneForms: string[];
}

let phoneCounter = 10;
function newRecipient(): Recipient {
  phoneCounter += 1;
  const last = String(phoneCounter).padStart(2, "0");
  return {
    parcelId: randomUUID(),
    phone: `+213 555 12 34 ${last}`,
    phoneForms: [`+213 555 12 34 ${last}`, `+2135551234${last}`, `5551234${last}`, `555 12 34 ${last}`]
  };
}

function parcelView(parcelId: string, trackingNumber: string, codAmountDzd: number | null): ParcelView {
  return {
    id: parcelId,
    trackingNumber,
    status: "AT_RELAY",
    destinationRelayCode: RELAY.code,
    labelUrl: null,
    pricePaidDzd: 400,
    insuredValueDzd: 5000,
    codStatus: codAmountDzd ? "PENDING" : null,
    codCashAt: null,
    codAmountDzd,
    pickupDeadline: null,
    returnFeeDzd: null,
    direction: "OUTBOUND",
    returnOf: null,
    createdAt: "2024-05-01T10:00:00.000Z",
    updatedAt: new Date().toISOString()
  };
}

function eventOf(type: ParcelEventType, parcel: ParcelView, sandbox = false): ParcelEvent {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    type,
    createdAt: now,
    occurredAt: now,
    sequence: 4,
    organizationId: ORG_ID,
    mode: sandbox ? "sandbox" : "live",
    sandbox,
    reason: null,
    data: { previousStatus: "IN_TRANSIT", parcel: { ...parcel, status: type === "parcel.at_relay" ? "AT_RELAY" : parcel.status } }
  };
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(resolve => setTimeout(resolve, 25));
  }
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

describeWithServers(["postgres"], "notifications service (pick-up SMS) on PostgreSQL", () => {
  let gateway: Awaited<ReturnType<typeof startSmsGateway>>;
  const contacts = new Map<string, Recipient>();
  const recipientCalls: string[] = [];
  const notifyCalls: Array<{ parcelId: string; reason: string }> = [];
  /** How many of the next markRelayNotified calls answer "unavailable". */
  let notifyFailures = 0;
  let database: { url: string; drop: () => Promise<void> };
  let db: Database;
  const brokers: ServiceBroker[] = [];
  let broker: ServiceBroker;

  /** A node with notifications (fast schedules) and a stand-in for its parcels peer. */
  async function startNode(url: string, gatewayUrl: string): Promise<ServiceBroker> {
    const config = loadConfig({
      DATABASE_URL: url,
      BACKOFFICE_TOKEN: "x",
      ENCRYPTION_KEY,
      LABEL_URL_SECRET: "y",
      SMS_PROVIDER: "http",
      SMS_HTTP_URL: `${gatewayUrl}/v1/sms`,
      SMS_HTTP_TOKEN: SMS_TOKEN,
      LOG_LEVEL: "debug"
    });
    const node = new ServiceBroker({
      ...brokerOptions(config),
      nodeID: `sms-node-${brokers.length + 1}`,
      logger: new CapturingLogger({ level: "debug" })
    });
    attachConfig(node, config);
    node.createService({
      ...NotificationsService,
      settings: { ...NotificationsService.settings!, workerIntervalMs: 50, retryDelaysMs: [150, 150, 150, 150], notifyRetryBaseMs: 100 }
    });
    node.createService({
      name: "parcels",
      actions: {
        recipientContact(ctx) {
          const { parcelId } = ctx.params as { parcelId: string };
          recipientCalls.push(parcelId);
          const recipient = contacts.get(parcelId);
          if (!recipient) throw new AppError("PARCEL_NOT_FOUND", "Parcel not found");
          return { phone: recipient.phone, name: "Amel B." };
        },
        relayPoint(ctx) {
          const { code } = ctx.params as { code: string };
          return { ...RELAY, code };
        },
        markRelayNotified(ctx) {
          const params = ctx.params as { parcelId: string; reason: string };
          notifyCalls.push(params);
          if (notifyFailures > 0) {
            notifyFailures -= 1;
            throw new AppError("UNAVAILABLE", "parcels is restarting");
          }
          return { status: "RELAY_NOTIFIED", changed: true };
        }
      }
    });
    await node.start();
    brokers.push(node);
    return node;
  }
  beforeAll(async () => {
    database = await createTestDatabase();
    gateway = await startSmsGateway();
    broker = await startNode(database.url, gateway.url);
    db = openPostgres(database.url, 2);
  });

  afterAll(async () => {
    for (const node of brokers) await node.stop();
    await db?.close();
    await gateway?.close();
    await database?.drop();
  });

  const enqueue = (event: ParcelEvent) =>
    broker.call<{ smsQueued: boolean; messageId: string | null }, object>("notifications.parcelEvent", { event });
  const messagesOf = (parcelId: string) => broker.call<SmsMessageView[], object>("notifications.listMessages", { parcelId });
  const runWorker = () => broker.call<WorkerPassResult>("notifications.runWorker");
  const smsTo = (r: Recipient) =>
    gateway.requests
      .filter(req => smsBody(req).to === normaliseRecipientPhone(r.phone).e164)
      .map(req => ({ headers: req.headers, body: smsBody(req) }));
  const notifiesOf = (r: Recipient) => notifyCalls.filter(c => c.parcelId === r.parcelId);

  function atRelay(trackingNumber: string, codAmountDzd: number | null = 1500) {
    const recipient = newRecipient();
    contacts.set(recipient.parcelId, recipient);
    return { recipient, event: eventOf("parcel.at_relay", parcelView(recipient.parcelId, trackingNumber, codAmountDzd)) };
  }

  test("AT_RELAY → one SMS through the http provider (bearer token, tracking number, relay, COD), then RELAY_NOTIFIED once", async () => {
    const { recipient, event } = atRelay("RP123456785DZ");
    const ack = await enqueue(event);
    expect(ack.smsQueued).toBe(true);

    await waitFor(() => notifiesOf(recipient).length > 0, "markRelayNotified");
    await sleep(300);
    await runWorker();

    const sent = smsTo(recipient);
    expect(sent).toHaveLength(1);
    expect(sent[0].headers.authorization).toBe(`Bearer ${SMS_TOKEN}`);
    expect(sent[0].headers["content-type"]).toMatch(/^application\/json/);
    expect(sent[0].headers["idempotency-key"]).toBe(ack.messageId);
    expect(Object.keys(sent[0].body).sort()).toEqual(["message", "to"]);
    const text = sent[0].body.message;
    expect(text).toContain("RP123456785DZ");
    expect(text).toContain("Payer 1500 DA");
    expect(text).toContain("Librairie du Centre");
    // The address and the rest are behind the short link (issue 30: one segment).
    expect(text).toContain("/t/RP123456785DZ");
    expect(text).not.toContain(recipient.phone);

    expect(notifiesOf(recipient)).toEqual([{ parcelId: recipient.parcelId, reason: "pick-up SMS sent" }]);

    const [message, ...others] = await messagesOf(recipient.parcelId);
    expect(others).toEqual([]);
    expect(message).toMatchObject({
      id: ack.messageId,
      eventId: event.id,
      status: "sent",
      provider: "http",
      attempts: 1,
      to: "+213 5** ** ** 11"
    });
    expect(message.sentAt).not.toBeNull();
    expect(message.notifiedAt).not.toBeNull();
    expect(message.providerMessageId).toMatch(/^gw-/);
    for (const form of recipient.phoneForms) expect(JSON.stringify(message)).not.toContain(form);
  });

  test("the phone is stored only encrypted", async () => {
    const { recipient, event } = atRelay("RP000000017DZ");
    await enqueue(event);
    const rows = await db.query("SELECT * FROM notifications.sms_messages WHERE parcel_id = $1", [recipient.parcelId]);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    for (const form of recipient.phoneForms) expect(stored).not.toContain(form);
    expect(String((rows[0] as { phone_enc: string }).phone_enc)).toMatch(/^v1:/);
    await waitFor(() => notifiesOf(recipient).length > 0, "markRelayNotified");
  });

  test("the same event enqueued twice (and concurrently) → still one SMS and one transition", async () => {
    const { recipient, event } = atRelay("RP100000003DZ");
    const acks = await Promise.all([enqueue(event), enqueue(event), enqueue(event)]);
    expect(new Set(acks.map(a => a.messageId)).size).toBe(1);
    await waitFor(() => notifiesOf(recipient).length > 0, "markRelayNotified");
    // The outbox relay redelivers after the SMS went out (its acknowledgement was lost).
    expect((await enqueue(event)).messageId).toBe(acks[0].messageId);
    await sleep(300);
    await runWorker();
    expect(smsTo(recipient)).toHaveLength(1);
    expect(notifiesOf(recipient)).toHaveLength(1);
    expect(await messagesOf(recipient.parcelId)).toHaveLength(1);
  });

  test("events other than live AT_RELAY send nothing (sandbox included) and do not even look the recipient up", async () => {
    const recipient = newRecipient();
    contacts.set(recipient.parcelId, recipient);
    const view = parcelView(recipient.parcelId, "RP200000006DZ", 900);
    const types: ParcelEventType[] = [
      "parcel.created",
      "parcel.ready_for_pickup",
      "parcel.in_transit",
      "parcel.relay_notified",
      "parcel.delivered",
      "parcel.cancelled"
    ];
    for (const type of types) {
      expect(await enqueue(eventOf(type, { ...view, status: "IN_TRANSIT" }))).toEqual({ smsQueued: false, messageId: null });
    }
    expect(await enqueue(eventOf("parcel.at_relay", view, true))).toEqual({ smsQueued: false, messageId: null });
    // An event this service ignores is acknowledged whatever else it carries: refusing it would
    // hold the parcel's outbox queue, webhooks included.
    expect(await enqueue({ id: randomUUID(), type: "parcel.delivered" } as ParcelEvent)).toEqual({ smsQueued: false, messageId: null });
    await sleep(200);
    await runWorker();
    expect(smsTo(recipient)).toHaveLength(0);
    expect(notifiesOf(recipient)).toHaveLength(0);
    expect(recipientCalls).not.toContain(recipient.parcelId);
    expect(await messagesOf(recipient.parcelId)).toEqual([]);
  });

  test("an AT_RELAY event without what the SMS needs is refused (VALIDATION_FAILED), so the relay keeps it", async () => {
    const { event } = atRelay("RP110000008DZ");
    const broken = { ...event, data: { ...event.data, parcel: { ...parcelOf(event)!, trackingNumber: undefined } } };
    // (Wrapped: the validation middleware throws synchronously on a local call.)
    await expect((async () => enqueue(broken as unknown as ParcelEvent))()).rejects.toMatchObject({ type: "VALIDATION_FAILED" });
  });

  test("no COD → no amount line", async () => {
    const { recipient, event } = atRelay("RP300000009DZ", null);
    await enqueue(event);
    await waitFor(() => smsTo(recipient).length > 0, "the SMS");
    expect(smsTo(recipient)[0].body.message).not.toContain("Payer");
    expect(smsTo(recipient)[0].body.message).toContain("RP300000009DZ");
    await waitFor(() => notifiesOf(recipient).length > 0, "markRelayNotified");
  });

  test("gateway answering 500 twice → retried on the schedule with the same message id, then sent once and notified once", async () => {
    const { recipient, event } = atRelay("RP400000001DZ");
    gateway.plan.push(500, 503);
    const ack = await enqueue(event);
    await waitFor(() => notifiesOf(recipient).length > 0, "markRelayNotified");
    await sleep(300);
    await runWorker();

    const attempts = smsTo(recipient);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map(a => a.headers["idempotency-key"]))).toEqual(new Set([ack.messageId]));
    expect(notifiesOf(recipient)).toHaveLength(1);
    const [message] = await messagesOf(recipient.parcelId);
    expect(message).toMatchObject({ status: "sent", attempts: 3, lastError: null });
  });

  test("a gateway that keeps failing → five attempts, then failed; the parcel is not moved", async () => {
    const { recipient, event } = atRelay("RP500000004DZ");
    gateway.plan.push(500, 500, 500, 500, 500);
    await enqueue(event);
    await waitFor(async () => (await messagesOf(recipient.parcelId))[0]?.status === "failed", "the message to fail");
    const [message] = await messagesOf(recipient.parcelId);
    expect(message).toMatchObject({ attempts: 5, lastError: "SMS gateway answered HTTP 500", nextAttemptAt: null });
    expect(smsTo(recipient)).toHaveLength(5);
    expect(notifiesOf(recipient)).toHaveLength(0);
  });

  test("a gateway refusing the request itself (400) → failed at once, no retry", async () => {
    const { recipient, event } = atRelay("RP600000007DZ");
    gateway.plan.push(400);
    await enqueue(event);
    await waitFor(async () => (await messagesOf(recipient.parcelId))[0]?.status === "failed", "the message to fail");
    await sleep(400);
    expect(smsTo(recipient)).toHaveLength(1);
    expect((await messagesOf(recipient.parcelId))[0]).toMatchObject({ attempts: 1, lastError: "SMS gateway answered HTTP 400" });
  });

  test("parcels unavailable after the send → the transition is retried until it lands, the SMS is not resent", async () => {
    const { recipient, event } = atRelay("RP700000000DZ");
    notifyFailures = 2;
    await enqueue(event);
    await waitFor(() => notifiesOf(recipient).length >= 3, "three markRelayNotified calls");
    await sleep(400);
    await runWorker();
    expect(notifiesOf(recipient)).toHaveLength(3);
    expect(smsTo(recipient)).toHaveLength(1);
    const [message] = await messagesOf(recipient.parcelId);
    expect(message.status).toBe("sent");
    expect(message.notifiedAt).not.toBeNull();
  });

  test("two workers on one database never send one message twice", async () => {
    const second = await startNode(database.url, gateway.url);
    const firstLine = logLines.length;
    const batch = Array.from({ length: 30 }, (_, i) => atRelay(`RP8${String(i).padStart(7, "0")}0DZ`));
    // Enqueued through both nodes, so that both workers are woken and race for the same rows.
    await Promise.all(batch.map(({ event }, i) => (i % 2 === 0 ? broker : second).call("notifications.parcelEvent", { event })));
    await waitFor(() => batch.every(({ recipient }) => notifiesOf(recipient).length > 0), "all transitions");
    await sleep(300);
    for (const { recipient } of batch) {
      expect(smsTo(recipient)).toHaveLength(1);
      expect(notifiesOf(recipient)).toHaveLength(1);
    }
    const sentBy = (node: ServiceBroker) =>
      logLines.slice(firstLine).filter(line => line.startsWith(`${node.nodeID} `) && line.includes("SMS sent to")).length;
    // Both workers took part, and between them sent each message exactly once.
    expect(sentBy(broker)).toBeGreaterThan(0);
    expect(sentBy(second)).toBeGreaterThan(0);
    expect(sentBy(broker) + sentBy(second)).toBe(batch.length);
  });

  test("no phone number ever reaches the logs; the masked form does", () => {
    const all = logLines.join("\n");
    expect(all).toMatch(/SMS sent to \+213 5\*\* \*\* \*\* \d\d/);
    for (const recipient of contacts.values()) {
      for (const form of recipient.phoneForms) expect(all).not.toContain(form);
    }
    expect(all).not.toContain(SMS_TOKEN);
  });

  test("holding period: a reminder and an expiry each send one SMS, without PIN or RELAY_NOTIFIED; another return, or sandbox, none", async () => {
    const recipient = newRecipient();
    contacts.set(recipient.parcelId, recipient);
    const pickupDeadline = "2026-03-20T13:05:00.000Z";
    const waiting: ParcelView = { ...parcelView(recipient.parcelId, "RP111111116DZ", 1500), status: "RELAY_NOTIFIED", pickupDeadline };
    const reminder: ParcelEvent = {
      ...eventOf("parcel.relay_notified", waiting),
      type: "parcel.pickup_reminder",
      data: { previousStatus: "RELAY_NOTIFIED", parcel: waiting }
    };
    const returned: ParcelView = { ...waiting, status: "RETURN_PENDING", codStatus: "NOT_COLLECTED" };
    const expired: ParcelEvent = { ...eventOf("parcel.return_pending", returned), reason: "PICKUP_EXPIRED" };
    const refused: ParcelEvent = { ...eventOf("parcel.return_pending", returned), reason: "refused by the recipient" };

    expect((await enqueue(reminder)).smsQueued).toBe(true);
    expect((await enqueue(reminder)).smsQueued).toBe(true);
    expect((await enqueue(expired)).smsQueued).toBe(true);
    expect((await enqueue(refused)).smsQueued).toBe(false);
    expect((await enqueue({ ...reminder, id: randomUUID(), sandbox: true, mode: "sandbox" })).smsQueued).toBe(false);

    await waitFor(async () => (await messagesOf(recipient.parcelId)).every(m => m.notifiedAt !== null), "both SMS sent and settled");
    const texts = smsTo(recipient).map(sms => sms.body.message);
    expect(texts).toHaveLength(2);
    expect(texts).toContain(
      "Relais DZ: rappel, colis RP111111116DZ au relais Librairie du Centre. Retirez-le avant le 20/03 sinon il repart. " +
        "http://localhost:3000/t/RP111111116DZ"
    );
    expect(texts).toContain(
      "Relais DZ: colis RP111111116DZ non retiré à temps au relais Librairie du Centre, il est renvoyé à l'expéditeur."
    );
    expect((await messagesOf(recipient.parcelId)).map(m => m.status)).toEqual(["sent", "sent"]);
    expect(notifiesOf(recipient)).toEqual([]);
  });
});

describe("pick-up SMS text and phone masking", () => {
  const fr = { lang: "fr" as const, brand: "Relais DZ", baseUrl: "https://suivi.example.dz" };
  const pickup = (relay: { code: string; name: string | null; city: string | null; address: string | null }, codAmountDzd: number) =>
    composeSms(
      "pickup",
      {
        trackingNumber: "RP123456785DZ",
        relay: { nameAr: null, ...relay },
        codAmountDzd,
        pin: null,
        pickupDeadline: "2026-03-20T13:05:00.000Z"
      },
      fr
    );

  test("the text names the parcel, the relay point, the cash to bring, the deadline date and the short link", () => {
    const text = pickup(
      { code: "DZ-ALG-0042", name: "Librairie\n du  Centre", city: "Alger", address: "12 rue Didouche Mourad, Alger" },
      1500
    );
    expect(text).toBe(
      "Relais DZ: colis RP123456785DZ chez Librairie du Centre. Montrez ce SMS. Payer 1500 DA. Avant le 20/03. " +
        "https://suivi.example.dz/t/RP123456785DZ"
    );
  });

  test("a relay missing from the directory and no COD still give a usable text", () => {
    expect(pickup({ code: "DZ-ALG-0042", name: null, city: null, address: null }, 0)).toBe(
      "Relais DZ: colis RP123456785DZ chez DZ-ALG-0042. Montrez ce SMS. Avant le 20/03. https://suivi.example.dz/t/RP123456785DZ"
    );
  });

  test.each([
    ["+213 555 12 34 67", "+213 5** ** ** 67"],
    ["+213555123467", "+213 5** ** ** 67"],
    ["00213 555 12 34 67", "+213 5** ** ** 67"],
    ["0555 12 34 67", "05** ** ** 67"],
    ["+33 6 12 34 56 78", "+3** ** ** ** 78"],
    ["12345", "***"]
  ])("masks %s as %s", (phone, masked) => {
    expect(maskPhone(phone)).toBe(masked);
  });
});

// Embedded mode (PGlite, no server): the same SQL, including the SKIP LOCKED claim, runs there too.
describe("notifications with the default log provider, embedded (PGlite)", () => {
  let broker: ServiceBroker;
  const lines: string[] = [];
  const notified: string[] = [];

  class ArrayLogger extends Loggers.Base<{ level: "debug" }> {
    override getLogHandler() {
      return (level: string, args: unknown[]) =>
        lines.push(`${level} ${args.map(a => (typeof a === "string" ? a : inspect(a))).join(" ")}`);
    }
  }

  beforeAll(async () => {
    const config = {
      ...loadConfig({ BACKOFFICE_TOKEN: "x", ENCRYPTION_KEY: randomBytes(32).toString("hex"), LABEL_URL_SECRET: "y", LOG_LEVEL: "debug" }),
      dataDir: `memory://${randomUUID()}`
    };
    expect(config.sms.provider).toBe("log");
    broker = new ServiceBroker({ ...brokerOptions(config), logger: new ArrayLogger({ level: "debug" }) });
    attachConfig(broker, config);
    broker.createService({ ...NotificationsService, settings: { ...NotificationsService.settings!, workerIntervalMs: 50 } });
    broker.createService({
      name: "parcels",
      actions: {
        recipientContact: () => ({ phone: "0555 98 76 54", name: null }),
        relayPoint: () => {
          throw new AppError("RELAY_NOT_FOUND", "Relay point not found");
        },
        markRelayNotified(ctx) {
          notified.push((ctx.params as { parcelId: string }).parcelId);
          return { status: "RELAY_NOTIFIED", changed: true };
        }
      }
    });
    await broker.start();
  });

  afterAll(async () => {
    await broker?.stop();
  });

  test("the message is stored as sent, the parcel notified, and only the masked number is logged", async () => {
    const parcelId = randomUUID();
    await broker.call("notifications.parcelEvent", { event: eventOf("parcel.at_relay", parcelView(parcelId, "RP900000002DZ", 250)) });
    await waitFor(() => notified.includes(parcelId), "markRelayNotified");
    const [message] = await broker.call<SmsMessageView[], object>("notifications.listMessages", { parcelId });
    // Stored and sent as E.164 (issue 30), so masked in its international form.
    expect(message).toMatchObject({ status: "sent", provider: "log", attempts: 1, to: "+213 5** ** ** 54" });
    expect(message.body).toContain("chez DZ-ALG-0042.");
    expect(message.body).toContain("Payer 250 DA");
    const all = lines.join("\n");
    expect(all).toContain("SMS sent to +213 5** ** ** 54");
    for (const form of ["0555 98 76 54", "0555987654", "555987654"]) expect(all).not.toContain(form);
  });
});
