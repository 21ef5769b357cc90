import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { Joi } from "../lib/joi";
import type { Context, ServiceSchema } from "moleculer";
import { defineAction } from "../lib/action";
import { AppError } from "../lib/errors";
import { LabelData, renderLabelPdf } from "../lib/label-pdf";
import { signLabelUrl, verifyLabelSignature } from "../lib/label-url";
import { configOf } from "../lib/runtime";
import { uuid } from "../lib/schemas";
import { requireSecret } from "../lib/secrets";

/** What `parcels.labelData` answers: the parcel facts a label prints, nothing personal. */
export interface ParcelLabelData {
  trackingNumber: string;
  relayCode: string;
  relayName: string;
  relayCity: string | null;
  weightG: number;
  codAmountDzd: number | null;
  organizationId: string;
  createdAt: string;
  sandbox: boolean;
}

/** What `labels.render` answers: a Buffer does not cross the NATS JSON serializer, base64 does. */
export interface RenderedLabel {
  pdfBase64: string;
  fileName: string;
}

interface SignUrlParams {
  parcelId: string;
}
const SignUrlSchema = Joi.object<SignUrlParams, true>({
  parcelId: uuid().required()
});

interface SignUrlsParams {
  parcelIds: string[];
}
const SignUrlsSchema = Joi.object<SignUrlsParams, true>({
  parcelIds: Joi.array().items(uuid()).max(1000).required()
});

/**
 * The three parts of a label URL, exactly as they arrived. They are only bounded here, not
 * shape-checked: a malformed id, expiry or signature is a refused URL (403), never a 400 that
 * would tell a prober which part it got wrong.
 */
interface RenderParams {
  parcelId: string;
  expires: string;
  signature: string;
}
const RenderSchema = Joi.object<RenderParams, true>({
  parcelId: Joi.string().max(100).allow("").required(),
  expires: Joi.string().max(32).allow("").default(""),
  signature: Joi.string().max(200).allow("").default("")
});

interface LabelsVars {
  labelUrlSecret: string;
  publicBaseUrl: string;
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
const LabelsService: ServiceSchema<{}, {}, LabelsVars> = {
  name: "labels",

  actions: {
    // call labels.signUrl --parcelId <uuid>
    signUrl: defineAction<SignUrlParams, LabelsVars>({
      visibility: "public",
      schema: SignUrlSchema,
      handler(ctx) {
        // A fresh 30-minute URL on every call: create and GET each hand out a new one.
        return { labelUrl: signLabelUrl(this.publicBaseUrl, ctx.params.parcelId, this.labelUrlSecret) };
      }
    }),

    /** One call for a whole page of parcels (list endpoints): `{ labelUrls: { [parcelId]: url } }`. */
    signUrls: defineAction<SignUrlsParams, LabelsVars>({
      visibility: "public",
      schema: SignUrlsSchema,
      handler(ctx) {
        const now = Date.now();
        const labelUrls: Record<string, string> = {};
        for (const parcelId of ctx.params.parcelIds) {
          labelUrls[parcelId] = signLabelUrl(this.publicBaseUrl, parcelId, this.labelUrlSecret, now);
        }
        return { labelUrls };
      }
    }),

    // call labels.render --parcelId <uuid> --expires <unix s> --signature <hex>
    render: defineAction<RenderParams, LabelsVars>({
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

  created() {
    this.rendered = new LRUCache<string, Buffer>({ maxSize: RENDER_CACHE_BYTES, sizeCalculation: pdf => pdf.length });
  },

  started() {
    const config = configOf(this.broker);
    this.labelUrlSecret = requireSecret(config, "labelUrlSecret");
    this.publicBaseUrl = config.publicBaseUrl;
  }
};

async function renderLabelOf(ctx: Context, parcelId: string, cache: LRUCache<string, Buffer>): Promise<RenderedLabel> {
  const parcel = await ctx.call<ParcelLabelData, { parcelId: string }>("parcels.labelData", { parcelId });
  const sender = await ctx.call<{ name: string }, { organizationId: string }>("auth.getOrganization", {
    organizationId: parcel.organizationId
  });
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
