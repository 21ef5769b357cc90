import type { EndpointDocs, ServiceDocs } from "../../lib/endpoint";

/** The gateway's own endpoints: their documentation, and the document tags it contributes. */

export const GATEWAY_DOCS: ServiceDocs = {
  tags: [{ name: "Labels", description: "Pre-signed label downloads." }]
};

export const DOWNLOAD_LABEL_DOCS: EndpointDocs = {
  operationId: "downloadLabel",
  summary: "Download a label (pre-signed URL)",
  description:
    "The labelUrl of a parcel: an A6 PDF with the tracking number as Code 128 barcode and QR code. No API key: the " +
    "signature in the URL is the credential, valid about 30 minutes; read the parcel again for a fresh URL. Any URL " +
    "that does not verify (expired, altered, or with a malformed part) is the same 403.",
  tag: "Labels",
  parameters: [
    {
      name: "file",
      in: "path",
      required: true,
      description: "<parcel id>.pdf",
      schema: { type: "string", pattern: "^[0-9a-fA-F-]{36}\\.pdf$" }
    },
    {
      name: "expires",
      in: "query",
      required: true,
      description: "Expiry, Unix seconds.",
      schema: { type: "string", pattern: "^[1-9][0-9]{0,14}$" }
    },
    {
      name: "signature",
      in: "query",
      required: true,
      description: "Hex HMAC of the URL.",
      schema: { type: "string", pattern: "^[0-9a-f]{64}$" }
    }
  ],
  response: { type: "string", format: "binary" },
  responseMediaType: "application/pdf",
  responseDescription: "The label.",
  responseHeaders: {
    "Content-Disposition": { required: true, description: 'inline; filename="<tracking number>.pdf"', schema: { type: "string" } }
  },
  errors: ["PARCEL_NOT_FOUND"]
};

export const PROBE_DOCS = (operationId: string, summary: string): EndpointDocs => ({
  operationId,
  summary,
  tag: "Probes",
  responseDescription: summary,
  hidden: true
});
