/** What other services (and the gateway) call `labels` with, and what it answers. Types only. */

import type { LabelFormat } from "./render";
import type { RenderCacheStats } from "./render-cache";

/** A rendered label document: a Buffer does not cross the NATS JSON serializer, base64 does. */
export interface RenderedLabel {
  contentBase64: string;
  /** `application/pdf`, or `text/plain; charset=utf-8` for ZPL. */
  contentType: string;
  fileName: string;
  /** Served from the render cache rather than rendered for this request. */
  cached: boolean;
}

/** How the document is printed; the caller's free choice, outside the URL's signature. */
export interface PrintChoice {
  format?: LabelFormat;
  startOffset?: number;
}

/** The parts of a label URL, exactly as they arrived. */
export interface LabelUrlParts extends PrintChoice {
  parcelId: string;
  expires: string;
  signature: string;
}

/** The parts of a merged document's URL, exactly as they arrived: `parcels` is the packed list of ids. */
export interface LabelBatchParts extends PrintChoice {
  parcels: string;
  expires: string;
  signature: string;
}

/** POST /labels: where to download the merged document. */
export interface LabelDocument {
  url: string;
  format: LabelFormat;
  startOffset: number;
  labelCount: number;
  pageCount: number;
  expiresAt: string;
}

/** The parts of a manifest's URL (issue 44), exactly as they arrived. */
export interface ManifestUrlParts {
  manifestId: string;
  expires: string;
  signature: string;
}

declare module "../../lib/contract" {
  interface ActionContracts {
    /** A fresh 30-minute URL per parcel: create, GET and every webhook attempt hand out a new one. */
    "labels.signUrls": { params: { parcelIds: string[] }; answer: { labelUrls: Record<string, string> } };
    /** 403 LABEL_URL_INVALID unless the URL verifies, before any lookup. */
    "labels.render": { params: LabelUrlParts; answer: RenderedLabel };
    /** The merged document of a URL from POST /labels; 403 LABEL_URL_INVALID unless it verifies, before any lookup. */
    "labels.renderBatch": { params: LabelBatchParts; answer: RenderedLabel };
    /** Issue 44: a manifest's PDF from its URL; 403 LABEL_URL_INVALID unless it verifies, before any lookup. */
    "labels.renderManifest": { params: ManifestUrlParts; answer: RenderedLabel };
    /** The render cache of the instance that answers: for tests and the REPL. */
    "labels.cacheStats": { params: Record<string, never>; answer: RenderCacheStats };
  }
}
