import { randomBytes, randomUUID } from "node:crypto";
import { ServiceBroker } from "moleculer";
import { loadConfig } from "../../lib/config";
import { AppError } from "../../lib/errors";
import * as labelPdf from "../../lib/label-pdf";
import { SANDBOX_MARK } from "../../lib/label-pdf";
import { LABEL_URL_TTL_SECONDS, signLabelUrl } from "../../lib/label-url";
import { attachConfig } from "../../mixins/config.mixin";
import { brokerOptions } from "../../moleculer.config";
import LabelsService from "../../services/labels.service";
import type { RenderedLabel } from "../../services/labels/labels.contract";
import type { ParcelLabelData } from "../../services/parcels/parcels.contract";
import { parsePdf } from "../helpers/pdf";

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
      relayCity: "Alger",
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
      relayCity: "Oran",
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
    expect(typeof label.pdfBase64).toBe("string");
    const pdf = Buffer.from(label.pdfBase64, "base64");
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
      Buffer.from((await render(renderParamsOf((await signUrl(SANDBOX_PARCEL_ID)).labelUrl))).pdfBase64, "base64")
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

  test("a reprint is served from the cache; a change of what the label prints renders it anew", async () => {
    const parcelId = randomUUID();
    parcels.set(parcelId, { ...parcels.get(SANDBOX_PARCEL_ID)!, trackingNumber: "RP000000025DZ" });
    const renders = jest.spyOn(labelPdf, "renderLabelPdf");
    try {
      const first = await render(renderParamsOf((await signUrl(parcelId)).labelUrl));
      expect(renders).toHaveBeenCalledTimes(1);
      const reprint = await render(renderParamsOf((await signUrl(parcelId)).labelUrl));
      expect(renders).toHaveBeenCalledTimes(1);
      expect(reprint.pdfBase64).toBe(first.pdfBase64);

      parcels.set(parcelId, { ...parcels.get(parcelId)!, relayName: "Tabac Es-Salam (nouvelle adresse)" });
      const changed = await render(renderParamsOf((await signUrl(parcelId)).labelUrl));
      expect(renders).toHaveBeenCalledTimes(2);
      expect(squash((await parsePdf(Buffer.from(changed.pdfBase64, "base64"))).text)).toContain("nouvelle adresse");
    } finally {
      renders.mockRestore();
      parcels.delete(parcelId);
    }
  });
});
