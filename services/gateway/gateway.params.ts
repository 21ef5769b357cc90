import { Joi } from "../../lib/joi";
import { uuid } from "../../lib/schemas";
import type { EndpointDocs, ServiceDocs } from "../../lib/endpoint";
import { LABEL_FORMATS } from "../../lib/labels/page-formats";
import type { Header, Parameter } from "../../lib/openapi/types";

/** The gateway's own endpoints: their documentation, and the document tags it contributes. */

export const GATEWAY_DOCS: ServiceDocs = {
  tags: [{ name: "Labels", description: "Shipping labels: pre-signed downloads in A6, A4, 4×6 or ZPL, one parcel or a hundred at once." }]
};

const EXPIRES: Parameter = {
  name: "expires",
  in: "query",
  required: true,
  description: "Expiry, Unix seconds.",
  schema: { type: "string", pattern: "^[1-9][0-9]{0,14}$" }
};

const SIGNATURE: Parameter = {
  name: "signature",
  in: "query",
  required: true,
  description: "Hex HMAC of the URL.",
  schema: { type: "string", pattern: "^[0-9a-f]{64}$" }
};

/** The print options: not covered by the signature, so a URL may be printed in any format. */
const PRINT_OPTIONS: Parameter[] = [
  {
    name: "format",
    in: "query",
    required: false,
    description:
      "a6 (the default: one 105 × 148 mm label per page), a4 (four A6 labels per 210 × 297 mm sheet), 4x6 (4 × 6 in, " +
      "for thermal printers) or zpl (ZPL II text for Zebra printers, 4 × 6 in at 203 dpi). Not part of the signature: " +
      "the same URL prints in any format. Anything else is a 400.",
    schema: { type: "string", enum: [...LABEL_FORMATS], default: "a6" }
  },
  {
    name: "startOffset",
    in: "query",
    required: false,
    description:
      "A4 only: label positions already used on the first sheet, 0 to 3, filled row by row (1 starts top right, 2 bottom " +
      "left, 3 bottom right), so a partly used sheet can go back in the printer. Must be 0 for the other formats (400).",
    schema: { type: "integer", minimum: 0, maximum: 3, default: 0 }
  }
];

const LABEL_RESPONSE_HEADERS: Record<string, Header> = {
  "Content-Disposition": {
    required: true,
    description: 'The file name: inline; filename="label-<tracking number>.pdf" (attachment and .zpl for ZPL).',
    schema: { type: "string" }
  },
  "X-Label-Cache": {
    required: true,
    description: "hit when the document was served from the render cache (a reprint), miss when it was rendered for this request.",
    schema: { type: "string", enum: ["hit", "miss"] }
  }
};

const LABEL_MEDIA_TYPES = ["application/pdf", "text/plain"];

export const DOWNLOAD_LABEL_DOCS: EndpointDocs = {
  operationId: "downloadLabel",
  summary: "Download a label (pre-signed URL)",
  description:
    "The labelUrl of a parcel: by default an A6 PDF with the tracking number as Code 128 barcode and QR code, relay names " +
    "and cities in Latin and Arabic script. `format` and `startOffset` choose another format. No API key: the signature " +
    "in the URL is the credential, valid about 30 minutes; read the parcel again for a fresh URL (a reprint is served " +
    "from the render cache). Any URL that does not verify (expired, altered, or with a malformed part) is the same 403.",
  tag: "Labels",
  parameters: [
    {
      name: "file",
      in: "path",
      required: true,
      description: "<parcel id>.pdf",
      schema: { type: "string", pattern: "^[0-9a-fA-F-]{36}\\.pdf$" }
    },
    EXPIRES,
    SIGNATURE,
    ...PRINT_OPTIONS
  ],
  response: { type: "string", format: "binary" },
  responseMediaTypes: LABEL_MEDIA_TYPES,
  responseDescription: "The label: application/pdf, or text/plain (UTF-8) for ZPL.",
  responseHeaders: LABEL_RESPONSE_HEADERS,
  errors: ["VALIDATION_FAILED", "PARCEL_NOT_FOUND"]
};

export const DOWNLOAD_LABEL_BATCH_DOCS: EndpointDocs = {
  operationId: "downloadLabelDocument",
  summary: "Download a merged label document (pre-signed URL)",
  description:
    "The url answered by POST /api/partner/v1/labels: one document with the label of each of its parcels, in their order. " +
    "No API key: the signature covers the list of parcels and the expiry (30 minutes); `format` and `startOffset` may be " +
    "changed. Any URL that does not verify is the same 403.",
  tag: "Labels",
  parameters: [
    {
      name: "parcels",
      in: "query",
      required: true,
      description: "The parcel ids, packed (base64url of their 16 bytes each).",
      schema: { type: "string", pattern: "^[A-Za-z0-9_-]{22,2134}$" }
    },
    EXPIRES,
    SIGNATURE,
    ...PRINT_OPTIONS
  ],
  response: { type: "string", format: "binary" },
  responseMediaTypes: LABEL_MEDIA_TYPES,
  responseDescription: "The labels: application/pdf, or text/plain (UTF-8) for ZPL.",
  responseHeaders: LABEL_RESPONSE_HEADERS,
  errors: ["VALIDATION_FAILED", "PARCEL_NOT_FOUND"]
};

/** Issue 44: a manifest's pdfUrl (POST /api/partner/v1/manifests), signed like a label's. */
export const DOWNLOAD_MANIFEST_DOCS: EndpointDocs = {
  operationId: "downloadManifest",
  summary: "Download a manifest (pre-signed URL)",
  description:
    "The pdfUrl of a manifest: an A4 PDF in French and Arabic, one Code 128 and one QR code of the manifest's number, a line " +
    "per parcel and the totals. No API key: the signature covers the manifest and the expiry (30 minutes); read the " +
    "manifest again for a fresh URL. Any URL that does not verify is the same 403.",
  tag: "Labels",
  parameters: [
    {
      name: "file",
      in: "path",
      required: true,
      description: "<manifest id>.pdf",
      schema: { type: "string", pattern: "^[0-9a-fA-F-]{36}\\.pdf$" }
    },
    EXPIRES,
    SIGNATURE
  ],
  response: { type: "string", format: "binary" },
  responseMediaTypes: ["application/pdf"],
  responseDescription: "The manifest, application/pdf.",
  responseHeaders: LABEL_RESPONSE_HEADERS,
  errors: ["MANIFEST_NOT_FOUND"]
};

export const PROBE_DOCS = (operationId: string, summary: string): EndpointDocs => ({
  operationId,
  summary,
  tag: "Probes",
  responseDescription: summary,
  hidden: true
});

export interface ForgetApiKeyParams {
  keyId: string;
}
export const ForgetApiKeySchema = Joi.object<ForgetApiKeyParams, true>({ keyId: uuid().required() });
