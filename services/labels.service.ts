/**
 * The labels service. Owns rendering shipping labels (PDF and ZPL, in services/labels/render/)
 * and signing their download URLs; no database. Its code is this file and services/labels/.
 * Others may call (types in labels/labels.contract.ts): `labels.signUrls` (a process without LABEL_URL_SECRET,
 * through mixins/label-urls.ts), `labels.render` and `labels.renderBatch` (gateway's downloads).
 */
import type { ServiceBroker, ServiceSchema } from "moleculer";
import { defineAction } from "../lib/action";
import { call } from "../lib/contract";
import { AppError } from "../lib/errors";
import { countMetric, RELAY_METRICS } from "../lib/metrics";
import type { LabelData } from "../lib/labels/label-data";
import { LabelFormat, pageCount } from "../lib/labels/page-formats";
import { PrintOptions, startOffsetProblem } from "../lib/labels/print-options";
import {
  LabelSignatureVerdict,
  signLabelBatchUrl,
  signLabelUrls,
  unpackParcelIds,
  verifyLabelBatchSignature,
  verifyLabelSignature
} from "../lib/label-url";
import type { PartnerMeta } from "../lib/principal";
import { NoParams, NoParamsSchema } from "../lib/schemas";
import { requireSecret } from "../lib/secrets";
import { ConfigMixin, ConfigVars } from "../mixins/config.mixin";
import { labelInputs } from "./labels/label-inputs";
import type { LabelBatchParts, LabelDocument, LabelUrlParts, RenderedLabel } from "./labels/labels.contract";
import {
  CreateDocumentParams,
  CreateDocumentSchema,
  LabelDocumentView,
  RenderBatchSchema,
  RenderSchema,
  SignUrlsParams,
  SignUrlsSchema
} from "./labels/labels.params";
import { RenderCache } from "./labels/render-cache";
import { renderers } from "./labels/renderers";
import { ManifestDocumentsMixin } from "./labels/manifests.mixin";

type HttpMeta = { $responseType?: string; $responseHeaders?: Record<string, string> };

interface LabelsVars extends ConfigVars {
  labelUrlSecret: string;
  rendered: RenderCache;
}

/** Rendered documents kept in memory, by total size. */
const RENDER_CACHE_BYTES = 32 * 1024 * 1024;

/** Checked before any lookup, so that a forged URL cannot learn whether a parcel exists. */
function refuseUnlessValid(verdict: LabelSignatureVerdict): void {
  if (verdict === "expired") throw new AppError("LABEL_URL_INVALID", "label URL expired");
  if (verdict !== "valid") throw new AppError("LABEL_URL_INVALID", "label URL is not valid");
}

/** The print options of a request, checked once more here: the gateway has refused bad ones with a 400 already. */
function printOptionsOf(params: { format?: LabelFormat; startOffset?: number }): PrintOptions {
  const options = { format: params.format ?? "a6", startOffset: params.startOffset ?? 0 };
  const problem = startOffsetProblem(options.format, options.startOffset);
  if (problem) throw new AppError("VALIDATION_FAILED", "The request is not valid", { details: [problem] });
  return options;
}

async function renderCached(
  broker: ServiceBroker,
  cache: RenderCache,
  labels: LabelData[],
  print: PrintOptions,
  fileName: string
): Promise<RenderedLabel> {
  const { file, cached } = await cache.fetch({ print, labels }, async () => {
    countMetric(broker, RELAY_METRICS.labelRenders, { format: print.format });
    return (await renderers()).renderLabelFile(labels, print);
  });
  return {
    contentBase64: file.content.toString("base64"),
    contentType: file.contentType,
    fileName: `${fileName}.${file.extension}`,
    cached
  };
}

/**
 * Shipping labels and their pre-signed download URLs.
 *
 * No database and no object storage: a label is rendered from the parcel's current data
 * (`parcels.labelData`) and the sender's name (`auth.getOrganization`), in the format asked for,
 * and kept in a bounded in-memory cache keyed by a digest of exactly that (render-cache.ts). A
 * merged document's URL carries its list of parcels, signed, so nothing is stored for it either.
 * The service scales by adding instances (each with its own cache).
 */
