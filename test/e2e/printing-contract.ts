import relayPoints from "../../resources/relay-points.json";
import { backoffice, HttpResult, partner } from "../helpers/http";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { apiResponseValidator } from "../helpers/openapi-validator";
import { parsePdf } from "../helpers/pdf";
import { readPages } from "../helpers/label-pdf-reading";
import type { BatchResult } from "../../services/parcels/parcels.params";
import type { SystemUnderTest } from "./gateway-contract";

/**
 * Issue 14, labels and batches, over HTTP in any mode: every label format read back from what is
 * served, Arabic relay names from the directory, the render cache, batch creation item by item
 * with its exact debits, and merged label documents. The system is started with TRUST_PROXY_HOPS=1
 * (hostile-input-contract), so each test downloads from its own client address and the per-address
 * download limit never interferes.
 */

const PAGE = { a6: [0, 0, 297.64, 419.53], "4x6": [0, 0, 288, 432], a4: [0, 0, 595.28, 841.89] };
const ALGER_CENTRE = relayPoints.find(p => p.code === "DZ-16-ALGER-CENTRE")!;
/** The shipped points that take parcels (a few are closed). */
const ACTIVE_RELAYS = relayPoints.filter(p => p.active);

const VALID = {
  recipientName: "Amina Benali",
  recipientPhone: "+213 555 12 34 56",
  weightG: 1200,
  destinationRelayCode: ALGER_CENTRE.code
};

/** The tariff (docs/merchants/api-guide.md, "Tariff"): the weight tier, plus with COD 1 % of it, at least 50 DZD (no insurance under 5 000 DZD declared). */
function priceOf(item: { weightG: number; codAmountDzd?: number | null }): number {
  const tier = [
    [500, 350],
    [1000, 400],
    [2000, 450],
    [5000, 600],
    [10000, 850],
    [20000, 1200],
    [30000, 1600]
  ].find(([max]) => item.weightG <= max)![1];
  const cod = item.codAmountDzd ? Math.max(50, Math.round(item.codAmountDzd) / 100) : 0;
  return tier + cod;
}

function expectError(res: HttpResult, status: number, code: string, field?: string) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.body).toEqual(expect.objectContaining({ status, message: expect.any(String) }));
  if (field) expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
}

interface Download {
  status: number;
  headers: Headers;
  bytes: Buffer;
  json: any;
}

let clientAddress = 0;

