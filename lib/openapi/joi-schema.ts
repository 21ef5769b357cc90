import type { Schema } from "joi";
import type { JsonSchema, JsonType } from "./types";

/**
 * Joi → JSON Schema (2020-12, the dialect of OpenAPI 3.1), for the Joi features our action
 * schemas use. The document's request schemas are generated from the very Joi objects that the
 * validation middleware runs, so a bound changed in one place changes in both.
 *
 * Anything this converter does not know (a rule, a flag, a type) is an error, never silently
 * dropped: a new kind of constraint must be taught here before the document can be built.
 * A `custom()` rule has no JSON Schema equivalent by itself, so it must come with
 * `.meta({ openapi: {...} })` saying what it means (money: a description, "at most two decimals").
 *
 * Where the runtime is more lenient than what is documented (Joi's `guid()` also takes braces,
 * `empty("")` treats an empty query value as absent), the document shows the canonical form.
 */

interface JoiRule {
  name: string;
  args?: Record<string, unknown>;
}

interface JoiDescription {
  type: string;
  flags?: Record<string, unknown>;
  rules?: JoiRule[];
  allow?: unknown[];
  keys?: Record<string, JoiDescription>;
  items?: JoiDescription[];
  metas?: unknown[];
  preferences?: Record<string, unknown>;
  examples?: unknown[];
  whens?: unknown[];
}

/** Flags that change nothing in the document, or that are handled where they matter. */
const KNOWN_FLAGS = new Set(["presence", "default", "only", "unknown", "description", "empty", "label", "error"]);

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/** Accepts strings with no leading or trailing white space (Joi's `trim()` without conversion). */
export const TRIMMED_PATTERN = "^(\\S([\\s\\S]*\\S)?)?$";

export function joiToJsonSchema(schema: Schema): JsonSchema {
  return convert(schema.describe() as JoiDescription, "(root)");
}

function fail(path: string, what: string): never {
  throw new Error(`OpenAPI: cannot document ${what} at ${path}; teach lib/openapi/joi-schema.ts`);
}

/** Joi describes a pattern as the RegExp's text, "/source/flags". */
function regexSource(value: unknown, path: string): string {
  const text = value instanceof RegExp ? value.toString() : value;
  const match = typeof text === "string" ? /^\/([\s\S]*)\/([a-z]*)$/.exec(text) : null;
  if (!match) fail(path, "a pattern that is not a regular expression");
  if (match[2].replace(/[gy]/g, "") !== "") fail(path, `a pattern with flags /${match[2]}`);
  return match[1];
}

function addPattern(target: JsonSchema, pattern: string): void {
  if (target.pattern === undefined) {
    target.pattern = pattern;
  } else {
    target.allOf = [...(target.allOf ?? []), { pattern }];
  }
}

function convert(d: JoiDescription, path: string): JsonSchema {
  const flags = d.flags ?? {};
  for (const flag of Object.keys(flags)) if (!KNOWN_FLAGS.has(flag)) fail(path, `the Joi flag "${flag}"`);
  if (flags.presence === "forbidden") fail(path, "a forbidden key");
  // A rule that depends on another key cannot be said of one parameter: check it in the handler.
  if ((d.whens ?? []).length > 0) fail(path, "a when() that depends on another key");

  const allow = d.allow ?? [];
  const nullable = allow.includes(null);
  const allowed = allow.filter(v => v !== null);
  const only = flags.only === true;
  let out: JsonSchema;

  switch (d.type) {
    case "string":
      out = convertString(d, path, only, allowed);
      break;
    case "number":
      out = convertNumber(d, path, only, allowed);
      break;
    case "boolean":
      if ((d.rules ?? []).length > 0 || allowed.length > 0) fail(path, "a boolean with rules");
      out = { type: "boolean" };
      break;
    case "array":
      out = convertArray(d, path, allowed);
      break;
    case "object":
      out = convertObject(d, path, allowed);
      break;
    default:
      fail(path, `the Joi type "${d.type}"`);
  }

  if (nullable) {
    const type = out.type;
    out.type = Array.isArray(type) ? [...type, "null"] : [type as JsonType, "null"];
    if (out.enum) out.enum = [...out.enum, null];
  }
  if (typeof flags.description === "string") out.description = flags.description;
  if ("default" in flags && typeof flags.default !== "function") out.default = flags.default;
  if (Array.isArray(d.examples)) out.examples = d.examples;

  const customRules = (d.rules ?? []).filter(r => r.name === "custom").length;
  const metas = (d.metas ?? []).filter((m): m is { openapi: JsonSchema } => typeof m === "object" && m !== null && "openapi" in m);
  if (customRules > 0 && metas.length === 0) fail(path, "a custom() rule without .meta({ openapi: ... })");
  for (const meta of metas) {
    // A meta's description completes the field's own (money: "at most two decimals").
    const { description, ...rest } = meta.openapi;
    Object.assign(out, rest);
    if (description) out.description = out.description ? `${out.description} ${description}` : description;
  }
  return out;
}

