import { randomBytes, randomUUID } from "node:crypto";
import { ServiceBroker } from "moleculer";
import { loadConfig } from "../../lib/config";
import { AppError } from "../../lib/errors";
import { SANDBOX_MARK } from "../../services/labels/render";
import { LABEL_URL_TTL_SECONDS, signLabelBatchUrl, signLabelUrl } from "../../lib/label-url";
import { attachConfig } from "../../mixins/config.mixin";
import { brokerOptions } from "../../moleculer.config";
import LabelsService from "../../services/labels.service";
import type { RenderedLabel } from "../../services/labels/labels.contract";
import type { RenderCacheStats } from "../../services/labels/render-cache";
import type { ParcelLabelData } from "../../services/parcels/parcels.contract";
import { parsePdf } from "../helpers/pdf";
import { readPages } from "../helpers/label-pdf-reading";

const SECRET = randomBytes(32).toString("hex");
const BASE_URL = "https://parcels.example.test";
const ORG_ID = randomUUID();
const PARCEL_ID = randomUUID();
const SANDBOX_PARCEL_ID = randomUUID();

const parcels = new Map<string, ParcelLabelData>([
  [
    PARCEL_ID,
    {
      trackingNumber: "RP123456785DZ",
      relayCode: "DZ-ALG-0042",
      relayName: "Librairie du Centre",
      relayNameAr: "مكتبة الوسط",
      relayCity: "Alger",
      relayCityAr: "الجزائر",
      relayAddress: "3 Rue Larbi Ben M'hidi",
      relayWilaya: "16",
      weightG: 1250,
      codAmountDzd: 1500,
      organizationId: ORG_ID,
      createdAt: "2024-05-01T10:00:00.000Z",
      sandbox: false
    }
  ],
  [
    SANDBOX_PARCEL_ID,
    {
      trackingNumber: "RP000000017DZ",
      relayCode: "DZ-ORN-0007",
      relayName: "Tabac Es-Salam",
      relayNameAr: null,
      relayCity: "Oran",
      relayCityAr: null,
      relayAddress: null,
      relayWilaya: null,
      weightG: 400,
      codAmountDzd: null,
      organizationId: ORG_ID,
      createdAt: "2024-05-02T10:00:00.000Z",
      sandbox: true
    }
  ]
]);

function squash(text: string): string {
  return text.replace(/\s+/g, " ");
}

/** The query of a label URL, as the gateway will hand it to labels.render. */
function renderParamsOf(labelUrl: string): { parcelId: string; expires: string; signature: string } {
  const url = new URL(labelUrl);
  const match = /^\/labels\/([^/]+)\.pdf$/.exec(url.pathname);
  if (!match) throw new Error(`unexpected label URL path ${url.pathname}`);
  return {
    parcelId: decodeURIComponent(match[1]),
    expires: url.searchParams.get("expires") ?? "",
    signature: url.searchParams.get("signature") ?? ""
  };
}

/**
 * Two nodes on the in-memory Fake transporter, so that every answer crosses the JSON serializer
 * as it does over NATS: labels on one, stand-ins for the parcels and auth peers on the other.
 */