const LabelsService: ServiceSchema<object, object, LabelsVars> = {
  name: "labels",
  mixins: [ConfigMixin, ManifestDocumentsMixin],

  actions: {
    // call labels.signUrls --parcelIds '["<uuid>"]'
    signUrls: defineAction<SignUrlsParams, LabelsVars>({
      visibility: "public",
      schema: SignUrlsSchema,
      handler(ctx) {
        return { labelUrls: signLabelUrls(this.config.publicBaseUrl, ctx.params.parcelIds, this.labelUrlSecret) };
      }
    }),

    // call labels.render --parcelId <uuid> --expires <unix s> --signature <hex> --format zpl
    render: defineAction<LabelUrlParts, LabelsVars>({
      visibility: "public",
      schema: RenderSchema,
      async handler(ctx): Promise<RenderedLabel> {
        const { parcelId, expires, signature } = ctx.params;
        refuseUnlessValid(verifyLabelSignature(parcelId, expires, signature, this.labelUrlSecret));
        const print = printOptionsOf(ctx.params);
        const parcel = await call(ctx, "parcels.labelData", { parcelId });
        return renderCached(
          ctx.broker,
          this.rendered,
          await labelInputs(ctx, [parcel], this.config.brand.name),
          print,
          `label-${parcel.trackingNumber}`
        );
      }
    }),

    renderBatch: defineAction<LabelBatchParts, LabelsVars>({
      visibility: "public",
      schema: RenderBatchSchema,
      // A hundred labels render in about a second on one core.
      timeout: 60_000,
      async handler(ctx): Promise<RenderedLabel> {
        const { parcels, expires, signature } = ctx.params;
        refuseUnlessValid(verifyLabelBatchSignature(parcels, expires, signature, this.labelUrlSecret));
        const print = printOptionsOf(ctx.params);
        const parcelIds = unpackParcelIds(parcels)!;
        const { labels, missing } = await call(ctx, "parcels.labelDataOf", { parcelIds });
        if (missing.length > 0) throw new AppError("PARCEL_NOT_FOUND", `${missing.length} parcels of this document no longer exist`);
        return renderCached(
          ctx.broker,
          this.rendered,
          await labelInputs(ctx, labels, this.config.brand.name),
          print,
          `labels-${labels.length}-${print.format}`
        );
      }
    }),

    createDocument: defineAction<CreateDocumentParams, LabelsVars, PartnerMeta>({
      rest: "POST /labels",
      api: "partner",
      scope: "parcels:read",
      schema: CreateDocumentSchema,
      endpoint: {
        operationId: "createLabelDocument",
        summary: "Print up to 100 labels in one document",
        description:
          "One PDF (or one ZPL file) with the label of each parcel, in the order given: one label per page in a6 and 4x6, four " +
          "per A4 sheet from `startOffset`. The answer is a pre-signed URL, valid 30 minutes and needing no API key, rendered " +
          "when first downloaded (then kept, so a reprint is immediate). Every id must be a parcel of your organisation in " +
          "your key's mode: otherwise nothing is made and the 404 names each id that is not (by its position in `parcelIds`).",
        tag: "Labels",
        response: LabelDocumentView,
        responseDescription: "The document's download URL.",
        errors: ["PARCEL_NOT_FOUND"],
        body: { name: "LabelDocumentRequest", description: "The parcels to print, and how." }
      },
      async handler(ctx): Promise<LabelDocument> {
        const { parcelIds, format, startOffset } = ctx.params;
        const problem = startOffsetProblem(format, startOffset);
        if (problem) throw new AppError("VALIDATION_FAILED", "The request is not valid", { details: [problem] });
        const owner = { organizationId: ctx.meta.auth.organizationId, mode: ctx.meta.auth.mode };
        const { missing } = await call(ctx, "parcels.labelDataOf", { parcelIds, owner });
        if (missing.length > 0) {
          throw new AppError("PARCEL_NOT_FOUND", `${missing.length} of the parcel ids are no parcel of yours: ${missing.join(", ")}`, {
            details: missing.map(id => ({
              field: `parcelIds.${parcelIds.indexOf(id)}`,
              message: `no parcel ${id} in your organisation and mode`
            }))
          });
        }
        const { url, expiresAt } = signLabelBatchUrl(this.config.publicBaseUrl, parcelIds, this.labelUrlSecret, { format, startOffset });
        return {
          url,
          format,
          startOffset,
          labelCount: parcelIds.length,
          pageCount: format === "zpl" ? parcelIds.length : pageCount(format, parcelIds.length, startOffset),
          expiresAt
        };
      }
    }),

    printerFont: defineAction<NoParams, LabelsVars, PartnerMeta & HttpMeta>({
      rest: "GET /labels/printer-font",
      api: "partner",
      scope: "parcels:read",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "getZplPrinterFont",
        summary: "Set a Zebra printer up for Arabic labels",
        description:
          "A ZPL ~DY command that stores the labels' font (Cairo, SIL Open Font License) on the printer's E: drive as " +
          "RPLABEL.TTF, where `format=zpl` labels look for it to print Arabic names and cities. Send it to each printer " +
          "once (for example `curl … | nc <printer> 9100`); Latin text prints with the printer's own font either way.",
        tag: "Labels",
        response: { type: "string" },
        responseMediaType: "text/plain",
        responseDescription: "The ~DY command, ASCII.",
        responseHeaders: {
          "Content-Disposition": { required: true, description: 'attachment; filename="rplabel-font.zpl"', schema: { type: "string" } }
        }
      },
      async handler(ctx) {
        ctx.meta.$responseType = "text/plain; charset=us-ascii";
        ctx.meta.$responseHeaders = { "Content-Disposition": 'attachment; filename="rplabel-font.zpl"' };
        return (await renderers()).zplFontDownload();
      }
    }),

    // call labels.cacheStats
    cacheStats: defineAction<unknown, LabelsVars>({
      visibility: "public",
      handler() {
        return this.rendered.stats();
      }
    })
  },

  created(this: LabelsVars) {
    this.labelUrlSecret = requireSecret(this.config, "labelUrlSecret");
    this.rendered = new RenderCache(RENDER_CACHE_BYTES);
  }
};

export default LabelsService;
