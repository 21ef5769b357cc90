import type { JsonSchema } from "./types";

/**
 * Building blocks for the response schemas services declare on their endpoints. Each object
 * schema is written against the TypeScript type the code returns (`objectOf<T>`), so a field added
 * to the type and not to the schema (or the other way round) does not compile; the e2e suites
 * then check every real response against the served document.
 *
 * Responses are open: a later revision of v1 may add fields, and clients must ignore what they do
 * not know (requests stay closed: they come from Joi schemas that refuse unknown fields).
 */

type Properties<T> = { [K in keyof T]-?: JsonSchema };

export function objectOf<T>(
  properties: Properties<T>,
  options: { description?: string; optional?: (keyof T & string)[]; examples?: unknown[] } = {}
): JsonSchema {
  const optional = new Set<string>(options.optional ?? []);
  return {
    type: "object",
    ...(options.description ? { description: options.description } : {}),
    properties: properties as Record<string, JsonSchema>,
    required: Object.keys(properties).filter(k => !optional.has(k)),
    ...(options.examples ? { examples: options.examples } : {})
  };
}

/**
 * A schema the documents show once, under `name`, in components.schemas, and refer to everywhere
 * else: the gateway hoists every schema marked so (two different schemas under one name are an
 * error when the document is built).
 */
export function component(name: string, schema: JsonSchema): JsonSchema {
  return { ...schema, "x-component": name };
}

export function nullable(schema: JsonSchema): JsonSchema {
  if (schema.$ref || schema["x-component"]) return { anyOf: [schema, { type: "null" }] };
  const type = schema.type;
  return { ...schema, type: [...(Array.isArray(type) ? type : [type!]), "null"] };
}

export const uuidSchema = (description?: string): JsonSchema => ({
  type: "string",
  format: "uuid",
  ...(description ? { description } : {})
});
export const dateTime = (description: string): JsonSchema => ({ type: "string", format: "date-time", description });
export const arrayOf = (items: JsonSchema, description?: string): JsonSchema => ({
  type: "array",
  items,
  ...(description ? { description } : {})
});

/**
 * An amount the system computed (price, balance). "At most two decimals" is said in words only:
 * `multipleOf: 0.01` makes floating-point validators (ajv, Prism) refuse valid amounts such as
 * 19.99 and 1234.56; the server checks the decimals of what it is sent.
 */
export const amountDzd = (description: string): JsonSchema => ({
  type: "number",
  description: `${description} In DZD, at most two decimals.`
});
