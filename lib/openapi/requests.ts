import type { ObjectSchema } from "joi";
import { joiToJsonSchema } from "./joi-schema";
import type { JsonSchema, JsonType, Parameter } from "./types";

/**
 * Moleculer-web merges path parameters, the query string and the JSON body into one `ctx.params`,
 * validated by one Joi object per action. An operation's layout says where each of its keys comes
 * from; every key must be placed, so a field added to the Joi schema cannot be left out of the
 * document.
 */
export interface RequestLayout {
  path?: string[];
  query?: string[];
  body?: string[];
  /** Documentation, and stricter documented forms checked by the handler after Joi. */
  fields?: Record<string, FieldDoc>;
}

export interface FieldDoc {
  description?: string;
  examples?: unknown[];
  /**
   * Keywords the handler enforces on top of the Joi schema (sandbox `toStatus`: any string for Joi,
   * then 400 INVALID_STATUS unless it is one of the 12 statuses). `check` is that very handler
   * test, so the agreement test can hold the runtime to the documented keywords.
   */
  handler?: { schema: JsonSchema; check: (value: unknown) => boolean };
}

export interface RequestParts {
  parameters: Parameter[];
  /** The JSON body schema, or null when the operation takes none. */
  body: JsonSchema | null;
}

function withoutNull(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (Array.isArray(out.type)) {
    const types = out.type.filter(t => t !== "null");
    out.type = (types.length === 1 ? types[0] : types) as JsonType | JsonType[];
  }
  if (out.enum) out.enum = out.enum.filter(v => v !== null);
  if (out.default === null) delete out.default;
  return out;
}

function documented(schema: JsonSchema, doc: FieldDoc | undefined): JsonSchema {
  if (!doc) return schema;
  const out: JsonSchema = { ...schema, ...(doc.handler?.schema ?? {}) };
  if (doc.description) out.description = doc.description;
  if (doc.examples) out.examples = doc.examples;
  return out;
}

export function requestParts(joi: ObjectSchema<unknown> | undefined, layout: RequestLayout): RequestParts {
  const whole = joi ? joiToJsonSchema(joi) : { type: "object" as const, properties: {} };
  const properties = whole.properties ?? {};
  const required = new Set(whole.required ?? []);
  const placed = [...(layout.path ?? []), ...(layout.query ?? []), ...(layout.body ?? [])];

  for (const key of Object.keys(properties)) {
    if (placed.filter(k => k === key).length !== 1) {
      throw new Error(`OpenAPI: request field "${key}" must be placed exactly once in path, query or body`);
    }
  }
  for (const key of placed) {
    if (!(key in properties)) throw new Error(`OpenAPI: "${key}" is placed in the request but the Joi schema has no such key`);
  }
  for (const key of Object.keys(layout.fields ?? {})) {
    if (!(key in properties)) throw new Error(`OpenAPI: documentation for "${key}", which the Joi schema does not have`);
  }

  const field = (key: string) => documented(properties[key], layout.fields?.[key]);
  const parameters: Parameter[] = [
    ...(layout.path ?? []).map(name => {
      const schema = withoutNull(field(name));
      const { description, ...rest } = schema;
      return { name, in: "path" as const, required: true, description, schema: rest };
    }),
    ...(layout.query ?? []).map(name => {
      const schema = withoutNull(field(name));
      const { description, ...rest } = schema;
      return { name, in: "query" as const, required: required.has(name), description, schema: rest };
    })
  ];

  let body: JsonSchema | null = null;
  if (layout.body) {
    const bodyRequired = layout.body.filter(k => required.has(k));
    body = {
      type: "object",
      properties: Object.fromEntries(layout.body.map(k => [k, field(k)])),
      ...(bodyRequired.length > 0 ? { required: bodyRequired } : {}),
      ...(whole.additionalProperties === false ? { additionalProperties: false } : {})
    };
  }
  return { parameters, body };
}
