/** What other services (and the gateway) call `labels` with, and what it answers. Types only. */

/** A rendered label: a Buffer does not cross the NATS JSON serializer, base64 does. */
export interface RenderedLabel {
  pdfBase64: string;
  fileName: string;
}

/** The three parts of a label URL, exactly as they arrived. */
export interface LabelUrlParts {
  parcelId: string;
  expires: string;
  signature: string;
}

declare module "../../lib/contract" {
  interface ActionContracts {
    /** A fresh 30-minute URL per parcel: create, GET and every webhook attempt hand out a new one. */
    "labels.signUrls": { params: { parcelIds: string[] }; answer: { labelUrls: Record<string, string> } };
    /** 403 LABEL_URL_INVALID unless the URL verifies, before any lookup. */
    "labels.render": { params: LabelUrlParts; answer: RenderedLabel };
  }
}
