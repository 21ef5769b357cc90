import { randomBytes, randomUUID } from "node:crypto";
import { ServiceBroker } from "moleculer";
import { createSystem } from "../../bin/system";
import type { KeyMode } from "../../lib/api-keys";
import { loadConfig } from "../../lib/config";
import { acquireDatabase, releaseDatabase } from "../../lib/db/connection";
import type { Database } from "../../lib/db/database";
import type { ParcelView } from "../../lib/parcel-view";
import type { PublicTracking } from "../../lib/public-tracking";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { TestEngine, testEngines } from "../helpers/engines";
import { SmsInbox, startSmsInbox } from "../helpers/sms-inbox";

/**
 * Redirects before arrival (issue 21) on both engines: the merchant's, the recipient's with the
 * code sent by SMS (read from the SMS gateway, as the recipient would), every limit, the webhook
 * event, the history and the relay points' incoming lists.
 */

const ALGER = "DZ-16-ALGER-CENTRE";
const BAB_EZZOUAR = "DZ-16-BAB-EZZOUAR";
const KOUBA = "DZ-16-KOUBA";
const HYDRA = "DZ-16-HYDRA";

describe.each(testEngines("redirects"))("redirects before arrival on %s", (_engine, open) => {
  let broker: ServiceBroker;
  let db: Database;
  let config: ReturnType<typeof loadConfig>;
  let database: TestEngine;
  let sms: SmsInbox;
  let orgId: string;
  let otherOrgId: string;

  beforeAll(async () => {
    database = await open();
    sms = await startSmsInbox();
    config = loadConfig({
      ...database.env,
      ...sms.env,
      SERVICES: "auth,wallet,parcels,notifications,webhooks",
      BACKOFFICE_TOKEN: "t",
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      LABEL_URL_SECRET: "l",
      SWEEP_INTERVAL_MS: "3600000",
      HOLDING_INTERVAL_MS: "60000"
    });
    broker = await createSystem(config, { logger: false });
    await broker.start();
    db = await acquireDatabase(config);
    orgId = (await broker.call<{ id: string }, object>("auth.createOrganization", { name: "Redirect SARL" })).id;
    otherOrgId = (await broker.call<{ id: string }, object>("auth.createOrganization", { name: "Other SARL" })).id;
    for (const org of [orgId, otherOrgId]) {
      for (const mode of ["live", "sandbox"]) await broker.call("wallet.topUp", { organizationId: org, mode, amountDzd: 100_000 });
    }
  }, 60_000);

  afterAll(async () => {
    await broker.stop();
    await releaseDatabase(config);
    await sms.close();
    await database.drop();
  });

  const meta = (mode: KeyMode = "live", organizationId = orgId) => ({
    auth: {
      keyId: randomUUID(),
      keyPrefix: "rp_test",
      organizationId,
      organizationName: "Redirect SARL",
      mode,
      scopes: ["parcels:read", "parcels:write"],
      rateLimitPerMinute: null
    }
  });
  const create = (mode: KeyMode = "live", organizationId = orgId) =>
    broker.call<ParcelView, object>(
      "parcels.create",
      { recipientName: "Amina", recipientPhone: "+213555123456", weightG: 800, destinationRelayCode: ALGER },
      { meta: meta(mode, organizationId) }
    );
  const operator = (id: string, toStatus: string) => broker.call<ParcelView, object>("parcels.transition", { id, toStatus });
  async function inTransit(): Promise<ParcelView> {
    const parcel = await create();
    for (const status of ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT"]) await operator(parcel.id, status);
    return parcel;
  }
  const redirect = (id: string, destinationRelayCode: string, mode: KeyMode = "live", organizationId = orgId) =>
    broker.call<ParcelView, object>("parcels.redirect", { id, destinationRelayCode }, { meta: meta(mode, organizationId) });
  const requestCode = (trackingNumber: string) =>
    broker.call<{ message: string; codeValidSeconds: number }, object>("parcels.requestRedirectCode", { trackingNumber });
  const issueCode = async (trackingNumber: string) =>
    (await broker.call<{ outcome: string }, object>("parcels.issueRedirectCode", { trackingNumber })).outcome;
  const recipientRedirect = (trackingNumber: string, code: string, destinationRelayCode: string) =>
    broker.call<PublicTracking, object>("parcels.recipientRedirect", { trackingNumber, code, destinationRelayCode });
  const outboxOf = async (id: string) =>
    (
      await db.query<{ type: string; payload: unknown }>("SELECT type, payload FROM parcels.outbox WHERE parcel_id = $1 ORDER BY id", [id])
    ).map(e => ({ type: e.type, body: (typeof e.payload === "string" ? JSON.parse(e.payload) : e.payload) as Record<string, any> }));
  const incoming = async (relayCode: string) =>
    (
      await broker.call<{ items: { trackingNumber: string }[] }, object>(
        "parcels.relayParcels",
        { status: "IN_TRANSIT", page: 0, size: 100 },
        { meta: { agent: { keyId: randomUUID(), keyPrefix: "ra_test", relayCode } } }
      )
    ).items.map(i => i.trackingNumber);
  const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

  test("the merchant's redirect: new destination, same price, parcel.redirected with both relays, in the history and the incoming lists", async () => {
    const parcel = await inTransit();
    expect(await incoming(ALGER)).toContain(parcel.trackingNumber);
    const after = await redirect(parcel.id, BAB_EZZOUAR);
    expect(after.destinationRelayCode).toBe(BAB_EZZOUAR);
    expect(after.status).toBe("IN_TRANSIT");
    expect(after.pricePaidDzd).toBe(parcel.pricePaidDzd);
    expect(await incoming(ALGER)).not.toContain(parcel.trackingNumber);
    expect(await incoming(BAB_EZZOUAR)).toContain(parcel.trackingNumber);

    const events = await outboxOf(parcel.id);
    const redirected = events.filter(e => e.type === "parcel.redirected");
    expect(redirected).toHaveLength(1);
    expect(redirected[0].body.data.redirect).toEqual({ fromRelayCode: ALGER, toRelayCode: BAB_EZZOUAR, by: "merchant" });
    expect(redirected[0].body.data.previousStatus).toBe("IN_TRANSIT");
    expect(redirected[0].body.data.parcel.destinationRelayCode).toBe(BAB_EZZOUAR);
    expect(redirected[0].body.sequence).toBe(events.length);
    // The webhooks and notifications services take it (an event refused would hold the parcel's queue).
    const dispatched = async () =>
      (
        await db.query<{ dispatched_at: Date | null }>(
          "SELECT dispatched_at FROM parcels.outbox WHERE parcel_id = $1 AND type = 'parcel.redirected'",
          [parcel.id]
        )
      )[0].dispatched_at;
    // A pass may already be running: wait for the one that takes this event (a wait, not a measure).
    for (let i = 0; i < 100 && (await dispatched()) === null; i++) {
      await broker.call("parcels.relayOutbox", {});
      if ((await dispatched()) === null) await new Promise(r => setTimeout(r, 100));
    }
    expect(await dispatched()).not.toBeNull();

    const history = await broker.call<{ items: { status: string; reason: string | null; source: string }[] }, object>(
      "parcels.events",
      { id: parcel.id },
      { meta: meta() }
    );
    expect(history.items[history.items.length - 1]).toMatchObject({
      status: "IN_TRANSIT",
      source: "merchant",
      reason: `redirected from ${ALGER} to ${BAB_EZZOUAR} by the merchant`
    });
    const tracking = await broker.call<PublicTracking, object>("parcels.publicTracking", { trackingNumber: parcel.trackingNumber });
    expect(tracking.destination.code).toBe(BAB_EZZOUAR);
    if (database.url) await checkMoneyInvariant(database.url);
  });

  test("at most 2 redirects per parcel; two at once on the last one: one wins", async () => {
    const parcel = await create();
    await redirect(parcel.id, BAB_EZZOUAR);
    const race = await Promise.allSettled([redirect(parcel.id, KOUBA), redirect(parcel.id, HYDRA)]);
    expect(race.filter(r => r.status === "fulfilled")).toHaveLength(1);
    expect((race.find(r => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ type: "REDIRECT_LIMIT", code: 409 });
    await expect(redirect(parcel.id, ALGER)).rejects.toMatchObject({ type: "REDIRECT_LIMIT" });
    expect((await outboxOf(parcel.id)).filter(e => e.type === "parcel.redirected")).toHaveLength(2);
  });

  test("too late, wrong relay point, full relay point, the same one, another organisation's or mode's parcel", async () => {
    const atRelay = await inTransit();
    await operator(atRelay.id, "AT_RELAY");
    await expect(redirect(atRelay.id, BAB_EZZOUAR)).rejects.toMatchObject({ type: "PARCEL_ALREADY_AT_RELAY", code: 409 });
    const cancelled = await create();
    await broker.call("parcels.cancel", { id: cancelled.id }, { meta: meta() });
    await expect(redirect(cancelled.id, BAB_EZZOUAR)).rejects.toMatchObject({ type: "INVALID_TRANSITION", code: 409 });

    const parcel = await create();
    await expect(redirect(parcel.id, "DZ-99-NOWHERE")).rejects.toMatchObject({ type: "RELAY_NOT_FOUND", code: 400 });
    await db.query("UPDATE parcels.relay_points SET active = false WHERE code = 'DZ-16-BAB-EL-OUED'");
    await expect(redirect(parcel.id, "DZ-16-BAB-EL-OUED")).rejects.toMatchObject({ type: "RELAY_NOT_FOUND" });
    await db.query("UPDATE parcels.relay_points SET capacity = 0 WHERE code = 'DZ-31-ORAN-HAI-ESSALEM'");
    await expect(redirect(parcel.id, "DZ-31-ORAN-HAI-ESSALEM")).rejects.toMatchObject({ type: "RELAY_FULL", code: 409 });
    await expect(redirect(parcel.id, ALGER)).rejects.toMatchObject({ type: "VALIDATION_FAILED" });
    await expect(redirect(parcel.id, BAB_EZZOUAR, "sandbox")).rejects.toMatchObject({ type: "PARCEL_NOT_FOUND" });
    await expect(redirect(parcel.id, BAB_EZZOUAR, "live", otherOrgId)).rejects.toMatchObject({ type: "PARCEL_NOT_FOUND" });
    // None of the refusals used a redirect.
    expect((await redirect(parcel.id, BAB_EZZOUAR)).destinationRelayCode).toBe(BAB_EZZOUAR);
    expect((await redirect(parcel.id, KOUBA)).destinationRelayCode).toBe(KOUBA);
  });

  test("verification: the same answer for an eligible, an unknown, a malformed and a delivered number; a code only to the eligible one", async () => {
    const eligible = await inTransit();
    const delivered = await create();
    await db.query("UPDATE parcels.parcels SET status = 'DELIVERED' WHERE id = $1", [delivered.id]);
    const answers = await Promise.all(
      [eligible.trackingNumber, "RP000000000DZ", "not a number", delivered.trackingNumber].map(n => requestCode(n))
    );
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0].codeValidSeconds).toBe(600);
    const code = await sms.redirectCodeOf(eligible.trackingNumber);
    expect(code).toMatch(/^\d{6}$/);
    expect(await issueCode(delivered.trackingNumber)).toBe("refused");
    expect(sms.redirectCodesFor(delivered.trackingNumber)).toHaveLength(0);

    // At rest: an HMAC of the code only; the listable SMS copy has the code masked.
    const [stored] = await db.query<{ code_hash: string }>(
      "SELECT code_hash FROM parcels.redirect_codes c JOIN parcels.parcels p ON p.id = c.parcel_id WHERE p.tracking_number = $1",
      [eligible.trackingNumber]
    );
    expect(stored.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.code_hash).not.toContain(code);
    const messages = await broker.call<{ body: string }[], object>("notifications.listMessages", { parcelId: eligible.id });
    expect(messages.map(m => m.body).join(" ")).not.toContain(code);
  });

  test("the recipient's redirect with the code: the public view, parcel.redirected by the recipient, once only", async () => {
    const parcel = await inTransit();
    expect(await issueCode(parcel.trackingNumber)).toBe("sent");
    const code = await sms.redirectCodeOf(parcel.trackingNumber);
    // A refused relay point leaves the code valid for another choice.
    await expect(recipientRedirect(parcel.trackingNumber, code, "DZ-99-NOWHERE")).rejects.toMatchObject({ type: "RELAY_NOT_FOUND" });
    const view = await recipientRedirect(parcel.trackingNumber.toLowerCase(), code, KOUBA);
    expect(view.destination.code).toBe(KOUBA);
    expect(view).not.toHaveProperty("recipientName");
    const redirected = (await outboxOf(parcel.id)).filter(e => e.type === "parcel.redirected");
    expect(redirected.map(e => e.body.data.redirect)).toEqual([{ fromRelayCode: ALGER, toRelayCode: KOUBA, by: "recipient" }]);
    // The code is used up.
    await expect(recipientRedirect(parcel.trackingNumber, code, HYDRA)).rejects.toMatchObject({
      type: "VERIFICATION_CODE_INVALID",
      code: 403
    });
    // The recipient redirected once: no more codes; the merchant's one redirect left, then the limit.
    expect(await issueCode(parcel.trackingNumber)).toBe("refused");
    await redirect(parcel.id, HYDRA);
    await expect(redirect(parcel.id, ALGER)).rejects.toMatchObject({ type: "REDIRECT_LIMIT" });
    const history = await broker.call<{ items: { source: string; reason: string | null }[] }, object>(
      "parcels.events",
      { id: parcel.id },
      { meta: meta() }
    );
    expect(history.items.filter(i => i.reason?.startsWith("redirected")).map(i => i.source)).toEqual(["recipient", "merchant"]);
  });

  test("brute force: five wrong codes end the code, even the right one after them; a new code works", async () => {
    const parcel = await inTransit();
    await issueCode(parcel.trackingNumber);
    const code = await sms.redirectCodeOf(parcel.trackingNumber, 1);
    for (let i = 0; i < 5; i++) {
      await expect(recipientRedirect(parcel.trackingNumber, wrongCode(code), KOUBA)).rejects.toMatchObject({
        type: "VERIFICATION_CODE_INVALID"
      });
    }
    await expect(recipientRedirect(parcel.trackingNumber, code, KOUBA)).rejects.toMatchObject({ type: "VERIFICATION_CODE_INVALID" });
    await issueCode(parcel.trackingNumber);
    const fresh = await sms.redirectCodeOf(parcel.trackingNumber, 2);
    expect((await recipientRedirect(parcel.trackingNumber, fresh, KOUBA)).destination.code).toBe(KOUBA);
  });

  test("a new code ends the previous one; an expired code is refused; an unknown number is refused the same way", async () => {
    const parcel = await inTransit();
    await issueCode(parcel.trackingNumber);
    const first = await sms.redirectCodeOf(parcel.trackingNumber, 1);
    await issueCode(parcel.trackingNumber);
    const second = await sms.redirectCodeOf(parcel.trackingNumber, 2);
    if (first !== second) {
      await expect(recipientRedirect(parcel.trackingNumber, first, KOUBA)).rejects.toMatchObject({ type: "VERIFICATION_CODE_INVALID" });
    }
    await db.query("UPDATE parcels.redirect_codes SET expires_at = now() - interval '1 second' WHERE parcel_id = $1", [parcel.id]);
    await expect(recipientRedirect(parcel.trackingNumber, second, KOUBA)).rejects.toMatchObject({ type: "VERIFICATION_CODE_INVALID" });
    const refusalOf = (trackingNumber: string) =>
      recipientRedirect(trackingNumber, second, KOUBA).then(
        () => null,
        (err: { type: string; message: string }) => ({ type: err.type, message: err.message })
      );
    expect(await refusalOf("RP000000000DZ")).toEqual(await refusalOf(parcel.trackingNumber));
  });

  test("at most 3 codes an hour per parcel; none for a sandbox parcel", async () => {
    const parcel = await inTransit();
    for (let i = 0; i < 3; i++) expect(await issueCode(parcel.trackingNumber)).toBe("sent");
    expect(await issueCode(parcel.trackingNumber)).toBe("refused");
    await sms.redirectCodeOf(parcel.trackingNumber, 3);
    expect(sms.redirectCodesFor(parcel.trackingNumber)).toHaveLength(3);
    const sandbox = await create("sandbox");
    expect(await issueCode(sandbox.trackingNumber)).toBe("refused");
  });
});