export function printingContract(system: () => SystemUnderTest & { databaseUrl?: string }): void {
  const base = () => system().baseUrl;
  const bo = () => backoffice(base(), system().backofficeToken);

  /** A label URL fetched as bytes, from a client address of its own, and checked against the document like every answer. */
  async function download(url: string, address = `198.51.100.${(clientAddress++ % 200) + 20}`): Promise<Download> {
    const target = new URL(url);
    const path = target.pathname + target.search;
    const res = await fetch(base() + path, { headers: { "X-Forwarded-For": address } });
    const bytes = Buffer.from(await res.arrayBuffer());
    const isJson = (res.headers.get("content-type") ?? "").includes("application/json");
    const json = isJson ? JSON.parse(bytes.toString("utf8")) : undefined;
    apiResponseValidator().assert({
      method: "GET",
      path,
      status: res.status,
      headers: res.headers,
      body: json,
      text: bytes.toString("latin1")
    });
    return { status: res.status, headers: res.headers, bytes, json };
  }

  const withQuery = (url: string, query: string) => `${url}&${query}`;

  async function merchant(name: string, liveDzd: number, sandboxDzd = 0) {
    const org = await bo().createOrganization(name);
    const live = partner(base(), (await bo().createKey(org.id, { rateLimitPerMinute: 100_000 })).key);
    const sandbox = partner(base(), (await bo().createKey(org.id, { mode: "sandbox", rateLimitPerMinute: 100_000 })).key);
    const readOnly = partner(base(), (await bo().createKey(org.id, { scopes: ["parcels:read"], rateLimitPerMinute: 100_000 })).key);
    if (liveDzd > 0) await bo().call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: liveDzd });
    if (sandboxDzd > 0) await bo().call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: sandboxDzd, mode: "sandbox" });
    const balance = async (mode = "live") =>
      (await bo().call("GET", `/organizations/${org.id}/wallet?mode=${mode}`)).body.balanceDzd as number;
    return { orgId: org.id, live, sandbox, readOnly, balance };
  }

  // The labels service may join a moment after the gateway is ready (distributed mode): wait until
  // a parcel read carries a label URL, as it does from then on.
  beforeAll(async () => {
    const api = (await merchant("Attente Etiquettes", 1_000)).live;
    const { id } = (await api("POST", "/parcels", VALID)).body;
    for (let attempt = 0; (await api("GET", `/parcels/${id}`)).body.labelUrl === null; attempt++) {
      if (attempt >= 100) throw new Error("the labels service never answered");
      await new Promise(resolve => setTimeout(resolve, 200));
    }
  }, 60_000);

  describe("label formats", () => {
    let parcel: { id: string; trackingNumber: string; labelUrl: string };
    let api: Awaited<ReturnType<typeof merchant>>["live"];
    beforeAll(async () => {
      api = (await merchant("Imprimerie Rahma", 10_000)).live;
      parcel = (await api("POST", "/parcels", { ...VALID, codAmountDzd: 1500 })).body;
    });

    test("labelUrl serves the A6 PDF; a4 (with a start offset) and 4x6 are PDF pages of their size", async () => {
      for (const [query, mediaBox] of [
        ["", PAGE.a6],
        ["format=a6", PAGE.a6],
        ["format=4x6", PAGE["4x6"]],
        ["format=a4", PAGE.a4],
        ["format=a4&startOffset=3", PAGE.a4]
      ] as const) {
        const res = await download(query ? withQuery(parcel.labelUrl, query) : parcel.labelUrl);
        expect({ query, status: res.status, type: res.headers.get("content-type") }).toEqual({
          query,
          status: 200,
          type: "application/pdf"
        });
        expect(res.headers.get("content-disposition")).toBe(`inline; filename="label-${parcel.trackingNumber}.pdf"`);
        expect(readPages(res.bytes).map(page => page.mediaBox)).toEqual([mediaBox]);
        expect((await parsePdf(res.bytes)).text).toContain(parcel.trackingNumber);
      }
    });

    test("format=zpl is ZPL II text: one ^XA…^XZ format, UTF-8 fields, the barcodes encoded by the printer", async () => {
      const res = await download(withQuery(parcel.labelUrl, "format=zpl"));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="label-${parcel.trackingNumber}.zpl"`);
      const zpl = res.bytes.toString("utf8");
      const lines = zpl.trim().split("\n");
      expect(lines.slice(0, 6)).toEqual(["^XA", "^CI28", "^PA1,1,1,1", "^PW812", "^LL1218", "^LH0,0"]);
      expect(lines.at(-1)).toBe("^XZ");
      expect(zpl.match(/\^XA/g)).toHaveLength(1);
      expect(zpl).toMatch(new RegExp(`\\^BCN,\\d+,N,N,N,A\\^FH\\^FD${parcel.trackingNumber}\\^FS`));
      expect(zpl).toContain(`^FDQA,${parcel.trackingNumber}^FS`);
      expect(zpl).toContain(`^FD${ALGER_CENTRE.nameAr}^FS`);
      // The city, then its wilaya's name (Alger Centre is a commune of Alger), in each script; the wilaya's number in its box.
      expect(zpl).toContain(`^FD${ALGER_CENTRE.cityAr}، الجزائر^FS`);
      expect(zpl).toMatch(/\^FR\^FH\^FD16\^FS/);
      expect(zpl).toContain("COD: 1 500,00 DZD");
    });

    test("the relay point's Arabic name and city, from the directory, extract from the PDF exactly as written, with its wilaya", async () => {
      const lines = (await parsePdf((await download(parcel.labelUrl)).bytes)).text.split("\n");
      expect(lines).toContain(ALGER_CENTRE.name);
      expect(lines).toContain(ALGER_CENTRE.nameAr);
      expect(lines).toContain(ALGER_CENTRE.address);
      // Latin city on the left, Arabic city on the right of one line, each followed by the wilaya's name; its number in a box.
      expect(lines).toContain(`${ALGER_CENTRE.city}, Alger${ALGER_CENTRE.cityAr}، الجزائر`);
      expect(lines.slice(lines.indexOf("WILAYA"), lines.indexOf("WILAYA") + 2)).toEqual(["WILAYA", "16"]);
    });

    test("each document is rendered once: the same download, or a fresh URL from GET, is served from the cache", async () => {
      const fresh = (await api("POST", "/parcels", VALID)).body;
      const url = withQuery(fresh.labelUrl, "format=4x6");
      const first = await download(url);
      expect(first.headers.get("x-label-cache")).toBe("miss");
      const again = await download(url);
      expect(again.headers.get("x-label-cache")).toBe("hit");
      expect(again.bytes.equals(first.bytes)).toBe(true);

      const reread = (await api("GET", `/parcels/${fresh.id}`)).body;
      const reprint = await download(withQuery(reread.labelUrl, "format=4x6"));
      expect(reprint.headers.get("x-label-cache")).toBe("hit");
      expect(reprint.bytes.equals(first.bytes)).toBe(true);
      // Another format or offset is another document, rendered once too.
      expect((await download(withQuery(reread.labelUrl, "format=a4&startOffset=1"))).headers.get("x-label-cache")).toBe("miss");
      expect((await download(withQuery(fresh.labelUrl, "format=a4&startOffset=1"))).headers.get("x-label-cache")).toBe("hit");
    });

    test("the font ZPL labels print Arabic with is one ~DY command away, for each printer once", async () => {
      const res = await api("GET", "/labels/printer-font");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=us-ascii");
      expect(res.headers.get("content-disposition")).toBe('attachment; filename="rplabel-font.zpl"');
      const command = /^~DYE:RPLABEL,A,T,(\d+),,([0-9A-F]+)\n$/.exec(res.text);
      expect(command).not.toBeNull();
      const font = Buffer.from(command![2], "hex");
      expect(font.length).toBe(Number(command![1]));
      // A TrueType font (sfnt version 1.0), the very one the labels name.
      expect(font.readUInt32BE(0)).toBe(0x00010000);
      const zpl = (await download(withQuery(parcel.labelUrl, "format=zpl"))).bytes.toString("utf8");
      expect(zpl).toContain(",E:RPLABEL.TTF^");
    });

    test.each([
      ["an unknown format", "format=a5", "format"],
      ["an upper-case format", "format=A4", "format"],
      ["a repeated format", "format=a4&format=zpl", "format"],
      ["an offset past the sheet", "format=a4&startOffset=4", "startOffset"],
      ["a negative offset", "format=a4&startOffset=-1", "startOffset"],
      ["a fractional offset", "format=a4&startOffset=1.5", "startOffset"],
      ["an offset on a one-label page", "format=a6&startOffset=1", "startOffset"],
      ["an offset on ZPL", "format=zpl&startOffset=2", "startOffset"]
    ])("%s is a 400 naming the parameter", async (_what, query, field) => {
      const res = await download(withQuery(parcel.labelUrl, query));
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: "VALIDATION_FAILED", status: 400, details: [expect.objectContaining({ field })] });
    });

    test("the signature still binds the parcel and the expiry whatever the format: anything else is the same 403", async () => {
      const other = (await api("POST", "/parcels", VALID)).body;
      const signature = (url: string) => new URL(url).searchParams.get("signature")!;
      for (const url of [
        parcel.labelUrl.replace(signature(parcel.labelUrl), signature(other.labelUrl)),
        parcel.labelUrl.replace(/expires=(\d+)/, (_m, e) => `expires=${Number(e) + 60}`),
        parcel.labelUrl.replace(parcel.id, other.id)
      ]) {
        const res = await download(withQuery(url, "format=zpl"));
        expect(res.status).toBe(403);
        expect(res.json).toMatchObject({ code: "LABEL_URL_INVALID" });
      }
    });
  });

  describe("POST /parcels/batch", () => {
    test("100 items, some invalid: exact per-item results, each valid item debited once, and the invariant holds", async () => {
      const m = await merchant("Grossiste Batna", 200_000);
      const run = Date.now();
      const items: unknown[] = Array.from({ length: 100 }, (_, i) => ({
        recipientName: `Client ${i}`,
        recipientPhone: `0555 00 ${String(i).padStart(2, "0")} 00`,
        weightG: 200 + ((i * 137) % 4500),
        destinationRelayCode: ACTIVE_RELAYS[i % ACTIVE_RELAYS.length].code,
        ...(i % 4 === 0 ? { codAmountDzd: 1000 + i * 100 } : {}),
        ...(i % 5 === 0 ? { idempotencyKey: `batch-${run}-${i}` } : {})
      }));
      const expected = new Map<number, { status: number; code?: string; field?: string }>();
      for (let i = 3; i < 100; i += 10) {
        items[i] = { ...(items[i] as object), weightG: 0 };
        expected.set(i, { status: 400, code: "VALIDATION_FAILED", field: "weightG" });
      }
      for (let i = 7; i < 100; i += 10) {
        items[i] = { ...(items[i] as object), destinationRelayCode: "DZ-99-NOWHERE" };
        expected.set(i, { status: 400, code: "RELAY_NOT_FOUND", field: "destinationRelayCode" });
      }
      items[50] = "not a parcel";
      expected.set(50, { status: 400, code: "VALIDATION_FAILED", field: "item" });
      items[51] = { ...(items[51] as object), colour: "red" };
      expected.set(51, { status: 400, code: "VALIDATION_FAILED", field: "colour" });
      items[52] = { ...(items[52] as object), idempotencyKey: "" };
      expected.set(52, { status: 400, code: "VALIDATION_FAILED", field: "idempotencyKey" });
      // Item 96's key again with another body; item 99 repeats item 98 with its key: one parcel, one debit.
      items[96] = { ...(items[96] as object), idempotencyKey: `batch-${run}-shared` };
      items[97] = { ...(items[96] as object), weightG: 999 };
      expected.set(97, { status: 422, code: "IDEMPOTENCY_KEY_REUSED" });
      items[98] = { ...(items[98] as object), idempotencyKey: `batch-${run}-twice` };
      items[99] = { ...(items[98] as object) };

      const before = await m.balance();
      const res = await m.live("POST", "/parcels/batch", { items });
      expect(res.status).toBe(200);
      expect(res.body.items.map((r: { index: number }) => r.index)).toEqual(items.map((_, i) => i));
      const batch = res.body as BatchResult;
      for (const [i, result] of batch.items.entries()) {
        const want = expected.get(i) ?? { status: 201 };
        expect({ i, status: result.status }).toEqual({ i, status: want.status });
        if (want.status === 201) {
          const item = items[i] as { weightG: number; codAmountDzd?: number; destinationRelayCode: string; idempotencyKey?: string };
          expect(result.error).toBeNull();
          expect(result.idempotencyKey).toBe(item.idempotencyKey ?? null);
          expect(result.parcel).toMatchObject({
            status: "CREATED",
            destinationRelayCode: item.destinationRelayCode,
            pricePaidDzd: priceOf(item),
            codAmountDzd: item.codAmountDzd ?? null
          });
          expect(result.parcel!.labelUrl).toContain(`/labels/${result.parcel!.id}.pdf?`);
        } else {
          expect({ i, parcel: result.parcel, code: result.error!.code, status: result.error!.status }).toEqual({
            i,
            parcel: null,
            code: want.code,
            status: want.status
          });
          if (want.field) expect(result.error!.details!.map(d => d.field)).toContain(want.field);
        }
      }
      const created = batch.items.filter(r => r.status === 201);
      // Items 98 and 99 share one key: the second answers the first's parcel again, paid once.
      expect(res.body).toMatchObject({ created: created.length - 1, replayed: 1, failed: 100 - created.length });
      expect(created.filter(r => r.replayed).map(r => r.index)).toEqual([99]);
      expect(created).toHaveLength(100 - expected.size);
      expect(res.body.items[99].parcel.id).toBe(res.body.items[98].parcel.id);

      const distinct = new Map(created.map(r => [r.parcel!.id, r.parcel!.pricePaidDzd]));
      expect(distinct.size).toBe(created.length - 1);
      const debited = [...distinct.values()].reduce((sum, price) => sum + price, 0);
      expect(Math.round((before - (await m.balance())) * 100)).toBe(Math.round(debited * 100));
      const listed = await m.live("GET", "/parcels?size=100");
      expect(listed.body.totalElements).toBe(distinct.size);
      expect(new Set(listed.body.items.map((p: { id: string }) => p.id))).toEqual(new Set(distinct.keys()));

      const databaseUrl = system().databaseUrl;
      if (databaseUrl) expect((await checkMoneyInvariant(databaseUrl)).violations).toEqual([]);
    }, 180_000);

    test("the same batch again with keys: the same parcels, nothing debited twice", async () => {
      const m = await merchant("Repli Tlemcen", 10_000);
      const run = Date.now();
      const items = [0, 1, 2].map(i => ({ ...VALID, weightG: 300 + i, idempotencyKey: `again-${run}-${i}` }));
      const first = await m.live("POST", "/parcels/batch", { items });
      const afterFirst = await m.balance();
      expect(afterFirst).toBe(10_000 - 3 * 350);
      const second = await m.live("POST", "/parcels/batch", { items });
      expect(second.body.items.map((r: any) => [r.status, r.parcel.id])).toEqual(first.body.items.map((r: any) => [201, r.parcel.id]));
      // Counted apart: the first batch created three, the second only replayed them.
      expect(first.body).toMatchObject({ created: 3, replayed: 0, failed: 0 });
      expect(second.body).toMatchObject({ created: 0, replayed: 3, failed: 0 });
      expect(second.body.items.map((r: any) => r.replayed)).toEqual([true, true, true]);
      expect(await m.balance()).toBe(afterFirst);
      // A key of a batch item is the Idempotency-Key of POST /parcels: one namespace.
      const single = await m.live("POST", "/parcels", { ...VALID, weightG: 300 }, { "Idempotency-Key": `again-${run}-0` });
      expect(single.status).toBe(201);
      expect(single.body.id).toBe(first.body.items[0].parcel.id);
    });

    test("items are paid in order: when the balance runs out, the last items are the ones refused with 402", async () => {
      const m = await merchant("Petit Solde", 3 * 350);
      const res = await m.live("POST", "/parcels/batch", { items: Array.from({ length: 5 }, () => ({ ...VALID, weightG: 300 })) });
      expect(res.status).toBe(200);
      expect(res.body.items.map((r: any) => r.status)).toEqual([201, 201, 201, 402, 402]);
      expect(res.body.items[4].error).toMatchObject({ code: "INSUFFICIENT_BALANCE", status: 402 });
      expect(res.body).toMatchObject({ created: 3, replayed: 0, failed: 2 });
      expect(await m.balance()).toBe(0);
    });

    test("a sandbox key's batch is paid from the sandbox wallet", async () => {
      const m = await merchant("Essai Batch", 1_000, 5_000);
      const res = await m.sandbox("POST", "/parcels/batch", { items: [{ ...VALID, weightG: 300 }] });
      expect(res.body.items[0].status).toBe(201);
      expect(await m.balance("sandbox")).toBe(5_000 - 350);
      expect(await m.balance("live")).toBe(1_000);
      expect((await m.live("GET", `/parcels/${res.body.items[0].parcel.id}`)).status).toBe(404);
    });

    test("more than 100 items, none, or not an array: 400 for the whole request, nothing created", async () => {
      const m = await merchant("Trop Grand", 100_000);
      expectError(
        await m.live("POST", "/parcels/batch", { items: Array.from({ length: 101 }, () => VALID) }),
        400,
        "VALIDATION_FAILED",
        "items"
      );
      expectError(await m.live("POST", "/parcels/batch", { items: [] }), 400, "VALIDATION_FAILED", "items");
      expectError(await m.live("POST", "/parcels/batch", { items: VALID }), 400, "VALIDATION_FAILED", "items");
      expectError(await m.live("POST", "/parcels/batch", {}), 400, "VALIDATION_FAILED", "items");
      expectError(await m.live("POST", "/parcels/batch", { items: [VALID], extra: 1 }), 400, "VALIDATION_FAILED", "extra");
      expectError(
        await m.live("POST", "/parcels/batch", { items: [VALID] }, { "Idempotency-Key": "whole-batch" }),
        400,
        "VALIDATION_FAILED",
        "Idempotency-Key"
      );
      expectError(await m.readOnly("POST", "/parcels/batch", { items: [VALID] }), 403, "SCOPE_MISSING");
      expect(await m.balance()).toBe(100_000);
      expect((await m.live("GET", "/parcels")).body.totalElements).toBe(0);
    });
  });

  describe("POST /labels: one merged document", () => {
    let m: Awaited<ReturnType<typeof merchant>>;
    let parcels: Array<{ id: string; trackingNumber: string }>;
    beforeAll(async () => {
      m = await merchant("Expéditions Sétif", 100_000, 5_000);
      const res = await m.live("POST", "/parcels/batch", {
        items: Array.from({ length: 100 }, (_, i) => ({ ...VALID, weightG: 300 + i, destinationRelayCode: ACTIVE_RELAYS[i % 10].code }))
      });
      expect(res.body.created).toBe(100);
      parcels = res.body.items.map((r: any) => r.parcel);
    }, 180_000);

    test("100 parcels in A6: one page and one label per parcel, in the order given; the second download from the cache", async () => {
      const ids = parcels.map(p => p.id).reverse();
      const res = await m.readOnly("POST", "/labels", { parcelIds: ids });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ format: "a6", startOffset: 0, labelCount: 100, pageCount: 100 });
      expect(Date.parse(res.body.expiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
      const doc = await download(res.body.url);
      expect(doc.status).toBe(200);
      expect(doc.headers.get("x-label-cache")).toBe("miss");
      expect(readPages(doc.bytes).map(p => p.mediaBox)).toEqual(ids.map(() => PAGE.a6));
      const text = (await parsePdf(doc.bytes)).text;
      // Each tracking number printed once, under its barcode: one label per parcel, none twice.
      const printed = [...parcels].reverse().map(p => text.split(p.trackingNumber).length - 1);
      expect(new Set(printed)).toEqual(new Set([1]));
      const order = [...parcels].reverse().map(p => text.indexOf(p.trackingNumber));
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect((await download(res.body.url)).headers.get("x-label-cache")).toBe("hit");
    }, 120_000);

    test("A4 from a start offset packs four per sheet; ZPL has one format per parcel; the format may change on the URL", async () => {
      const ids = parcels.slice(0, 10).map(p => p.id);
      const a4 = await m.live("POST", "/labels", { parcelIds: ids, format: "a4", startOffset: 3 });
      expect(a4.body).toMatchObject({ format: "a4", startOffset: 3, labelCount: 10, pageCount: 4 });
      expect(readPages((await download(a4.body.url)).bytes).map(p => p.mediaBox)).toEqual([PAGE.a4, PAGE.a4, PAGE.a4, PAGE.a4]);

      const zpl = await m.live("POST", "/labels", { parcelIds: ids, format: "zpl" });
      expect(zpl.body).toMatchObject({ format: "zpl", labelCount: 10, pageCount: 10 });
      const text = (await download(zpl.body.url)).bytes.toString("utf8");
      expect(text.match(/\^XA/g)).toHaveLength(10);
      for (const p of parcels.slice(0, 10)) expect(text).toContain(`^FDQA,${p.trackingNumber}^FS`);

      const asFourBySix = await download(zpl.body.url.replace("format=zpl", "format=4x6"));
      expect(readPages(asFourBySix.bytes)).toHaveLength(10);
      expect(readPages(asFourBySix.bytes)[0].mediaBox).toEqual(PAGE["4x6"]);
    });

    test("ids that are not the caller's parcels are named in a 404, and nothing is made", async () => {
      const other = await merchant("Voisin SARL", 10_000);
      const foreign = (await other.live("POST", "/parcels", VALID)).body.id;
      const sandbox = (await m.sandbox("POST", "/parcels", VALID)).body.id;
      const unknown = "7c0e2f7a-9a53-4a43-8d5e-3b7f0d1c2e4a";
      const res = await m.live("POST", "/labels", { parcelIds: [parcels[0].id, foreign, parcels[1].id, sandbox, unknown] });
      expectError(res, 404, "PARCEL_NOT_FOUND");
      expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(["parcelIds.1", "parcelIds.3", "parcelIds.4"]);
      for (const id of [foreign, sandbox, unknown]) expect(res.body.message).toContain(id);
      // The other organisation cannot print ours either.
      expectError(await other.live("POST", "/labels", { parcelIds: [parcels[0].id] }), 404, "PARCEL_NOT_FOUND");
    });

    test("bad requests are 400s naming the field; a merged URL does not verify once altered", async () => {
      const ids = parcels.slice(0, 3).map(p => p.id);
      expectError(await m.live("POST", "/labels", { parcelIds: [] }), 400, "VALIDATION_FAILED", "parcelIds");
      expectError(await m.live("POST", "/labels", { parcelIds: [ids[0], ids[0]] }), 400, "VALIDATION_FAILED", "parcelIds.1");
      expectError(await m.live("POST", "/labels", { parcelIds: ["nope"] }), 400, "VALIDATION_FAILED", "parcelIds.0");
      expectError(await m.live("POST", "/labels", { parcelIds: ids, format: "a5" }), 400, "VALIDATION_FAILED", "format");
      expectError(
        await m.live("POST", "/labels", { parcelIds: ids, format: "a6", startOffset: 2 }),
        400,
        "VALIDATION_FAILED",
        "startOffset"
      );
      expectError(await m.live("POST", "/labels", { parcelIds: ids, startOffset: 4 }), 400, "VALIDATION_FAILED", "startOffset");
      const tooMany = [...parcels.map(p => p.id), "7c0e2f7a-9a53-4a43-8d5e-3b7f0d1c2e4a"];
      expectError(await m.live("POST", "/labels", { parcelIds: tooMany }), 400, "VALIDATION_FAILED", "parcelIds");

      const { url } = (await m.live("POST", "/labels", { parcelIds: ids })).body;
      const token = new URL(url).searchParams.get("parcels")!;
      const fewer = (await m.live("POST", "/labels", { parcelIds: ids.slice(0, 2) })).body.url;
      for (const altered of [
        url.replace(token, new URL(fewer).searchParams.get("parcels")!),
        url.replace(/expires=(\d+)/, (_m: string, e: string) => `expires=${Number(e) + 1}`),
        url.replace(/signature=[0-9a-f]+/, "signature=zz"),
        url.replace(token, `${token}x`)
      ]) {
        const res = await download(altered);
        expect(res.status).toBe(403);
        expect(res.json).toMatchObject({ code: "LABEL_URL_INVALID" });
      }
      const badFormat = await download(url.replace("format=a6", "format=pdf"));
      expect(badFormat.status).toBe(400);
      expect(badFormat.json.details[0].field).toBe("format");
    });
  });
}
