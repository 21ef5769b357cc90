import { randomUUID } from "node:crypto";
import {
  AuthenticationError,
  ConflictError,
  InsufficientFundsError,
  NotFoundError,
  Parcel,
  PermissionError,
  RelayError,
  RelayParcels,
  ValidationError,
  WebhookVerificationError
} from "../../../sdk/typescript/src";
import { startReceiver, type Receiver } from "../../helpers/receivers";
import { PARCEL, startedSystem } from "./sdk-system";

/**
 * Issue 29, acceptance 1: the SDK against the running embedded system. Every resource call, the
 * typed errors with their codes, auto-pagination over 250 parcels, and real webhook deliveries
 * verified with the SDK (a tampered or stale one refused).
 */

const system = startedSystem();

async function caught(promise: Promise<unknown>): Promise<RelayError> {
  try {
    await promise;
  } catch (err) {
    return err as RelayError;
  }
  throw new Error("expected the call to fail");
}

describe("SDK resources against the embedded system", () => {
  test("parcels: create, get, byTracking, list, quote, events, redirect, label, labels, cancel, createBatch", async () => {
    const { live } = await system.merchant("Sdk Colis SARL");
    const health = await live.health();
    expect(health).toMatchObject({ status: "ok", organizationName: "Sdk Colis SARL" });

    const quote = await live.parcels.quote({ weightG: 1200, destinationRelayCode: "DZ-16-ALGER-CENTRE", codAmountDzd: 1500 });
    const created = await live.parcels.create({ ...PARCEL, weightG: 1200 });
    expect(created).toMatchObject({ status: "CREATED", destinationRelayCode: "DZ-16-ALGER-CENTRE", codAmountDzd: 1500 });
    expect(created.pricePaidDzd).toBe(quote.priceDzd);
    // The automatic Idempotency-Key is on the result, with the request id and the rate limit.
    expect(created.lastResponse).toMatchObject({ status: 201, retries: 0, rateLimit: { limit: 100_000 } });
    expect(created.lastResponse.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.lastResponse.requestId).toBeTruthy();
    expect(created.lastResponse.rateLimit.remaining).toBeLessThan(100_000);
    expect(JSON.parse(JSON.stringify(created))).not.toHaveProperty("lastResponse");

    expect(await live.parcels.get(created.id)).toMatchObject({ id: created.id, trackingNumber: created.trackingNumber });
    expect((await live.parcels.byTracking(created.trackingNumber.toLowerCase())).id).toBe(created.id);
    const page = await live.parcels.list({ status: "CREATED", size: 5 });
    expect(page).toMatchObject({ page: 0, size: 5, totalElements: 1 });
    expect(page.items.map(p => p.id)).toEqual([created.id]);

    const history = await live.parcels.events(created.id);
    expect(history.items.map(e => e.status)).toEqual(["CREATED"]);

    const redirected = await live.parcels.redirect(created.id, { destinationRelayCode: "DZ-16-BAB-EZZOUAR" });
    expect(redirected.destinationRelayCode).toBe("DZ-16-BAB-EZZOUAR");

    const label = await live.parcels.label(created.id);
    expect(label.contentType).toBe("application/pdf");
    expect(Buffer.from(label.bytes).subarray(0, 5).toString()).toBe("%PDF-");
    const zpl = await live.parcels.label(created.id, { format: "zpl" });
    expect(Buffer.from(zpl.bytes).toString("latin1")).toMatch(/^\^XA/);
    const document = await live.parcels.labels({ parcelIds: [created.id], format: "a4" });
    expect(document.url).toMatch(/^http/);

    const cancelled = await live.parcels.cancel(created.id, { reason: "order cancelled" });
    expect(cancelled.status).toBe("CANCELLED");

    const batch = await live.parcels.createBatch({ items: [PARCEL, { ...PARCEL, weightG: 40_000 }, PARCEL] });
    expect(batch).toMatchObject({ created: 2, failed: 1 });
    expect(batch.items.map(i => i.status)).toEqual([201, 400, 201]);
    // Each item got "<the call's key>:<index>", so that a retried batch makes each parcel once (an invalid item has none).
    const key = batch.lastResponse.idempotencyKey;
    expect(batch.items.map(i => i.idempotencyKey)).toEqual([`${key}:0`, null, `${key}:2`]);
  });

  test("sandbox, extendPickup, returns, claims, relay points, wallet, cod, events", async () => {
    const { sandbox } = await system.merchant("Sdk Bac à sable SARL");
    const parcel = await sandbox.parcels.create(PARCEL);
    for (const toStatus of ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "AT_RELAY"] as const) {
      const moved = await sandbox.sandbox.trigger(parcel.id, { toStatus, reason: "sdk test" });
      expect(moved).toMatchObject({ parcelId: parcel.id, newStatus: toStatus });
    }
    const before = await sandbox.parcels.get(parcel.id);
    const extended = await sandbox.parcels.extendPickup(parcel.id, { days: 3 });
    expect(Date.parse(extended.pickupDeadline!)).toBeGreaterThan(Date.parse(before.pickupDeadline!));
    await sandbox.sandbox.trigger(parcel.id, { toStatus: "DELIVERED" });

    const settings = await sandbox.returns.setSettings({ returnRelayCode: "DZ-16-ALGER-CENTRE" });
    expect(settings.returnRelayCode).toBe("DZ-16-ALGER-CENTRE");
    const opened = await sandbox.returns.create(parcel.id, {
      reason: "Taille trop petite",
      items: [{ description: "Robe bleue", quantity: 1 }]
    });
    expect(opened.status).toBe("AWAITING_DROP_OFF");
    expect((await sandbox.returns.get(opened.id)).id).toBe(opened.id);
    expect((await sandbox.returns.list()).items.map(r => r.id)).toEqual([opened.id]);
    expect((await sandbox.returns.cancel(opened.id)).status).toBe("CANCELLED");
    const reopened = await sandbox.returns.create(parcel.id, { reason: "Couleur", items: [{ description: "Robe bleue", quantity: 1 }] });
    const dropped = await sandbox.sandbox.dropOffReturn(reopened.id);
    expect(dropped.status).not.toBe("AWAITING_DROP_OFF");
    expect((await sandbox.returns.settings()).returnRelayCode).toBe("DZ-16-ALGER-CENTRE");

    const damaged = await sandbox.parcels.create(PARCEL);
    await sandbox.sandbox.trigger(damaged.id, { toStatus: "DAMAGED" });
    const claim = await sandbox.claims.create(damaged.id, { type: "DAMAGED", description: "Carton écrasé", amountClaimedDzd: 1000 });
    expect(claim).toMatchObject({ parcelId: damaged.id, type: "DAMAGED", status: "OPEN" });
    expect((await sandbox.claims.get(claim.id)).id).toBe(claim.id);
    expect((await sandbox.claims.list({ status: "OPEN" })).items.map(c => c.id)).toEqual([claim.id]);

    const points = await sandbox.relayPoints.search({ wilaya: "16", size: 3 });
    expect(points.items.length).toBeGreaterThan(0);
    expect(points.items.every(p => p.wilaya === "16")).toBe(true);
    let inAlgiers = 0;
    for await (const point of sandbox.relayPoints.search({ wilaya: "16", size: 2 })) if (point.wilaya === "16") inAlgiers++;
    expect(inAlgiers).toBe(points.totalElements);

    const wallet = await sandbox.wallet.get();
    expect(wallet.mode).toBe("sandbox");
    const entries = await sandbox.wallet.entries().toArray();
    expect(entries.filter(e => e.type === "DEBIT")).toHaveLength(2);

    const summary = await sandbox.cod.summary();
    expect(summary.collectedNotRemitted).toEqual({ amountDzd: 1500, count: 1 });
    expect((await sandbox.cod.remittances()).items).toEqual([]);

    const events = [];
    for await (const event of sandbox.events.all({ parcelId: parcel.id })) events.push(event);
    expect(events.map(e => e.type)).toContain("parcel.delivered");
    expect((await sandbox.events.get(events[0].id)).id).toBe(events[0].id);
  });

  test("errors are typed by family and carry the API's code, status, requestId, details and idempotencyKey", async () => {
    const { live, orgId } = await system.merchant("Sdk Erreurs SARL", { liveDzd: 0 });

    const missing = await caught(live.parcels.get(randomUUID()));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ code: "PARCEL_NOT_FOUND", status: 404, retries: 0 });
    expect(missing.requestId).toBeTruthy();

    const invalid = await caught(live.parcels.create({ ...PARCEL, weightG: 30_001 }, { idempotencyKey: "order-invalid-1" }));
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ code: "VALIDATION_FAILED", status: 400, idempotencyKey: "order-invalid-1" });
    expect(invalid.details).toEqual([expect.objectContaining({ field: "weightG" })]);

    const broke = await caught(live.parcels.create(PARCEL));
    expect(broke).toBeInstanceOf(InsufficientFundsError);
    expect(broke).toMatchObject({ code: "INSUFFICIENT_BALANCE", status: 402 });
    expect(broke.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);

    const unknownKey = await caught(new RelayParcels({ apiKey: "rp_live_nope", baseUrl: system.base() }).wallet.get());
    expect(unknownKey).toBeInstanceOf(AuthenticationError);
    expect(unknownKey).toMatchObject({ code: "UNAUTHENTICATED", status: 401 });

    const liveTrigger = await caught(live.sandbox.trigger(randomUUID(), { toStatus: "DELIVERED" }));
    expect(liveTrigger).toBeInstanceOf(PermissionError);
    expect(liveTrigger).toMatchObject({ code: "SANDBOX_KEY_REQUIRED", status: 403 });

    await system.bo().call("POST", `/organizations/${orgId}/wallet/top-ups`, { amountDzd: 5_000 });
    const parcel = await live.parcels.create(PARCEL, { idempotencyKey: "order-conflict-1" });
    const reused = await caught(live.parcels.create({ ...PARCEL, weightG: 999 }, { idempotencyKey: "order-conflict-1" }));
    expect(reused).toBeInstanceOf(ConflictError);
    expect(reused).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED", status: 422, idempotencyKey: "order-conflict-1" });
    await live.parcels.cancel(parcel.id);
    const twice = await caught(live.parcels.cancel(parcel.id));
    expect(twice).toBeInstanceOf(ConflictError);
    expect(twice).toMatchObject({ code: "PARCEL_NOT_CANCELLABLE", status: 409, retries: 0 });
  });

  test("for await pages through 250 parcels, each once, and stops at maxItems", async () => {
    const { sandbox } = await system.merchant("Sdk Pages SARL", { sandboxDzd: 500_000 });
    for (const count of [100, 100, 50]) {
      const batch = await sandbox.parcels.createBatch({ items: Array.from({ length: count }, () => PARCEL) });
      expect(batch.created).toBe(count);
    }
    const seen: string[] = [];
    for await (const parcel of sandbox.parcels.list({ status: "CREATED" })) seen.push(parcel.id);
    expect(seen).toHaveLength(250);
    expect(new Set(seen).size).toBe(250);

    const firstPages: Parcel[] = [];
    for await (const parcel of sandbox.parcels.list({ size: 40 }, { maxItems: 90 })) firstPages.push(parcel);
    expect(firstPages.map(p => p.id)).toEqual(seen.slice(0, 90));
    expect(await sandbox.parcels.list({ status: "DELIVERED" }).toArray()).toEqual([]);
  });

  describe("webhooks", () => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver();
    });
    afterAll(() => receiver.close());

    test("real deliveries verify with webhooks.verify; a tampered body, a stale one or another secret is refused", async () => {
      const { orgId, sandbox } = await system.merchant("Sdk Webhooks SARL");
      const res = await system.bo().call("POST", `/organizations/${orgId}/webhook-endpoints`, { url: `${receiver.url}/hooks/sdk` });
      expect(res.status).toBe(201);
      const secret: string = res.body.secret;
      const parcel = await sandbox.parcels.create(PARCEL);
      await sandbox.sandbox.trigger(parcel.id, { toStatus: "READY_FOR_PICKUP" });
      await receiver.waitFor(requests => requests.filter(r => r.path === "/hooks/sdk").length >= 2);

      const deliveries = receiver.on("/hooks/sdk");
      const types = deliveries.map(d => sandbox.webhooks.verify(d.rawBody, d.headers, secret).event.type);
      expect(types).toEqual(expect.arrayContaining(["parcel.created", "parcel.ready_for_pickup"]));
      const first = deliveries[0];
      const verified = sandbox.webhooks.verify(first.rawBody, first.headers, secret);
      expect(verified.deliveryId).toBe(first.headers["webhook-id"]);
      expect(verified.event).toMatchObject({ data: { parcel: { id: parcel.id } } });

      const refusal = (fn: () => unknown) => {
        try {
          fn();
        } catch (err) {
          expect(err).toBeInstanceOf(WebhookVerificationError);
          return (err as WebhookVerificationError).reason;
        }
        throw new Error("expected a refusal");
      };
      const tampered = first.rawBody.replace(parcel.id, randomUUID());
      expect(refusal(() => sandbox.webhooks.verify(tampered, first.headers, secret))).toBe("no_matching_signature");
      expect(refusal(() => sandbox.webhooks.verify(first.rawBody, first.headers, "another-secret"))).toBe("no_matching_signature");
      const later = Number(first.headers["webhook-timestamp"]) + 301;
      expect(refusal(() => sandbox.webhooks.verify(first.rawBody, first.headers, secret, { nowSeconds: later }))).toBe(
        "timestamp_outside_tolerance"
      );
      // Our own headers alone (a proxy dropped the webhook-* ones) still verify, and still refuse a tampered body.
      const ours = Object.fromEntries(Object.entries(first.headers).filter(([name]) => !name.startsWith("webhook-")));
      expect(sandbox.webhooks.verify(first.rawBody, ours, secret).deliveryId).toBe(first.headers["x-relay-delivery-id"]);
      expect(refusal(() => sandbox.webhooks.verify(tampered, ours, secret))).toBe("no_matching_signature");
    });

    test("testHeaders mints headers that verify, for merchants' own tests", async () => {
      const { sandbox } = await system.merchant("Sdk Tests SARL", { liveDzd: 0, sandboxDzd: 0 });
      const payload = JSON.stringify({ id: randomUUID(), type: "parcel.at_relay", data: {} });
      const headers = sandbox.webhooks.testHeaders({ payload, secret: "whsec_dGVzdA==" });
      expect(sandbox.webhooks.verify(payload, new Headers(headers), "whsec_dGVzdA==").event.type).toBe("parcel.at_relay");
      expect(headers["x-relay-event"]).toBe("parcel.at_relay");
    });
  });
});
