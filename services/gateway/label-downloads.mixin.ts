import type { Context, ServiceSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import { call } from "../../lib/contract";
import { AppError } from "../../lib/errors";
import { PDF_CONTENT_TYPE } from "../../lib/labels/page-formats";
import { PrintOptions, readPrintOptions } from "../../lib/labels/print-options";
import { LABEL_BATCH_FILE, MANIFEST_FILE_DIR } from "../../lib/label-url";
import type { RenderedLabel } from "../labels/labels.contract";
import { DOWNLOAD_LABEL_BATCH_DOCS, DOWNLOAD_LABEL_DOCS, DOWNLOAD_MANIFEST_DOCS } from "./gateway.params";

type HttpMeta = { $responseType?: string; $responseHeaders?: Record<string, string> };
type DownloadContext = Context<Record<string, unknown>, HttpMeta>;

const single = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * The parts of a label URL that are its credential, shape-checked only: any that is malformed is
 * the one 403 of every URL that does not verify, so a prober learns nothing about which part it
 * got wrong (labels.render and labels.renderBatch check the signature itself).
 */
function credentialOf(params: Record<string, unknown>): { expires: string; signature: string } {
  const expires = single(params.expires);
  const signature = single(params.signature);
  if (!/^\d{1,15}$/.test(expires) || !/^[0-9a-fA-F]{1,128}$/.test(signature)) {
    throw new AppError("LABEL_URL_INVALID", "label URL is not valid");
  }
  return { expires, signature };
}

/** The format and start offset are not part of the credential: a bad one is a 400 that names it. */
function printOptionsOf(params: Record<string, unknown>): PrintOptions {
  const read = readPrintOptions(params);
  if ("problems" in read) throw new AppError("VALIDATION_FAILED", "The request is not valid", { details: read.problems });
  return read.options;
}

function served(ctx: DownloadContext, label: RenderedLabel): Buffer {
  ctx.meta.$responseType = label.contentType;
  ctx.meta.$responseHeaders = {
    // A PDF opens in the browser's viewer, to print; ZPL is saved, for the printer's tool.
    "Content-Disposition": `${label.contentType === PDF_CONTENT_TYPE ? "inline" : "attachment"}; filename="${label.fileName}"`,
    "Cache-Control": "private, max-age=60",
    "X-Label-Cache": label.cached ? "hit" : "miss"
  };
  return Buffer.from(label.contentBase64, "base64");
}

// Light modules only (no pdfkit, no fonts): the gateway serves what the labels service renders.

/**
 * The pre-signed label downloads the gateway answers on the labels API: one parcel's label
 * (`labelUrl`) and a merged document (POST /labels), each in any format. 404 only for a
 * well-signed URL of a parcel that is gone.
 */
export const LabelDownloadsMixin: Partial<ServiceSchema> = {
  actions: {
    downloadLabel: defineAction<Record<string, unknown>, unknown, HttpMeta>({
      rest: "GET /:file",
      api: "labels",
      endpoint: DOWNLOAD_LABEL_DOCS,
      async handler(ctx) {
        const file = /^([0-9a-fA-F-]{36})\.pdf$/.exec(single(ctx.params.file));
        const credential = credentialOf(ctx.params);
        if (!file) throw new AppError("LABEL_URL_INVALID", "label URL is not valid");
        const print = printOptionsOf(ctx.params);
        return served(ctx, await call(ctx, "labels.render", { parcelId: file[1].toLowerCase(), ...credential, ...print }));
      }
    }),

    downloadLabelBatch: defineAction<Record<string, unknown>, unknown, HttpMeta>({
      rest: `GET /${LABEL_BATCH_FILE}`,
      api: "labels",
      endpoint: DOWNLOAD_LABEL_BATCH_DOCS,
      // What labels.renderBatch may take for a hundred labels.
      timeout: 60_000,
      async handler(ctx) {
        const parcels = single(ctx.params.parcels);
        const credential = credentialOf(ctx.params);
        if (!/^[A-Za-z0-9_-]{1,2200}$/.test(parcels)) throw new AppError("LABEL_URL_INVALID", "label URL is not valid");
        const print = printOptionsOf(ctx.params);
        return served(ctx, await call(ctx, "labels.renderBatch", { parcels, ...credential, ...print }));
      }
    }),

    // Issue 44: a manifest's pdfUrl, signed like a label's.
    downloadManifest: defineAction<Record<string, unknown>, unknown, HttpMeta>({
      rest: `GET /${MANIFEST_FILE_DIR}/:file`,
      api: "labels",
      endpoint: DOWNLOAD_MANIFEST_DOCS,
      async handler(ctx) {
        const file = /^([0-9a-fA-F-]{36})\.pdf$/.exec(single(ctx.params.file));
        const credential = credentialOf(ctx.params);
        if (!file) throw new AppError("LABEL_URL_INVALID", "label URL is not valid");
        return served(ctx, await call(ctx, "labels.renderManifest", { manifestId: file[1].toLowerCase(), ...credential }));
      }
    })
  }
};
