import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPartnerClient, PartnerClient } from "../../clients/typescript/partner-client";
import { backoffice } from "../helpers/http";
import { apiResponseValidator } from "../helpers/openapi-validator";
import { freePort, RunningProcess, startNode, waitForHttp } from "../helpers/processes";

/**
 * Issue 5, acceptance 5: the TypeScript client generated from the document creates, reads, lists
 * and cancels parcels against a started system, and (issue 11) quotes, searches relay points,
 * reads a parcel's events and the wallet, and tracks a parcel publicly. Its fetch checks every answer against the
 * document too, like test/helpers/http.ts does.
 */

const validatingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const res = await fetch(request);
  const text = await res.clone().text();
  const url = new URL(request.url);
  const body = (res.headers.get("content-type") ?? "").includes("application/json") && text ? JSON.parse(text) : text;
  apiResponseValidator().assert({
    method: request.method,
    path: url.pathname + url.search,
    status: res.status,
    headers: res.headers,
    body,
    text
  });
  return res;
};

describe("generated TypeScript client (embedded)", () => {
  let proc: RunningProcess;
  let base: string;
  let dataDir: string;
  let live: PartnerClient;
  let sandbox: PartnerClient;
  const token = `bo_${randomBytes(12).toString("hex")}`;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-client-"));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    proc = await startNode({ PORT: String(port), DATA_DIR: dataDir, BACKOFFICE_TOKEN: token });
    await waitForHttp(`${base}/readyz`);
    const bo = backoffice(base, token);
    const org = await bo.createOrganization("Client Typé SARL");
    await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 10_000 });
    await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 10_000, mode: "sandbox" });
    live = createPartnerClient({ baseUrl: base, apiKey: (await bo.createKey(org.id)).key, fetch: validatingFetch });
    sandbox = createPartnerClient({
      baseUrl: `${base}/`,
      apiKey: (await bo.createKey(org.id, { mode: "sandbox" })).key,
      fetch: validatingFetch
    });
  }, 200_000);

  afterAll(async () => {
    await proc?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("create, read, find by tracking number, list and cancel a parcel", async () => {
    const health = await live.GET("/api/partner/v1/health");
    expect(health.data).toMatchObject({ status: "ok", organizationName: "Client Typé SARL" });

    const created = await live.POST("/api/partner/v1/parcels", {
      params: { header: { "Idempotency-Key": `client-${randomUUID()}` } },
      body: {
        recipientName: "Amina Benali",
        recipientPhone: "+213 555 12 34 56",
        weightG: 1200,
        destinationRelayCode: "DZ-16-ALGER-CENTRE",
        lengthCm: 30,
        widthCm: 20,
        heightCm: 10,
        codAmountDzd: 1500
      }
    });
    expect(created.response.status).toBe(201);
    const parcel = created.data!;
    expect(parcel).toMatchObject({ status: "CREATED", destinationRelayCode: "DZ-16-ALGER-CENTRE", codAmountDzd: 1500 });
    expect(created.response.headers.get("location")).toMatch(new RegExp(`/api/partner/v1/parcels/${parcel.id}$`));

    const read = await live.GET("/api/partner/v1/parcels/{id}", { params: { path: { id: parcel.id } } });
    expect(read.data).toMatchObject({ id: parcel.id, trackingNumber: parcel.trackingNumber });

    const found = await live.GET("/api/partner/v1/parcels/by-tracking/{trackingNumber}", {
      params: { path: { trackingNumber: parcel.trackingNumber.toLowerCase() } }
    });
    expect(found.data?.id).toBe(parcel.id);

    const listed = await live.GET("/api/partner/v1/parcels", { params: { query: { status: "CREATED", page: 0, size: 5 } } });
    expect(listed.data).toMatchObject({ page: 0, size: 5, totalElements: 1, totalPages: 1 });
    expect(listed.data!.items.map(p => p.id)).toEqual([parcel.id]);

    const cancelled = await live.POST("/api/partner/v1/parcels/{id}/cancel", {
      params: { path: { id: parcel.id } },
      body: { reason: "order cancelled by the customer" }
    });
    expect(cancelled.data?.status).toBe("CANCELLED");
    expect((await live.GET("/api/partner/v1/parcels", { params: { query: { status: "CANCELLED" } } })).data!.totalElements).toBe(1);
  });

  test("errors come back typed, with the documented code", async () => {
    const missing = await live.GET("/api/partner/v1/parcels/{id}", { params: { path: { id: randomUUID() } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ code: "PARCEL_NOT_FOUND", status: 404 });

    const invalid = await live.POST("/api/partner/v1/parcels", {
      body: { recipientName: "A", recipientPhone: "0555 12 34 56", weightG: 30001, destinationRelayCode: "DZ-16-ALGER-CENTRE" }
    });
    expect(invalid.error).toMatchObject({
      code: "VALIDATION_FAILED",
      status: 400,
      details: [expect.objectContaining({ field: "weightG" })]
    });

    const notSandbox = await live.POST("/api/partner/v1/sandbox/parcels/{id}/trigger-event", {
      params: { path: { id: randomUUID() } },
      body: { toStatus: "DELIVERED" }
    });
    expect(notSandbox.error?.code).toBe("SANDBOX_KEY_REQUIRED");
  });

  test("the sandbox trigger through the client", async () => {
    const parcel = (
      await sandbox.POST("/api/partner/v1/parcels", {
        body: { recipientName: "Test", recipientPhone: "0555123456", weightG: 500, destinationRelayCode: "DZ-16-ALGER-CENTRE" }
      })
    ).data!;
    const triggered = await sandbox.POST("/api/partner/v1/sandbox/parcels/{id}/trigger-event", {
      params: { path: { id: parcel.id } },
      body: { toStatus: "DELIVERED", reason: "client test" }
    });
    expect(triggered.response.status).toBe(202);
    expect(triggered.data).toMatchObject({ parcelId: parcel.id, previousStatus: "CREATED", newStatus: "DELIVERED" });
  });

  test("the merchant's day: quote, relay search, the parcel's events, the wallet, and public tracking", async () => {
    const quote = await live.POST("/api/partner/v1/parcels/quote", {
      body: { weightG: 1200, destinationRelayCode: "DZ-31-ORAN-CENTRE", codAmountDzd: 1500 }
    });
    expect(quote.data).toEqual({
      priceDzd: 500,
      // Half the shipping price (450), not of the COD fee; no declared value insures the default 5 000.
      returnFeeDzd: 225,
      insuredValueDzd: 5000,
      currency: "DZD",
      breakdown: [
        { item: "shipping", amountDzd: 450 },
        { item: "cod", amountDzd: 50 }
      ]
    });

    const near = await live.GET("/api/partner/v1/relay-points", { params: { query: { near: "35.6971,-0.6308", radiusKm: 2 } } });
    expect(near.data!.items.map(p => [p.code, p.distanceKm])).toEqual([
      ["DZ-31-ORAN-CENTRE", 0.89],
      ["DZ-31-ORAN-HAI-ESSALEM", 1.26]
    ]);

    const before = (await live.GET("/api/partner/v1/wallet")).data!.balanceDzd;
    const parcel = (
      await live.POST("/api/partner/v1/parcels", {
        body: {
          recipientName: "Amina Benali",
          recipientPhone: "0555 12 34 56",
          weightG: 1200,
          destinationRelayCode: "DZ-31-ORAN-CENTRE",
          codAmountDzd: 1500
        }
      })
    ).data!;
    expect((await live.GET("/api/partner/v1/wallet")).data).toMatchObject({ mode: "live", balanceDzd: before - quote.data!.priceDzd });
    const entries = await live.GET("/api/partner/v1/wallet/entries", { params: { query: { size: 1 } } });
    expect(entries.data!.items).toEqual([expect.objectContaining({ type: "DEBIT", parcelId: parcel.id, amountDzd: 500 })]);

    const events = await live.GET("/api/partner/v1/parcels/{id}/events", { params: { path: { id: parcel.id } } });
    expect(events.data!.items).toEqual([expect.objectContaining({ status: "CREATED", previousStatus: null, source: "merchant" })]);

    // Public tracking needs no key: any client of the document reaches it, this one included.
    const tracked = await live.GET("/api/public/v1/tracking/{trackingNumber}", {
      params: { path: { trackingNumber: parcel.trackingNumber } }
    });
    expect(tracked.data).toMatchObject({ trackingNumber: parcel.trackingNumber, status: "CREATED", codToPayDzd: 1500 });
    expect(tracked.response.headers.get("x-ratelimit-limit")).toBe("30");
  });

  test("the types follow the document (checked by the compiler)", () => {
    const typeChecks = () => [
      // @ts-expect-error weightG is required
      live.POST("/api/partner/v1/parcels", { body: { recipientName: "A", recipientPhone: "05551234", destinationRelayCode: "DZ-ABC" } }),
      // @ts-expect-error toStatus is one of the 12 statuses
      sandbox.POST("/api/partner/v1/sandbox/parcels/{id}/trigger-event", { params: { path: { id: "x" } }, body: { toStatus: "FLYING" } }),
      // @ts-expect-error no such operation
      live.DELETE("/api/partner/v1/parcels/{id}", { params: { path: { id: "x" } } }),
      // @ts-expect-error a quote needs the relay point
      live.POST("/api/partner/v1/parcels/quote", { body: { weightG: 1200 } }),
      // @ts-expect-error the size of a page is a number
      live.GET("/api/partner/v1/wallet/entries", { params: { query: { size: "10" } } })
    ];
    expect(typeof typeChecks).toBe("function");
  });
});
