import { randomBytes, randomUUID } from "node:crypto";
import { relayAgent } from "../e2e/relay-contract";
import { eventually, Merchant, merchants, PARCEL } from "../e2e/merchant-helpers";
import { http } from "../helpers/http";
import { inProcessSystem } from "../helpers/in-process-system";

/**
 * Issue 30 beyond create, quote and batch: the recipient's phone is entered once, at create, and
 * every later SMS reaches it through the same normalisation — the redirect code, the return
 * code — as E.164, or not at all for a number that cannot take one (recorded undeliverable, the
 * merchant told once by parcel.recipient_unreachable). Redirect and returns take no phone number
 * of their own (their params have none), so there is nothing there for rejectNonMobilePhones to
 * refuse: a merchant with it on keeps redirecting and opening returns. And the counter finds the
 * stored E.164 number by the number as the recipient says it. The whole system in this process,
 * on PGlite.
 */

const TO_IN_TRANSIT = ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT"];
const MOBILE = { typed: "0661 22 33 07", e164: "+213661223307" };
const LANDLINE = "021 23 45 67";

describe("the recipient's phone in redirects, returns and at the counter, on PGlite", () => {
  const sut = inProcessSystem(async () => ({ env: { DATA_DIR: `memory://phone-flows-${randomUUID()}` }, drop: async () => undefined }));
  const m = merchants(sut.system);
  let strict: Merchant;

  beforeAll(async () => {
    strict = await m.create("Stricte Ailleurs SARL", 100_000);
    expect((await strict.live("PUT", "/recipient-settings", { rejectNonMobilePhones: true, defaultLanguage: "fr" })).status).toBe(200);
  }, 60_000);

  const create = async (merchant: Merchant, recipientPhone: string, extra: object = {}) => {
    const res = await merchant.live("POST", "/parcels", { ...PARCEL, recipientPhone, ...extra });
    expect(res.status).toBe(201);
    return res.body as { id: string; trackingNumber: string };
  };
  const relayPoint = async () => {
    const code = `DZ-99-P${randomBytes(4).toString("hex").toUpperCase()}`;
    expect((await m.bo().call("POST", "/relay-points", { code, name: `Counter ${code}`, city: "Alger" })).status).toBe(201);
    return code;
  };
  const requestRedirectCode = (trackingNumber: string) =>
    http(sut.system().baseUrl, "POST", `/api/public/v1/tracking/${trackingNumber}/verification`, {});
  const unreachableEvents = async (merchant: Merchant, parcelId: string) =>
    ((await merchant.live("GET", `/events?parcelId=${parcelId}&limit=100`)).body.items as { type: string }[]).filter(
      e => e.type === "parcel.recipient_unreachable"
    );
  const statuses = async (parcelId: string) =>
    (await sut.broker().call<{ status: string; body: string }[], object>("notifications.listMessages", { parcelId })).map(
      msg => msg.status
    );

  test("the redirect code goes to the number typed at create, as E.164; rejectNonMobilePhones does not stop a redirect", async () => {
    const parcel = await create(strict, MOBILE.typed);
    await m.move(parcel.id, ...TO_IN_TRANSIT);
    expect((await requestRedirectCode(parcel.trackingNumber)).status).toBe(202);
    await sut.system().sms.redirectCodeOf(parcel.trackingNumber);
    expect(
      sut
        .system()
        .sms.sentFor(parcel.trackingNumber)
        .map(s => s.to)
    ).toEqual([MOBILE.e164]);
    const redirected = await strict.live("POST", `/parcels/${parcel.id}/redirect`, { destinationRelayCode: await relayPoint() });
    expect(redirected.status).toBe(200);
  });

  test("a landline: the recipient's redirect request answers the same, no code is sent, it is recorded undeliverable, the merchant told once", async () => {
    const mobile = await create(strict, MOBILE.typed);
    const lenient = await m.create("Souple Ailleurs SARL", 100_000);
    const landline = await create(lenient, LANDLINE);
    await m.move(mobile.id, ...TO_IN_TRANSIT);
    await m.move(landline.id, ...TO_IN_TRANSIT);
    const [toMobile, toLandline] = [await requestRedirectCode(mobile.trackingNumber), await requestRedirectCode(landline.trackingNumber)];
    // The public answer reveals nothing about the number on file.
    expect({ status: toLandline.status, body: toLandline.body }).toEqual({ status: toMobile.status, body: toMobile.body });
    await sut.system().sms.redirectCodeOf(mobile.trackingNumber);
    expect(
      await eventually(
        () => statuses(landline.id),
        s => s.length > 0
      )
    ).toEqual(["undeliverable"]);
    expect(sut.system().sms.sentFor(landline.trackingNumber)).toEqual([]);
    expect(
      await eventually(
        () => unreachableEvents(lenient, landline.id),
        e => e.length > 0
      )
    ).toHaveLength(1);
    // A second code asked for later: still nothing sent, and no second webhook.
    await requestRedirectCode(landline.trackingNumber);
    await eventually(
      () => statuses(landline.id),
      s => s.length > 1
    );
    expect(await unreachableEvents(lenient, landline.id)).toHaveLength(1);
    expect(sut.system().sms.sentFor(landline.trackingNumber)).toEqual([]);
  });

  test("the return code goes to the number on file as E.164; a return opens under rejectNonMobilePhones", async () => {
    const relay = await relayPoint();
    const parcel = await create(strict, MOBILE.typed, { destinationRelayCode: relay });
    await m.move(parcel.id, ...TO_IN_TRANSIT);
    const agent = relayAgent(
      sut.system().baseUrl,
      (await m.bo().call("POST", `/relay-points/${relay}/agent-keys`, { name: "c" })).body.key
    );
    expect((await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber })).status).toBe(200);
    const pin = await sut.system().sms.pinOf(parcel.trackingNumber);
    // The counter finds the parcel by the whole number as the recipient says it, though it is stored as E.164.
    const found = await agent("GET", `/parcels?hint=${encodeURIComponent(MOBILE.typed)}`);
    expect(found.status).toBe(200);
    expect(found.body.items.map((i: { trackingNumber: string }) => i.trackingNumber)).toContain(parcel.trackingNumber);
    expect((await agent("GET", "/parcels?hint=0661223308")).body.items).toEqual([]);
    expect((await agent("POST", "/handovers", { trackingNumber: parcel.trackingNumber, pin })).status).toBe(200);

    const opened = await strict.live("POST", `/parcels/${parcel.id}/returns`, { reason: "Trop petit", destinationRelayCode: relay });
    expect(opened.status).toBe(201);
    const sent = await eventually(
      async () =>
        sut
          .system()
          .sms.sentFor(parcel.trackingNumber)
          .filter(s => s.message.includes(opened.body.returnCode)),
      found => found.length > 0
    );
    expect(sent.map(s => s.to)).toEqual([MOBILE.e164]);
  });
});
