import { randomBytes } from "node:crypto";
import type { SystemUnderTest } from "./gateway-contract";
import { eventually, expectError, Merchant, merchants, PARCEL } from "./merchant-helpers";
import { relayAgent } from "./relay-contract";

/**
 * Issue 21, customers' returns: a code by SMS, a drop-off at any relay point (the fee charged then,
 * once), the return parcel followed to the merchant's relay point and collected with its PIN, the
 * expiry exactly once. The clock is moved by `travel` (SQL on the system's own database), which
 * only the in-process suites have (test/integration/returns.test.ts, on both engines).
 */

export interface ReturnsSystem extends SystemUnderTest {
  /** Runs SQL on the parcels database: moves a return's or a delivery's time into the past. */
  sql(text: string, params?: unknown[]): Promise<unknown[]>;
  /** One returns pass, as the background loop runs it (parcels.runReturnsPass). */
  runReturnsPass(): Promise<{ expired: number; feesCharged: number }>;
  /** The wallet's charge, called again as a retry would (wallet.chargeReturnShipment). */
  chargeAgain(movement: { parcelId: string; organizationId: string; mode: string; amountCentimes: number }): Promise<unknown>;
}

const RETURN_CODE_IN_SMS = /code de retour ([A-Z0-9]{8})\./;

interface Entry {
  type: string;
  parcelId: string | null;
  amountDzd: number;
}

