import { Joi } from "./joi";

/**
 * The text of the relay-point directory (names, cities, addresses, closure reasons): what every
 * surface shows as one line, to shops' customers in their checkout, to recipients on the tracking
 * pages and in SMS, on labels and at the counter. Every surface renders it as text; this refuses at
 * the door what no person would type in a shop's name:
 *
 * - control characters of any kind (tab and line breaks included: one line), line and paragraph
 *   separators, and the invisible direction controls (embeddings, overrides, isolates) that would
 *   make a name read backwards or swallow the text after it; the marks LRM and RLM stay allowed;
 * - text that is nothing but markup and punctuation (`<img src=x onerror=…>`, `"><svg onload=…>`):
 *   at least one letter or digit, in any script, outside a tag.
 *
 * Both are plain patterns without flags, so that the OpenAPI documents carry them as written
 * (lib/openapi/joi-schema.ts) and a client can check a name before it sends it. The second reads
 * each character one way only (a tag, a lone `<` or `>`, or punctuation), so it runs in linear time.
 */

// eslint-disable-next-line no-control-regex
export const ONE_LINE_TEXT = /^[^\u0000-\u001F\u007F-\u009F\u2028-\u202E\u2066-\u2069\uFEFF]*$/;

export const NOT_MARKUP_ONLY = /^(?!(?:<[^<>]*>|>|<(?![^<>]*>)|[\s\x21-\x2F\x3A\x3B\x3D\x3F\x40\x5B-\x60\x7B-\x7E])*$)/;

/** A directory text field of at most `max` characters, both rules with their own message. */
export const directoryText = (max: number) =>
  Joi.string()
    .min(1)
    .max(max)
    .pattern(ONE_LINE_TEXT)
    .rule({ message: "{{#label}} must be one line of text: no control, line-break or text-direction characters" })
    .pattern(NOT_MARKUP_ONLY)
    .rule({ message: "{{#label}} must be text (a letter or a digit outside markup), not markup or punctuation alone" });

/** Whether `text` passes both rules (the directory shipped with the code is held to them by a test). */
export function isDirectoryText(text: string): boolean {
  return ONE_LINE_TEXT.test(text) && NOT_MARKUP_ONLY.test(text);
}