describe("labels service", () => {
  const namespace = `labels-${randomBytes(4).toString("hex")}`;
  const config = loadConfig({ LABEL_URL_SECRET: SECRET, PUBLIC_BASE_URL: BASE_URL, LOG_LEVEL: "warn" });
  const labelDataCalls: string[] = [];
  let labelsNode: ServiceBroker;
  let peerNode: ServiceBroker;

  beforeAll(async () => {
    labelsNode = new ServiceBroker({ ...brokerOptions(config), namespace, nodeID: "labels-node", transporter: "Fake", logger: false });
    attachConfig(labelsNode, config);
    labelsNode.createService(LabelsService);

    peerNode = new ServiceBroker({ ...brokerOptions(config), namespace, nodeID: "peer-node", transporter: "Fake", logger: false });
    attachConfig(peerNode, config);
    peerNode.createService({
      name: "parcels",
      actions: {
        labelData(ctx) {
          const { parcelId } = ctx.params as { parcelId: string };
          labelDataCalls.push(parcelId);
          const parcel = parcels.get(parcelId);
          if (!parcel) throw new AppError("PARCEL_NOT_FOUND", "Parcel not found");
          return parcel;
        },
        labelDataOf(ctx) {
          const { parcelIds } = ctx.params as { parcelIds: string[] };
          labelDataCalls.push(...parcelIds);
          return {
            labels: parcelIds.flatMap(id => (parcels.has(id) ? [{ ...parcels.get(id)!, parcelId: id }] : [])),
            missing: parcelIds.filter(id => !parcels.has(id))
          };
        }
      }
    });
    peerNode.createService({
      name: "auth",
      actions: {
        getOrganization(ctx) {
          const { organizationId } = ctx.params as { organizationId: string };
          if (organizationId !== ORG_ID) throw new AppError("ORGANIZATION_NOT_FOUND", "Organization not found");
          return { id: ORG_ID, name: "Boutique Yasmine SARL", createdAt: "2024-01-01T00:00:00.000Z" };
        }
      }
    });

    await Promise.all([labelsNode.start(), peerNode.start()]);
    await peerNode.waitForServices(["labels"], 10_000);
    await labelsNode.waitForServices(["parcels", "auth"], 10_000);
  });

  afterAll(async () => {
    await Promise.all([peerNode?.stop(), labelsNode?.stop()]);
  });

  beforeEach(() => {
    labelDataCalls.length = 0;
  });

  /** One URL, through the batch action every caller uses. */
  const signUrl = async (parcelId: string) => {
    const { labelUrls } = await peerNode.call<{ labelUrls: Record<string, string> }, object>("labels.signUrls", { parcelIds: [parcelId] });
    return { labelUrl: labelUrls[parcelId] };
  };
  const render = (params: object) => peerNode.call<RenderedLabel, object>("labels.render", params);

  test("signUrl gives a 30-minute URL under PUBLIC_BASE_URL; render turns it into a one-page PDF with the tracking number", async () => {
    const before = Math.floor(Date.now() / 1000);
    const { labelUrl } = await signUrl(PARCEL_ID);
    expect(labelUrl.startsWith(`${BASE_URL}/labels/${PARCEL_ID}.pdf?`)).toBe(true);
    const params = renderParamsOf(labelUrl);
    expect(params.parcelId).toBe(PARCEL_ID);
    expect(Number(params.expires)).toBeGreaterThanOrEqual(before + LABEL_URL_TTL_SECONDS);
    expect(Number(params.expires)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + LABEL_URL_TTL_SECONDS);

    const label = await render(params);
    expect(label.fileName).toBe("label-RP123456785DZ.pdf");
    expect(typeof label.contentBase64).toBe("string");
    const pdf = Buffer.from(label.contentBase64, "base64");
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const parsed = await parsePdf(pdf);
    expect(parsed.numpages).toBe(1);
    const text = squash(parsed.text);
    expect(text).toContain("RP123456785DZ");
    expect(text).toContain("DZ-ALG-0042");
    expect(text).toContain("Librairie du Centre");
    expect(text).toContain("Boutique Yasmine SARL");
    expect(text).toContain("COD: 1 500,00 DZD");
    expect(text).toContain("2024-05-01");
    expect(text).not.toContain("SANDBOX");
    expect(labelDataCalls).toEqual([PARCEL_ID]);
  });

  test("every call signs a fresh URL", async () => {
    const first = await signUrl(PARCEL_ID);
    await new Promise(resolve => setTimeout(resolve, 1100));
    const second = await signUrl(PARCEL_ID);
    expect(second.labelUrl).not.toBe(first.labelUrl);
    await expect(render(renderParamsOf(first.labelUrl))).resolves.toHaveProperty("fileName");
  });

  test("a sandbox parcel's label is marked as not for shipping", async () => {
    const parsed = await parsePdf(
      Buffer.from((await render(renderParamsOf((await signUrl(SANDBOX_PARCEL_ID)).labelUrl))).contentBase64, "base64")
    );
    expect(parsed.numpages).toBe(1);
    const text = squash(parsed.text);
    expect(text).toContain("RP000000017DZ");
    expect(text).toContain(SANDBOX_MARK);
    expect(text).not.toContain("COD");
  });

  test("an expired URL is refused with LABEL_URL_INVALID (403) before the parcel is looked up", async () => {
    const thirtyOneMinutesAgo = Date.now() - 31 * 60 * 1000;
    const expired = signLabelUrl(BASE_URL, PARCEL_ID, SECRET, thirtyOneMinutesAgo);
    await expect(render(renderParamsOf(expired))).rejects.toMatchObject({
      type: "LABEL_URL_INVALID",
      code: 403,
      message: "label URL expired"
    });
    expect(labelDataCalls).toEqual([]);
  });

  test("tampered, foreign or incomplete URLs are refused with LABEL_URL_INVALID (403)", async () => {
    const good = renderParamsOf((await signUrl(PARCEL_ID)).labelUrl);
    const flipped = good.signature.slice(0, -1) + (good.signature.endsWith("0") ? "1" : "0");
    const otherSecret = renderParamsOf(signLabelUrl(BASE_URL, PARCEL_ID, randomBytes(32).toString("hex")));
    const attempts = [
      { ...good, signature: flipped },
      { ...good, expires: String(Number(good.expires) + 3600) },
      // A valid signature of one parcel does not open another.
      { ...good, parcelId: SANDBOX_PARCEL_ID },
      // Signed by someone who does not hold LABEL_URL_SECRET.
      otherSecret,
      { ...good, signature: good.signature.toUpperCase() },
      { ...good, expires: "1e10" },
      { ...good, signature: "" },
      { parcelId: PARCEL_ID },
      { ...good, parcelId: "../../etc/passwd" }
    ];
    for (const params of attempts) {
      await expect(render(params)).rejects.toMatchObject({ type: "LABEL_URL_INVALID", code: 403 });
    }
    expect(labelDataCalls).toEqual([]);
  });

  test("a valid URL of a parcel that no longer exists answers PARCEL_NOT_FOUND (404)", async () => {
    const unknown = randomUUID();
    await expect(render(renderParamsOf((await signUrl(unknown)).labelUrl))).rejects.toMatchObject({
      type: "PARCEL_NOT_FOUND",
      code: 404
    });
  });

  test("signUrls signs a whole page at once, each URL rendering its own parcel", async () => {
    const { labelUrls } = await peerNode.call<{ labelUrls: Record<string, string> }, object>("labels.signUrls", {
      parcelIds: [PARCEL_ID, SANDBOX_PARCEL_ID]
    });
    expect(Object.keys(labelUrls).sort()).toEqual([PARCEL_ID, SANDBOX_PARCEL_ID].sort());
    expect((await render(renderParamsOf(labelUrls[SANDBOX_PARCEL_ID]))).fileName).toBe("label-RP000000017DZ.pdf");
    expect(await peerNode.call("labels.signUrls", { parcelIds: [] })).toEqual({ labelUrls: {} });
  });

  test("signUrls refuses a parcel id that is not a uuid", async () => {
    await expect(signUrl("not-a-uuid")).rejects.toMatchObject({ type: "VALIDATION_FAILED", code: 400 });
  });

  const stats = () => peerNode.call<RenderCacheStats, object>("labels.cacheStats", {});

  test("a reprint is served from the cache; a change of what the label prints renders it anew", async () => {
    const parcelId = randomUUID();
    parcels.set(parcelId, { ...parcels.get(SANDBOX_PARCEL_ID)!, trackingNumber: "RP000000025DZ" });
    try {
      const before = await stats();
      const first = await render(renderParamsOf((await signUrl(parcelId)).labelUrl));
      expect(first.cached).toBe(false);
      expect((await stats()).renders).toBe(before.renders + 1);

      const reprint = await render(renderParamsOf((await signUrl(parcelId)).labelUrl));
      expect(reprint.cached).toBe(true);
      expect(reprint.contentBase64).toBe(first.contentBase64);
      expect(await stats()).toMatchObject({ renders: before.renders + 1, hits: before.hits + 1 });

      // Another format of the same label is another document: rendered once, then cached too.
      const zpl = await render({ ...renderParamsOf((await signUrl(parcelId)).labelUrl), format: "zpl" });
      expect(zpl).toMatchObject({ cached: false, contentType: "text/plain; charset=utf-8", fileName: "label-RP000000025DZ.zpl" });
      expect((await render({ ...renderParamsOf((await signUrl(parcelId)).labelUrl), format: "zpl" })).cached).toBe(true);

      parcels.set(parcelId, { ...parcels.get(parcelId)!, relayName: "Tabac Es-Salam (nouvelle adresse)" });
      const changed = await render(renderParamsOf((await signUrl(parcelId)).labelUrl));
      expect(changed.cached).toBe(false);
      expect(await stats()).toMatchObject({ renders: before.renders + 3, hits: before.hits + 2 });
      expect(squash((await parsePdf(Buffer.from(changed.contentBase64, "base64"))).text)).toContain("nouvelle adresse");
    } finally {
      parcels.delete(parcelId);
    }
  });

  test("the same label asked for twice at once is rendered once", async () => {
    const parcelId = randomUUID();
    parcels.set(parcelId, { ...parcels.get(PARCEL_ID)!, trackingNumber: "RP000000033DZ" });
    try {
      const before = await stats();
      const params = renderParamsOf((await signUrl(parcelId)).labelUrl);
      const answers = await Promise.all([render(params), render(params), render(params)]);
      expect(answers.map(a => a.cached).sort()).toEqual([false, true, true]);
      expect((await stats()).renders).toBe(before.renders + 1);
    } finally {
      parcels.delete(parcelId);
    }
  });

  test("each format: A6, A4 at an offset and 4x6 PDF pages of the right size; ZPL text", async () => {
    const params = renderParamsOf((await signUrl(PARCEL_ID)).labelUrl);
    const pageOf = async (print: object) => {
      const label = await render({ ...params, ...print });
      expect(label.contentType).toBe("application/pdf");
      return readPages(Buffer.from(label.contentBase64, "base64")).map(page => page.mediaBox);
    };
    expect(await pageOf({})).toEqual([[0, 0, 297.64, 419.53]]);
    expect(await pageOf({ format: "a6" })).toEqual([[0, 0, 297.64, 419.53]]);
    expect(await pageOf({ format: "a4", startOffset: 3 })).toEqual([[0, 0, 595.28, 841.89]]);
    expect(await pageOf({ format: "4x6" })).toEqual([[0, 0, 288, 432]]);
    const zpl = Buffer.from((await render({ ...params, format: "zpl" })).contentBase64, "base64").toString("utf8");
    expect(zpl.startsWith("^XA\n^CI28\n")).toBe(true);
    expect(zpl).toContain("^FDRP123456785DZ^FS");
    expect(zpl).toContain("مكتبة الوسط");
  });

  test("a start offset outside the format is refused with a 400 naming it, after the signature", async () => {
    const params = renderParamsOf((await signUrl(PARCEL_ID)).labelUrl);
    await expect(render({ ...params, format: "a6", startOffset: 1 })).rejects.toMatchObject({
      type: "VALIDATION_FAILED",
      code: 400,
      data: { details: [expect.objectContaining({ field: "startOffset" })] }
    });
    await expect(render({ ...params, signature: "0".repeat(64), format: "a6", startOffset: 1 })).rejects.toMatchObject({
      type: "LABEL_URL_INVALID"
    });
  });

  describe("merged documents", () => {
    const batchParamsOf = (url: string) => {
      const parsed = new URL(url);
      expect(parsed.pathname).toBe("/labels/batch.pdf");
      return {
        parcels: parsed.searchParams.get("parcels") ?? "",
        expires: parsed.searchParams.get("expires") ?? "",
        signature: parsed.searchParams.get("signature") ?? "",
        format: parsed.searchParams.get("format") ?? undefined,
        startOffset: Number(parsed.searchParams.get("startOffset") ?? 0)
      };
    };
    const renderBatch = (params: object) => peerNode.call<RenderedLabel, object>("labels.renderBatch", params);

    test("one label per parcel, in order, four per A4 sheet from the offset; the second download from the cache", async () => {
      const ids = [PARCEL_ID, SANDBOX_PARCEL_ID, randomUUID()];
      parcels.set(ids[2], { ...parcels.get(PARCEL_ID)!, trackingNumber: "RP000000041DZ" });
      try {
        const { url } = signLabelBatchUrl(BASE_URL, ids, SECRET, { format: "a4", startOffset: 2 });
        const first = await renderBatch(batchParamsOf(url));
        expect(first).toMatchObject({ cached: false, contentType: "application/pdf", fileName: "labels-3-a4.pdf" });
        const pdf = Buffer.from(first.contentBase64, "base64");
        // Offset 2: two labels on the first sheet's lower half, the third on a second sheet.
        expect(readPages(pdf).map(p => p.mediaBox)).toEqual([
          [0, 0, 595.28, 841.89],
          [0, 0, 595.28, 841.89]
        ]);
        const text = squash((await parsePdf(pdf)).text);
        const order = ["RP123456785DZ", "RP000000017DZ", "RP000000041DZ"].map(n => text.indexOf(n));
        expect(order.every(i => i >= 0)).toBe(true);
        expect([...order].sort((a, b) => a - b)).toEqual(order);
        expect((await renderBatch(batchParamsOf(url))).cached).toBe(true);

        const zpl = Buffer.from((await renderBatch({ ...batchParamsOf(url), format: "zpl", startOffset: 0 })).contentBase64, "base64");
        expect(zpl.toString("utf8").match(/\^XA/g)).toHaveLength(3);
      } finally {
        parcels.delete(ids[2]);
      }
    });

    test("a tampered list, a single label's signature or an expired URL is a 403; a parcel gone since is a 404", async () => {
      const { url } = signLabelBatchUrl(BASE_URL, [PARCEL_ID, SANDBOX_PARCEL_ID], SECRET, { format: "a6", startOffset: 0 });
      const good = batchParamsOf(url);
      const single = renderParamsOf((await signUrl(PARCEL_ID)).labelUrl);
      const alone = batchParamsOf(signLabelBatchUrl(BASE_URL, [PARCEL_ID], SECRET, { format: "a6", startOffset: 0 }).url);
      const expired = batchParamsOf(
        signLabelBatchUrl(BASE_URL, [PARCEL_ID], SECRET, { format: "a6", startOffset: 0 }, Date.now() - 31 * 60_000).url
      );
      labelDataCalls.length = 0;
      for (const params of [
        { ...good, parcels: alone.parcels },
        { ...good, parcels: good.parcels.slice(0, -1) },
        { ...good, parcels: single.parcelId },
        { parcels: alone.parcels, expires: single.expires, signature: single.signature },
        expired
      ]) {
        await expect(renderBatch(params)).rejects.toMatchObject({ type: "LABEL_URL_INVALID", code: 403 });
      }
      expect(labelDataCalls).toEqual([]);
      const gone = batchParamsOf(signLabelBatchUrl(BASE_URL, [PARCEL_ID, randomUUID()], SECRET, { format: "a6", startOffset: 0 }).url);
      await expect(renderBatch(gone)).rejects.toMatchObject({ type: "PARCEL_NOT_FOUND", code: 404 });
    });
  });
});