function convertString(d: JoiDescription, path: string, only: boolean, allowed: unknown[]): JsonSchema {
  if (only) {
    if ((d.rules ?? []).length > 0) fail(path, "a valid() list with rules");
    return { type: "string", enum: allowed };
  }
  const out: JsonSchema = { type: "string" };
  const allowsEmpty = allowed.includes("");
  if (allowed.some(v => v !== "")) fail(path, "allowed values other than null and the empty string");
  for (const rule of d.rules ?? []) {
    const args = rule.args ?? {};
    switch (rule.name) {
      case "min":
        out.minLength = args.limit as number;
        break;
      case "max":
        out.maxLength = args.limit as number;
        break;
      case "length":
        out.minLength = out.maxLength = args.limit as number;
        break;
      case "pattern": {
        const options = (args.options ?? {}) as { invert?: boolean };
        if (options.invert) fail(path, "an inverted pattern");
        addPattern(out, regexSource(args.regex, path));
        break;
      }
      case "guid":
        out.format = "uuid";
        break;
      case "hex":
        addPattern(out, "^[0-9a-fA-F]*$");
        break;
      case "trim":
        if (args.enabled !== false) addPattern(out, TRIMMED_PATTERN);
        break;
      case "custom":
        break; // described by its meta (checked in convert)
      case "uri": {
        out.format = "uri";
        const schemes = ((args.options ?? {}) as { scheme?: unknown[] }).scheme;
        if (schemes) {
          const names = schemes.map(s => (typeof s === "string" ? s : fail(path, "a uri scheme given as a RegExp")));
          addPattern(out, `^(${names.join("|")}):`);
        }
        break;
      }
      default:
        fail(path, `the string rule "${rule.name}"`);
    }
  }
  if (allowsEmpty) {
    if ((out.minLength ?? 0) > 0 || out.pattern !== undefined) fail(path, "an allowed empty string beside a length or pattern rule");
  } else {
    // Joi refuses "" unless it is explicitly allowed.
    out.minLength = Math.max(out.minLength ?? 0, 1);
  }
  return out;
}

function convertNumber(d: JoiDescription, path: string, only: boolean, allowed: unknown[]): JsonSchema {
  if (only) return { type: "number", enum: allowed };
  if (allowed.length > 0) fail(path, "allowed numbers beside the rules");
  const out: JsonSchema = { type: "number" };
  for (const rule of d.rules ?? []) {
    const limit = (rule.args ?? {}).limit as number;
    switch (rule.name) {
      case "integer":
        out.type = "integer";
        break;
      case "min":
        out.minimum = limit;
        break;
      case "max":
        out.maximum = limit;
        break;
      case "greater":
        out.exclusiveMinimum = limit;
        break;
      case "less":
        out.exclusiveMaximum = limit;
        break;
      case "precision":
        out.multipleOf = Number(`1e-${limit}`);
        break;
      case "custom":
        break; // described by its meta (checked in convert)
      default:
        fail(path, `the number rule "${rule.name}"`);
    }
  }
  // Joi applies every bound; JSON Schema readers want one per side (Redocly's
  // no-mixed-number-range-constraints): keep the stricter.
  if (out.minimum !== undefined && out.exclusiveMinimum !== undefined) {
    if (out.exclusiveMinimum >= out.minimum) delete out.minimum;
    else delete out.exclusiveMinimum;
  }
  if (out.maximum !== undefined && out.exclusiveMaximum !== undefined) {
    if (out.exclusiveMaximum <= out.maximum) delete out.maximum;
    else delete out.exclusiveMaximum;
  }
  if (out.type === "integer") {
    const low = out.minimum ?? (out.exclusiveMinimum !== undefined ? out.exclusiveMinimum + 1 : -Infinity);
    const high = out.maximum ?? (out.exclusiveMaximum !== undefined ? out.exclusiveMaximum - 1 : Infinity);
    out.format = low >= INT32_MIN && high <= INT32_MAX ? "int32" : "int64";
  }
  return out;
}

function convertArray(d: JoiDescription, path: string, allowed: unknown[]): JsonSchema {
  if (allowed.length > 0) fail(path, "allowed values on an array");
  const out: JsonSchema = { type: "array" };
  const items = d.items ?? [];
  if (items.length > 1) fail(path, "an array with several item types");
  if (items.length === 1) out.items = convert(items[0], `${path}[]`);
  for (const rule of d.rules ?? []) {
    const limit = (rule.args ?? {}).limit as number;
    switch (rule.name) {
      case "min":
        out.minItems = limit;
        break;
      case "max":
        out.maxItems = limit;
        break;
      case "length":
        out.minItems = out.maxItems = limit;
        break;
      case "custom":
        break; // described by its meta (checked in convert)
      case "unique":
        if (rule.args && Object.keys(rule.args).some(k => rule.args![k] !== undefined)) fail(path, "unique() with a comparator");
        out.uniqueItems = true;
        break;
      default:
        fail(path, `the array rule "${rule.name}"`);
    }
  }
  return out;
}

function convertObject(d: JoiDescription, path: string, allowed: unknown[]): JsonSchema {
  if (allowed.length > 0) fail(path, "allowed values on an object");
  // A custom rule across the keys (a range that closes after it opens) is described by its meta.
  if ((d.rules ?? []).some(rule => rule.name !== "custom")) fail(path, "object-level rules");
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, child] of Object.entries(d.keys ?? {})) {
    properties[key] = convert(child, `${path}.${key}`);
    if (child.flags?.presence === "required") required.push(key);
  }
  const out: JsonSchema = { type: "object", properties };
  if (required.length > 0) out.required = required;
  if (d.flags?.unknown !== true) out.additionalProperties = false;
  return out;
}
