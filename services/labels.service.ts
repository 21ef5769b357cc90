import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Context, ServiceSchema } from "moleculer";
import { defineAction } from "../lib/action";
import { call } from "../lib/contract";
import { AppError } from "../lib/errors";
import { LabelData, renderLabelPdf } from "../lib/label-pdf";
import { signLabelUrl, verifyLabelSignature } from "../lib/label-url";
import { requireSecret } from "../lib/secrets";
import { ConfigMixin, ConfigVars } from "../mixins/config.mixin";
import type { LabelUrlParts, RenderedLabel } from "./labels/labels.contract";
import { RenderSchema, SignUrlsParams, SignUrlsSchema } from "./labels/labels.params";

interface LabelsVars extends ConfigVars {
  labelUrlSecret: string;
  /** Rendered PDFs by a digest of what they print: a reprint costs a lookup, not a render. */
  rendered: LRUCache<string, Buffer>;
}

/** Rendered labels kept in memory, by total size (a label is a few kilobytes). */
const RENDER_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Shipping labels and their pre-signed download URLs.
 *
 * No database and no object storage: a label is rendered from the parcel's current data
 * (`parcels.labelData`) and the sender's name (`auth.getOrganization`), and the PDF is kept in a
 * bounded in-memory cache keyed by a digest of exactly that data. A reprint is served from the
 * cache; a change of the parcel, relay point or sender name changes the digest, so a stale
 * label is never served. The service scales by adding instances (each with its own cache).
 */
const LabelsService: ServiceSchema<object, object, LabelsVars> = {
  name: "labels",
  mixins: [ConfigMixin],

  actions: {
    // call labels.signUrls --parcelIds '["<uuid>"]'
    signUrls: defineAction<SignUrlsParams, LabelsVars>({
      visibility: "public",
      schema: SignUrlsSchema,
      handler(ctx) {
        const now = Date.now();
        const labelUrls: Record<string, string> = {};
        for (const parcelId of ctx.params.parcelIds)
          labelUrls[parcelId] = signLabelUrl(this.config.publicBaseUrl, parcelId, this.labelUrlSecret, now);
        return { labelUrls };
      }
    }),

    // call labels.render --parcelId <uuid> --expires <unix s> --signature <hex>
    render: defineAction<LabelUrlParts, LabelsVars>({
      visibility: "public",
      schema: RenderSchema,
      async handler(ctx): Promise<RenderedLabel> {
        const { parcelId, expires, signature } = ctx.params;
        // Checked before any lookup, so a forged URL cannot learn whether a parcel exists.
        const verdict = verifyLabelSignature(parcelId, expires, signature, this.labelUrlSecret);
        if (verdict === "expired") throw new AppError("LABEL_URL_INVALID", "label URL expired");
        if (verdict !== "valid") throw new AppError("LABEL_URL_INVALID", "label URL is not valid");
        return renderLabelOf(ctx, parcelId, this.rendered);
      }
    })
  },

  created(this: LabelsVars) {
    this.labelUrlSecret = requireSecret(this.config, "labelUrlSecret");
    this.rendered = new LRUCache<string, Buffer>({ maxSize: RENDER_CACHE_BYTES, sizeCalculation: pdf => pdf.length });
  }
};

async function renderLabelOf(ctx: Context, parcelId: string, cache: LRUCache<string, Buffer>): Promise<RenderedLabel> {
  const parcel = await call(ctx, "parcels.labelData", { parcelId });
  const sender = await call(ctx, "auth.getOrganization", { organizationId: parcel.organizationId });
  const input: LabelData = {
    trackingNumber: parcel.trackingNumber,
    relayCode: parcel.relayCode,
    relayName: parcel.relayName,
    relayCity: parcel.relayCity,
    weightG: parcel.weightG,
    codAmountDzd: parcel.codAmountDzd,
    senderName: sender.name,
    createdAt: parcel.createdAt,
    sandbox: parcel.sandbox
  };
  const key = createHash("sha256").update(JSON.stringify(input)).digest("base64url");
  let pdf = cache.get(key);
  if (!pdf) {
    pdf = await renderLabelPdf(input);
    cache.set(key, pdf);
  }
  return { pdfBase64: pdf.toString("base64"), fileName: `label-${parcel.trackingNumber}.pdf` };
}

export default LabelsService;