function helpers(system: () => ReturnsSystem) {
  const m = merchants(system);
  const agentOf = async (code: string) => {
    const res = await m.bo().call("POST", `/relay-points/${code}/agent-keys`, { name: "counter" });
    expect(res.status).toBe(201);
    return relayAgent(system().baseUrl, res.body.key);
  };
  return {
    m,
    agentOf,
    async relayPoint(): Promise<string> {
      const code = `DZ-99-T${randomBytes(4).toString("hex").toUpperCase()}`;
      expect((await m.bo().call("POST", "/relay-points", { code, name: `Counter ${code}`, city: "Oran" })).status).toBe(201);
      return code;
    },
    /** A live parcel delivered at `relay` against its PIN, as a counter does it. */
    async delivered(merchant: Merchant, relay: string): Promise<{ id: string; trackingNumber: string }> {
      const phone = `+213 555 ${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
      const res = await merchant.live("POST", "/parcels", { ...PARCEL, recipientPhone: phone, destinationRelayCode: relay });
      expect(res.status).toBe(201);
      await m.move(res.body.id, "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT");
      const agent = await agentOf(relay);
      expect((await agent("POST", "/arrivals", { trackingNumber: res.body.trackingNumber })).status).toBe(200);
      const pin = await system().sms.pinOf(res.body.trackingNumber);
      expect((await agent("POST", "/handovers", { trackingNumber: res.body.trackingNumber, pin })).status).toBe(200);
      return res.body;
    },
    async codeFromSms(trackingNumber: string): Promise<string> {
      const text = await eventually(
        async () =>
          system()
            .sms.messagesFor(trackingNumber)
            .find(t => RETURN_CODE_IN_SMS.test(t)),
        found => found !== undefined
      );
      return RETURN_CODE_IN_SMS.exec(text ?? "")?.[1] ?? "no SMS";
    },
    async shipments(merchant: Merchant, mode: "live" | "sandbox" = "live"): Promise<Entry[]> {
      const res = await merchant[mode]("GET", "/wallet/entries?size=100");
      return (res.body.items as Entry[]).filter(e => e.type === "RETURN_SHIPMENT");
    },
    async eventTypes(merchant: Merchant, parcelId: string, mode: "live" | "sandbox" = "live"): Promise<string[]> {
      const res = await merchant[mode]("GET", `/events?parcelId=${parcelId}&size=100`);
      expect(res.status).toBe(200);
      return (res.body.items as { type: string; sequence: number }[]).sort((a, b) => a.sequence - b.sequence).map(e => e.type);
    }
  };
}

/** Acceptance 1, returns: deliver, open a return, the code by SMS, drop off elsewhere (charged then), follow, collect. */
export function returnJourneyContract(system: () => ReturnsSystem): void {
  const h = helpers(system);

  test("a customer's return: code by SMS, drop-off at another relay point, fee then, the return parcel collected with its PIN", async () => {
    const merchant = await h.m.create("Returns Journey SARL", 50_000);
    const shopRelay = await h.relayPoint();
    const customerRelay = await h.relayPoint();
    const elsewhere = await h.relayPoint();

    expect((await merchant.live("GET", "/return-settings")).body).toEqual({ returnRelayCode: null });
    const settings = await merchant.live("PUT", "/return-settings", { returnRelayCode: shopRelay });
    expect(settings.status).toBe(200);
    expect((await merchant.live("GET", "/return-settings")).body).toEqual({ returnRelayCode: shopRelay });

    const parcel = await h.delivered(merchant, customerRelay);
    const balanceBefore = (await merchant.live("GET", "/wallet")).body.balanceDzd;

    const opened = await merchant.live("POST", `/parcels/${parcel.id}/returns`, {
      reason: "Taille trop petite",
      items: [{ description: "Robe bleue", quantity: 1 }]
    });
    expect(opened.status).toBe(201);
    expect(opened.headers.get("location")).toContain(`/api/partner/v1/returns/${opened.body.id}`);
    expect(opened.body).toMatchObject({
      parcelId: parcel.id,
      status: "AWAITING_DROP_OFF",
      destinationRelayCode: shopRelay,
      returnParcelId: null,
      collectionPin: null,
      items: [{ description: "Robe bleue", quantity: 1 }]
    });
    expect(opened.body.returnCode).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    const days = (Date.parse(opened.body.expiresAt) - Date.parse(opened.body.createdAt)) / 86_400_000;
    expect(Math.round(days)).toBe(14);
    expect((await merchant.live("GET", "/wallet")).body.balanceDzd).toBe(balanceBefore);

    // The recipient's SMS carries the code; public tracking says a code was sent, never which.
    expect(await h.codeFromSms(parcel.trackingNumber)).toBe(opened.body.returnCode);
    const tracking = await merchant
      .live("GET", `/parcels/${parcel.id}`)
      .then(() => fetch(`${system().baseUrl}/api/public/v1/tracking/${parcel.trackingNumber}`).then(r => r.text()));
    expect(JSON.parse(tracking).returnCodeSentAt).toEqual(expect.any(String));
    expect(tracking).not.toContain(opened.body.returnCode);
    const page = await fetch(`${system().baseUrl}/track/${parcel.trackingNumber}?lang=fr`).then(r => r.text());
    expect(page).toContain("Code de retour envoyé");
    expect(page).not.toContain(opened.body.returnCode);

    // Dropped off at another relay point, the code typed in lower case with spaces.
    const counter = await h.agentOf(elsewhere);
    const typed = `${opened.body.returnCode.slice(0, 4).toLowerCase()} ${opened.body.returnCode.slice(4)}`;
    const dropped = await counter("POST", "/drop-offs", { returnCode: typed });
    expect(dropped.status).toBe(201);
    expect(dropped.body).toMatchObject({ status: "READY_FOR_PICKUP", weightG: PARCEL.weightG, recipientHint: "R. ••" });
    expect(dropped.body.trackingNumber).not.toBe(parcel.trackingNumber);
    const outgoing = await counter("GET", "/parcels?status=READY_FOR_PICKUP");
    expect(outgoing.body.items.map((p: { trackingNumber: string }) => p.trackingNumber)).toEqual([dropped.body.trackingNumber]);

    const afterDrop = (await merchant.live("GET", `/returns/${opened.body.id}`)).body;
    expect(afterDrop).toMatchObject({ status: "DROPPED_OFF", droppedOffRelayCode: elsewhere, collectionPin: null });
    expect(afterDrop.returnParcelId).toEqual(expect.any(String));
    const shipments = await h.shipments(merchant);
    expect(shipments).toEqual([expect.objectContaining({ parcelId: afterDrop.returnParcelId, amountDzd: afterDrop.feeDzd })]);
    expect((await merchant.live("GET", "/wallet")).body.balanceDzd).toBeCloseTo(balanceBefore - afterDrop.feeDzd, 2);

    // The return parcel is a parcel: RETURN, returnOf, filtered by direction.
    const returnParcel = (await merchant.live("GET", `/parcels/${afterDrop.returnParcelId}`)).body;
    expect(returnParcel).toMatchObject({
      direction: "RETURN",
      returnOf: parcel.id,
      status: "READY_FOR_PICKUP",
      destinationRelayCode: shopRelay
    });
    const returns = (await merchant.live("GET", "/parcels?direction=RETURN")).body;
    expect(returns).toMatchObject({ totalElements: 1, items: [{ id: returnParcel.id }] });
    const outbound = (await merchant.live("GET", "/parcels?direction=OUTBOUND")).body.items.map((p: { id: string }) => p.id);
    expect(outbound).toEqual([parcel.id]);

    // Followed to the merchant's relay point: no SMS to the customer, the PIN in the return and its webhook.
    await h.m.move(returnParcel.id, "PICKED_UP", "IN_TRANSIT");
    const shop = await h.agentOf(shopRelay);
    expect((await shop("POST", "/arrivals", { trackingNumber: returnParcel.trackingNumber })).status).toBe(200);
    const waiting = await eventually(
      () => merchant.live("GET", `/returns/${opened.body.id}`).then(r => r.body),
      r => r.collectionPin !== null
    );
    expect(waiting.collectionPin).toMatch(/^[0-9]{6}$/);
    const ready = await eventually(
      () => merchant.live("GET", `/events?parcelId=${parcel.id}&type=return.ready_for_collection`).then(r => r.body.items),
      items => items.length === 1
    );
    expect(ready[0].data.return).toMatchObject({ id: opened.body.id, collectionPin: waiting.collectionPin });
    expect(system().sms.messagesFor(returnParcel.trackingNumber)).toEqual([]);
    expect((await merchant.live("GET", `/parcels/${returnParcel.id}`)).body).toMatchObject({ status: "AT_RELAY", pickupDeadline: null });

    const handover = await shop("POST", "/handovers", { trackingNumber: returnParcel.trackingNumber, pin: waiting.collectionPin });
    expect(handover.status).toBe(200);
    expect((await merchant.live("GET", `/returns/${opened.body.id}`)).body.collectionPin).toBeNull();
    expect(
      await eventually(
        () => h.eventTypes(merchant, parcel.id),
        types => types.includes("return.ready_for_collection")
      )
    ).toEqual([
      "parcel.created",
      "parcel.ready_for_pickup",
      "parcel.picked_up",
      "parcel.in_transit",
      "parcel.at_relay",
      "parcel.relay_notified",
      "parcel.delivered",
      "return.created",
      "return.dropped_off",
      "return.ready_for_collection"
    ]);
    expect(await h.shipments(merchant)).toHaveLength(1);

    // Damaged on its way back: a claim on the return parcel pays the compensation plus the return
    // shipment it cost (its pricePaidDzd), as claims.md says (issue 26).
    const claim = await merchant.live("POST", `/parcels/${returnParcel.id}/claims`, {
      type: "DAMAGED",
      description: "Robe déchirée au retour",
      amountClaimedDzd: 5000
    });
    expect(claim.status).toBe(201);
    expect(claim.body).toMatchObject({ maxCompensationDzd: 5000 });
    expect(claim.body.evidence).toMatchObject({ insuredValueDzd: 5000, insurancePaidDzd: 0, pricePaidDzd: afterDrop.feeDzd });
    const beforeClaim = (await merchant.live("GET", "/wallet")).body.balanceDzd;
    expect((await h.m.bo().call("POST", `/claims/${claim.body.id}/decision`, { approved: true, note: "photos" })).status).toBe(200);
    const paid = await eventually(
      () => merchant.live("GET", `/claims/${claim.body.id}`).then(r => r.body),
      c => c.paidDzd !== null
    );
    expect(paid).toMatchObject({ status: "APPROVED", compensationDzd: 5000, paidDzd: 5000 + afterDrop.feeDzd });
    expect((await merchant.live("GET", "/wallet")).body.balanceDzd).toBeCloseTo(beforeClaim + 5000 + afterDrop.feeDzd, 2);
  });
}

/** Every rule of returns, and their races (run against the real PostgreSQL and PGlite). */
export function returnRulesContract(system: () => ReturnsSystem): void {
  const h = helpers(system);
  let merchant: Merchant;
  let relay: string;

  beforeAll(async () => {
    merchant = await h.m.create("Returns Rules SARL", 500_000, 50_000);
    relay = await h.relayPoint();
  });

  const open = (parcelId: string, body: Record<string, unknown> = {}) =>
    merchant.live("POST", `/parcels/${parcelId}/returns`, { reason: "Abîmé", destinationRelayCode: relay, ...body });

  test("opening: delivered parcels only, within the window, one open return, a destination, this organisation's and mode's", async () => {
    const created = await merchant.live("POST", "/parcels", { ...PARCEL, destinationRelayCode: relay });
    expectError(await open(created.body.id), 409, "PARCEL_NOT_RETURNABLE");

    const fresh = await h.m.create("Returns No Settings SARL", 50_000);
    const theirs = await h.delivered(fresh, relay);
    expectError(
      await fresh.live("POST", `/parcels/${theirs.id}/returns`, { reason: "x" }),
      400,
      "VALIDATION_FAILED",
      "destinationRelayCode"
    );
    expectError(
      await fresh.live("POST", `/parcels/${theirs.id}/returns`, { reason: "x", destinationRelayCode: "DZ-99-NOWHERE" }),
      400,
      "RELAY_NOT_FOUND"
    );
    expectError(await fresh.live("PUT", "/return-settings", { returnRelayCode: "DZ-99-NOWHERE" }), 400, "RELAY_NOT_FOUND");
    expectError(await fresh.live("POST", `/parcels/${theirs.id}/returns`, {}), 400, "VALIDATION_FAILED", "reason");
    expectError(await open(theirs.id), 404, "PARCEL_NOT_FOUND");
    expectError(
      await fresh.sandbox("POST", `/parcels/${theirs.id}/returns`, { reason: "x", destinationRelayCode: relay }),
      404,
      "PARCEL_NOT_FOUND"
    );

    const mine = await h.delivered(merchant, relay);
    const first = await open(mine.id);
    expect(first.status).toBe(201);
    expectError(await open(mine.id), 409, "RETURN_ALREADY_OPEN");
    expectError(await fresh.live("GET", `/returns/${first.body.id}`), 404, "RETURN_NOT_FOUND");
    expectError(await merchant.sandbox("GET", `/returns/${first.body.id}`), 404, "RETURN_NOT_FOUND");

    // Delivered more than RETURN_WINDOW_DAYS (14) ago: too late.
    const old = await h.delivered(merchant, relay);
    await system().sql(
      "UPDATE parcels.status_history SET created_at = now() - interval '15 days' WHERE parcel_id = $1 AND to_status = 'DELIVERED'",
      [old.id]
    );
    expectError(await open(old.id), 409, "PARCEL_NOT_RETURNABLE");
  });

  test("codes: 8 characters without look-alikes, different for each return; unknown, cancelled, used and expired codes", async () => {
    const codes = new Set<string>();
    const opened = [];
    for (let i = 0; i < 4; i++) {
      const parcel = await h.delivered(merchant, relay);
      const res = await open(parcel.id);
      expect(res.body.returnCode).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
      codes.add(res.body.returnCode);
      opened.push(res.body);
    }
    expect(codes.size).toBe(4);
    const counter = await h.agentOf(await h.relayPoint());
    expectError(await counter("POST", "/drop-offs", { returnCode: "AAAA2222" }), 404, "RETURN_CODE_NOT_FOUND");
    expectError(await counter("POST", "/drop-offs", { returnCode: "not a code at all" }), 404, "RETURN_CODE_NOT_FOUND");
    expectError(await counter("POST", "/drop-offs", {}), 400, "VALIDATION_FAILED", "returnCode");

    const [cancelMe, useMe, expireMe] = opened;
    const cancelled = await merchant.live("POST", `/returns/${cancelMe.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("CANCELLED");
    expectError(await merchant.live("POST", `/returns/${cancelMe.id}/cancel`), 409, "RETURN_NOT_CANCELLABLE");
    expectError(await counter("POST", "/drop-offs", { returnCode: cancelMe.returnCode }), 404, "RETURN_CODE_NOT_FOUND");
    // The customer may open a new return of it once the first is over.
    expect((await open(cancelMe.parcelId)).status).toBe(201);

    expect((await counter("POST", "/drop-offs", { returnCode: useMe.returnCode })).status).toBe(201);
    const elsewhere = await h.agentOf(await h.relayPoint());
    expectError(await elsewhere("POST", "/drop-offs", { returnCode: useMe.returnCode }), 409, "RETURN_CODE_USED");
    expectError(await merchant.live("POST", `/returns/${useMe.id}/cancel`), 409, "RETURN_NOT_CANCELLABLE");

    await system().sql("UPDATE parcels.returns SET expires_at = now() - interval '1 second' WHERE id = $1", [expireMe.id]);
    expectError(await counter("POST", "/drop-offs", { returnCode: expireMe.returnCode }), 409, "RETURN_CODE_EXPIRED");

    const listed = await merchant.live("GET", "/returns?status=CANCELLED&size=100");
    expect(listed.body.items.map((r: { id: string }) => r.id)).toContain(cancelMe.id);
    expect(listed.body.items.every((r: { status: string }) => r.status === "CANCELLED")).toBe(true);
    expectError(await merchant.live("GET", "/returns?status=LOST"), 400, "VALIDATION_FAILED", "status");
    expect(await h.eventTypes(merchant, cancelMe.parcelId)).toEqual(expect.arrayContaining(["return.created", "return.cancelled"]));
  });

  test("two relay points scanning one code at once: one wins, the other is told it is used, one fee", async () => {
    const parcel = await h.delivered(merchant, relay);
    const opened = (await open(parcel.id)).body;
    const counters = await Promise.all([h.relayPoint(), h.relayPoint(), h.relayPoint(), h.relayPoint()].map(async c => h.agentOf(await c)));
    const answers = await Promise.all(counters.map(counter => counter("POST", "/drop-offs", { returnCode: opened.returnCode })));
    expect(answers.map(a => a.status).sort()).toEqual([201, 409, 409, 409]);
    for (const refused of answers.filter(a => a.status === 409)) expect(refused.body.code).toBe("RETURN_CODE_USED");
    const after = (await merchant.live("GET", `/returns/${opened.id}`)).body;
    expect((await h.shipments(merchant)).filter(e => e.parcelId === after.returnParcelId)).toHaveLength(1);
    expect(
      (await merchant.live("GET", "/parcels?direction=RETURN&size=100")).body.items.filter(
        (p: { returnOf: string }) => p.returnOf === parcel.id
      )
    ).toHaveLength(1);
  });

  test("the fee is taken once under retries: the same counter again, the wallet asked again, a pass after a lost acknowledgement", async () => {
    const parcel = await h.delivered(merchant, relay);
    const opened = (await open(parcel.id)).body;
    const counter = await h.agentOf(await h.relayPoint());
    const first = await counter("POST", "/drop-offs", { returnCode: opened.returnCode });
    const again = await counter("POST", "/drop-offs", { returnCode: opened.returnCode });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.trackingNumber).toBe(first.body.trackingNumber);
    const after = (await merchant.live("GET", `/returns/${opened.id}`)).body;
    const movement = {
      parcelId: after.returnParcelId,
      organizationId: merchant.orgId,
      mode: "live",
      amountCentimes: Math.round(after.feeDzd * 100)
    };
    await Promise.all([system().chargeAgain(movement), system().chargeAgain(movement)]);
    // The acknowledgement lost: the pass asks again.
    await system().sql("UPDATE parcels.returns SET fee_pending = true WHERE id = $1", [opened.id]);
    await Promise.all([system().runReturnsPass(), system().runReturnsPass()]);
    expect((await system().sql("SELECT fee_pending FROM parcels.returns WHERE id = $1", [opened.id]))[0]).toEqual({ fee_pending: false });
    expect((await h.shipments(merchant)).filter(e => e.parcelId === after.returnParcelId).map(e => e.amountDzd)).toEqual([after.feeDzd]);
  });

  test("a return not dropped off in time expires once, whoever runs the pass, and costs nothing", async () => {
    const parcel = await h.delivered(merchant, relay);
    const opened = (await open(parcel.id)).body;
    const before = await h.shipments(merchant);
    await system().sql("UPDATE parcels.returns SET expires_at = now() - interval '1 second' WHERE id = $1", [opened.id]);
    await Promise.all([system().runReturnsPass(), system().runReturnsPass(), system().runReturnsPass()]);
    const expired = await eventually(
      () => merchant.live("GET", `/returns/${opened.id}`).then(r => r.body),
      r => r.status === "EXPIRED"
    );
    expect(expired).toMatchObject({ status: "EXPIRED", returnParcelId: null });
    const types = await eventually(
      () => h.eventTypes(merchant, parcel.id),
      t => t.includes("return.expired")
    );
    expect(types.filter(t => t === "return.expired")).toHaveLength(1);
    expect(await h.shipments(merchant)).toEqual(before);
    const tracking = (await fetch(`${system().baseUrl}/api/public/v1/tracking/${parcel.trackingNumber}`).then(r => r.json())) as {
      returnCodeSentAt: string | null;
    };
    expect(tracking.returnCodeSentAt).toBeNull();
  });

  test("sandbox: a return of a sandbox parcel, the simulated drop-off with the sandbox fee, the trigger drives the return parcel", async () => {
    const created = await merchant.sandbox("POST", "/parcels", { ...PARCEL, destinationRelayCode: relay });
    const trigger = (id: string, toStatus: string) => merchant.sandbox("POST", `/sandbox/parcels/${id}/trigger-event`, { toStatus });
    expect((await trigger(created.body.id, "DELIVERED")).status).toBe(202);
    expectError(await open(created.body.id), 404, "PARCEL_NOT_FOUND");
    const opened = await merchant.sandbox("POST", `/parcels/${created.body.id}/returns`, { reason: "essai", destinationRelayCode: relay });
    expect(opened.status).toBe(201);
    expectError(await merchant.live("POST", `/sandbox/returns/${opened.body.id}/drop-off`), 403, "SANDBOX_KEY_REQUIRED");
    const counter = await h.agentOf(await h.relayPoint());
    expectError(await counter("POST", "/drop-offs", { returnCode: opened.body.returnCode }), 404, "RETURN_CODE_NOT_FOUND");

    const dropped = await merchant.sandbox("POST", `/sandbox/returns/${opened.body.id}/drop-off`);
    expect(dropped.status).toBe(201);
    expect(dropped.body).toMatchObject({ status: "DROPPED_OFF", droppedOffRelayCode: relay });
    expect((await h.shipments(merchant, "sandbox")).map(e => e.parcelId)).toEqual([dropped.body.returnParcelId]);
    expect((await h.shipments(merchant)).map(e => e.parcelId)).not.toContain(dropped.body.returnParcelId);

    expect((await trigger(dropped.body.returnParcelId, "AT_RELAY")).status).toBe(202);
    const waiting = (await merchant.sandbox("GET", `/returns/${opened.body.id}`)).body;
    expect(waiting.collectionPin).toMatch(/^[0-9]{6}$/);
    expect(
      await eventually(
        () => h.eventTypes(merchant, created.body.id, "sandbox"),
        t => t.includes("return.ready_for_collection")
      )
    ).toEqual(expect.arrayContaining(["return.created", "return.dropped_off", "return.ready_for_collection"]));
  });
}
