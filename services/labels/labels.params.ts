import { Joi } from "../../lib/joi";
import { uuid } from "../../lib/schemas";
import type { LabelUrlParts } from "./labels.contract";

/** The params of every labels action, each interface beside the Joi schema that validates it. */

export interface SignUrlsParams {
  parcelIds: string[];
}
export const SignUrlsSchema = Joi.object<SignUrlsParams, true>({
  parcelIds: Joi.array().items(uuid()).max(1000).required()
});

/**
 * The parts of a label URL are only bounded here, not shape-checked: a malformed id, expiry or
 * signature is a refused URL (403), never a 400 that would tell a prober which part it got wrong.
 */
export const RenderSchema = Joi.object<LabelUrlParts, true>({
  parcelId: Joi.string().max(100).allow("").required(),
  expires: Joi.string().max(32).allow("").default(""),
  signature: Joi.string().max(200).allow("").default("")
});
