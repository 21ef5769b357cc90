import { Joi } from "../../lib/joi";
import { MAX_LABELS_PER_DOCUMENT } from "../../lib/labels/label-data";
import { LABEL_FORMATS, LabelFormat } from "../../lib/labels/page-formats";
import { component, dateTime, objectOf } from "../../lib/openapi/json-schema";
import { uuid } from "../../lib/schemas";
import type { LabelBatchParts, LabelDocument, LabelUrlParts } from "./labels.contract";

/** The params of every labels action, each interface beside the Joi schema that validates it. */

export interface SignUrlsParams {
  parcelIds: string[];
}
export const SignUrlsSchema = Joi.object<SignUrlsParams, true>({
  parcelIds: Joi.array().items(uuid()).max(1000).required()
});

const format = () =>
  Joi.string()
    .valid(...LABEL_FORMATS)
    .default("a6");
const startOffset = () => Joi.number().integer().min(0).max(3).default(0);

/**
 * The parts of a label URL are only bounded here, not shape-checked: a malformed id, expiry or
 * signature is a refused URL (403), never a 400 that would tell a prober which part it got wrong.
 * The print options are not part of the URL's signature; the gateway has already refused a bad
 * one with a 400 naming it.
 */
export const RenderSchema = Joi.object<LabelUrlParts, true>({
  parcelId: Joi.string().max(100).allow("").required(),
  expires: Joi.string().max(32).allow("").default(""),
  signature: Joi.string().max(200).allow("").default(""),
  format: format(),
  startOffset: startOffset()
});

export const RenderBatchSchema = Joi.object<LabelBatchParts, true>({
  parcels: Joi.string().max(2200).allow("").required(),
  expires: Joi.string().max(32).allow("").default(""),
  signature: Joi.string().max(200).allow("").default(""),
  format: format(),
  startOffset: startOffset()
});

export interface CreateDocumentParams {
  parcelIds: string[];
  format: LabelFormat;
  startOffset: number;
}
export const CreateDocumentSchema = Joi.object<CreateDocumentParams, true>({
  parcelIds: Joi.array()
    .items(uuid())
    .min(1)
    .max(MAX_LABELS_PER_DOCUMENT)
    .unique()
    .required()
    .description(
      `1 to ${MAX_LABELS_PER_DOCUMENT} different parcel ids of your organisation (and of your key's mode), one label each, ` +
        "printed in this order."
    )
    .example(["3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70", "8a0e6c41-2f3b-4d5e-9a7c-1b2c3d4e5f60"]),
  format: format().description(
    "a6 (one 105 × 148 mm label per page, the default), a4 (four A6 labels per 210 × 297 mm sheet), 4x6 (4 × 6 in, " +
      "thermal printers) or zpl (ZPL II text for Zebra printers, 203 dpi). The download URL may change it (`&format=`)."
  ),
  startOffset: startOffset().description(
    "A4 only: label positions already used on the first sheet, 0 to 3, filled row by row (1: start top right; 2: bottom " +
      "left; 3: bottom right). Must be 0 for the other formats."
  )
});

export const LabelDocumentView = component(
  "LabelDocument",
  objectOf<LabelDocument>({
    url: {
      type: "string",
      format: "uri",
      description:
        "Pre-signed URL of the merged document, valid 30 minutes, needing no API key. Ask again for a fresh one; `&format=` and " +
        "`&startOffset=` may be changed on it."
    },
    format: { type: "string", enum: [...LABEL_FORMATS] },
    startOffset: { type: "integer", minimum: 0, maximum: 3 },
    labelCount: { type: "integer", minimum: 1, maximum: MAX_LABELS_PER_DOCUMENT, description: "One label per parcel." },
    pageCount: {
      type: "integer",
      minimum: 1,
      maximum: MAX_LABELS_PER_DOCUMENT,
      description: "Pages of the PDF (a4: four labels per sheet, after the start offset); for zpl, the number of label formats."
    },
    expiresAt: dateTime("When the URL stops working, UTC.")
  })
);
