import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { ObjectSchema } from "joi";
import type { FieldDoc } from "../../lib/endpoint";
import type { JsonSchema, OpenApiDocument, Operation, Parameter } from "../../lib/openapi/types";
import { actionDefinition } from "../helpers/action-definitions";
import { apiDocument } from "../helpers/api-documents";

/**
 * One source of truth: the request schemas of the documents are generated from the actions' Joi
 * schemas. This holds the generation to account, field by field, for every documented operation:
 *
 * 1. structurally: type, required, length and value bounds, pattern and enum of each Joi key are
 *    those of the document (read from Joi's own description, independently of the generator);
 * 2. by behaviour: for a battery of values per field (both sides of every bound, wrong types,
 *    null, absent), a request the document allows is accepted by the running validation (Joi, then
 *    the handler's own check where the document says so), and one it forbids is refused, except
 *    for the few leniencies listed below.
 */

const UUID = "7c0e2f7a-9a53-4a43-8d5e-3b7f0d1c2e4a";

/** Forms the server accepts beyond the documented ones: harmless leniency, never the other way round. */
const LENIENCIES: Array<{ why: string; applies: (field: string, value: unknown, where: string) => boolean }> = [
  { why: "an empty query value means 'not given' (Joi empty(''))", applies: (_f, v, where) => where === "query" && v === "" }
];

/**
 * Checks the server makes that the document states in words only. Money's "at most two decimals":
 * JSON Schema's multipleOf 0.01 makes floating-point validators refuse valid amounts (19.99), so
 * the document says it in the field's description and the server enforces it.
 */
const STATED_IN_WORDS: Array<{ why: string; applies: (schema: JsonSchema, value: unknown) => boolean }> = [
  {
    why: "money has at most two decimals",
    applies: (schema, value) =>
      /at most two decimals/i.test(schema.description ?? "") && typeof value === "number" && Math.round(value * 100) !== value * 100
  }
];

const docs: Record<string, OpenApiDocument> = {
  partner: apiDocument("partner"),
  relay: apiDocument("relay"),
  backoffice: apiDocument("backoffice")
};

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, multipleOfPrecision: 9 });
addFormats(ajv);

interface Case {
  doc: OpenApiDocument;
  operation: Operation;
  joi: ObjectSchema<unknown>;
  /** The endpoint's field documentation, with the handler's own checks (functions, which the registry does not carry). */
  fields: Record<string, FieldDoc>;
}

const documented = Object.values(docs).flatMap(doc =>
  Object.values(doc.paths).flatMap(item =>
    (["get", "post", "put", "delete", "patch"] as const).flatMap(m => (item[m] ? [{ doc, operation: item[m]! }] : []))
  )
);
const cases: Case[] = documented.flatMap(({ doc, operation }) => {
  const action = actionDefinition(operation["x-action"]!);
  return action.schema ? [{ doc, operation, joi: action.schema, fields: action.endpoint?.fields ?? {} }] : [];
});

function resolveSchema(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  return schema.$ref ? doc.components.schemas![schema.$ref.split("/").pop()!] : schema;
}

function bodySchema(c: Case): JsonSchema | null {
  const content = c.operation.requestBody?.content["application/json"];
  return content ? resolveSchema(c.doc, content.schema) : null;
}

function parameter(c: Case, name: string): Parameter | undefined {
  return (c.operation.parameters as Parameter[] | undefined)?.find(p => p.name === name && p.in !== "header");
}

/** Where each Joi key lives in the document, and its schema there. */
function fieldsOf(c: Case): Array<{ name: string; where: "path" | "query" | "body"; schema: JsonSchema; required: boolean }> {
  const keys = Object.keys((c.joi.describe() as { keys?: Record<string, unknown> }).keys ?? {});
  return keys.map(name => {
    const p = parameter(c, name);
    if (p) return { name, where: p.in as "path" | "query", schema: p.schema, required: p.required === true };
    const body = bodySchema(c);
    const schema = body?.properties?.[name];
    if (!schema) throw new Error(`${c.operation.operationId}: Joi key ${name} is not in the document`);
    return { name, where: "body" as const, schema, required: (body!.required ?? []).includes(name) };
  });
}

describe.each(cases.map(c => [c.operation.operationId, c] as const))("%s", (_id, c) => {
  test("structure: every Joi key is documented with its type, presence, bounds, pattern and allowed values", () => {
    const described = c.joi.describe() as {
      keys: Record<
        string,
        {
          type: string;
          flags?: Record<string, unknown>;
          rules?: Array<{ name: string; args?: Record<string, unknown> }>;
          allow?: unknown[];
          metas?: Array<{ openapi?: JsonSchema }>;
        }
      >;
    };
    for (const f of fieldsOf(c)) {
      const joi = described.keys[f.name];
      const rules = Object.fromEntries((joi.rules ?? []).map(r => [r.name, r.args ?? {}]));
      const types = ([] as unknown[]).concat(f.schema.type ?? []);
      const label = `${c.operation.operationId}.${f.name}`;

      const expectedType = joi.type === "number" ? ("integer" in rules ? "integer" : "number") : joi.type;
      expect({ label, types }).toEqual({ label, types: expect.arrayContaining([expectedType]) });
      expect({ label, required: f.required }).toEqual({ label, required: f.where === "path" || joi.flags?.presence === "required" });
      if (f.where === "body")
        expect({ label, nullable: types.includes("null") }).toEqual({ label, nullable: (joi.allow ?? []).includes(null) });

      const lengthLike =
        joi.type === "string" ? ["minLength", "maxLength"] : joi.type === "array" ? ["minItems", "maxItems"] : ["minimum", "maximum"];
      if ("min" in rules) expect({ label, min: f.schema[lengthLike[0] as keyof JsonSchema] }).toEqual({ label, min: rules.min.limit });
      if ("max" in rules) expect({ label, max: f.schema[lengthLike[1] as keyof JsonSchema] }).toEqual({ label, max: rules.max.limit });
      if ("greater" in rules)
        expect({ label, exclusiveMinimum: f.schema.exclusiveMinimum }).toEqual({ label, exclusiveMinimum: rules.greater.limit });
      if ("pattern" in rules) {
        const source = String(rules.pattern.regex).replace(/^\/|\/[a-z]*$/g, "");
        expect({ label, pattern: [f.schema.pattern, ...(f.schema.allOf ?? []).map(s => s.pattern)] }).toEqual({
          label,
          pattern: expect.arrayContaining([source])
        });
      }
      if ("guid" in rules) expect({ label, format: f.schema.format }).toEqual({ label, format: "uuid" });
      if (joi.flags?.only) {
        const allowed = (joi.allow ?? []).filter(v => v !== null && !(f.where !== "body" && v === null));
        expect({ label, enum: (f.schema.enum ?? []).filter(v => v !== null) }).toEqual({ label, enum: allowed });
      }
      if ("custom" in rules) {
        // A custom rule says in its meta what it means (money: "at most two decimals"; a wilaya: its exact pattern);
        // the document says the same.
        const meant = (joi.metas ?? []).find(m => m.openapi)?.openapi;
        expect({ label, described: meant !== undefined }).toEqual({ label, described: true });
        const { description, ...keywords } = meant!;
        for (const [keyword, value] of Object.entries(keywords))
          expect({ label, keyword, value: f.schema[keyword as keyof JsonSchema] }).toEqual({ label, keyword, value });
        if (description)
          expect({ label, description: f.schema.description }).toEqual({ label, description: expect.stringContaining(description) });
      }
    }
  });

  test("behaviour: the document and the running validation accept and refuse the same values", () => {
    const fields = fieldsOf(c);
    const body = bodySchema(c);
    const baseline: Record<string, unknown> = {};
    for (const f of fields) if (f.required) baseline[f.name] = validValue(f.schema, `${c.operation.operationId}.${f.name}`, f.where);

    const disagreements: string[] = [];
    const check = (f: (typeof fields)[number], value: unknown) => {
      const params = { ...baseline };
      if (value === undefined) delete params[f.name];
      else params[f.name] = value;
      const documented = documentAccepts(c, body, fields, params);
      const runtime = runtimeAccepts(c, params);
      if (documented === runtime) return;
      if (!documented && LENIENCIES.some(l => l.applies(f.name, value, f.where))) return;
      if (documented && STATED_IN_WORDS.some(l => l.applies(f.schema, value))) return;
      disagreements.push(
        `${f.name}=${JSON.stringify(value)} (${f.where}): document ${documented ? "allows" : "forbids"}, server ${runtime ? "accepts" : "refuses"}`
      );
    };

    expect({ baseline, documented: documentAccepts(c, body, fields, baseline), runtime: runtimeAccepts(c, baseline) }).toEqual({
      baseline,
      documented: true,
      runtime: true
    });
    for (const f of fields) for (const value of probes(f.schema, f.where)) check(f, value);
    if (body && body.additionalProperties === false) {
      const runtime = runtimeAccepts(c, { ...baseline, notAField: 1 });
      const documented = ajv.validate(body, { ...bodyPart(fields, baseline), notAField: 1 });
      if (runtime !== documented) disagreements.push(`unknown body field: document ${documented}, server ${runtime}`);
    }
    expect(disagreements).toEqual([]);
  });
});

test("every documented operation with a Joi schema is covered here", () => {
  const covered = cases.map(c => c.operation.operationId);
  expect(covered).toEqual(
    expect.arrayContaining([
      "createParcel",
      "listParcels",
      "getParcel",
      "getParcelByTracking",
      "cancelParcel",
      "triggerSandboxEvent",
      "createParcelBatch",
      "createLabelDocument"
    ])
  );
  // Only the label and manifest downloads check their own input (a malformed part of a signed URL is a 403, never a 400).
  expect(documented.filter(d => !covered.includes(d.operation.operationId)).map(d => d.operation.operationId)).toEqual([
    "downloadLabelDocument",
    "downloadManifest",
    "downloadLabel"
  ]);
});

// --- the two acceptors ---------------------------------------------------------------------------

function bodyPart(fields: ReturnType<typeof fieldsOf>, params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([k]) => fields.find(f => f.name === k)?.where === "body"));
}

/** What an OpenAPI request validator decides: parameters are text, parsed as their schema's type; the body is JSON. */
function documentAccepts(c: Case, body: JsonSchema | null, fields: ReturnType<typeof fieldsOf>, params: Record<string, unknown>): boolean {
  for (const f of fields.filter(f => f.where !== "body")) {
    const raw = params[f.name];
    if (raw === undefined) {
      if (f.required) return false;
      continue;
    }
    if (!ajv.validate(f.schema, parseParameter(raw, f.schema))) return false;
  }
  if (body) return ajv.validate(body, bodyPart(fields, params));
  return true;
}

function parseParameter(raw: unknown, schema: JsonSchema): unknown {
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if (typeof raw === "string" && (types.includes("integer") || types.includes("number")) && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  return raw;
}

/** What the server decides: the validation middleware's Joi call, then the handler's documented checks. */
function runtimeAccepts(c: Case, params: Record<string, unknown>): boolean {
  const { error, value } = c.joi.validate(params, { abortEarly: false, convert: false });
  if (error) return false;
  for (const [name, doc] of Object.entries(c.fields)) {
    if (doc.handler?.check && !doc.handler.check((value as Record<string, unknown>)[name])) return false;
  }
  return true;
}

// --- values --------------------------------------------------------------------------------------

function validValue(schema: JsonSchema, label: string, where: string): unknown {
  const v = ((): unknown => {
    if (schema.examples?.length) return schema.examples[0];
    if (schema.enum) return schema.enum.find(x => x !== null);
    if (schema.const !== undefined) return schema.const;
    const types = ([] as unknown[]).concat(schema.type ?? []);
    if (types.includes("string")) {
      if (schema.format === "uuid") return UUID;
      if (schema.pattern || schema.allOf || schema.format)
        throw new Error(`${label}: give the field an example, no valid value can be guessed`);
      return "x".repeat(Math.max(schema.minLength ?? 1, 1));
    }
    if (types.includes("integer") || types.includes("number")) {
      return schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : (schema.minimum ?? 1);
    }
    if (types.includes("boolean")) return true;
    if (types.includes("array")) return schema.minItems ? [validValue(schema.items ?? {}, label, "body")] : [];
    throw new Error(`${label}: no valid value for ${JSON.stringify(schema)}`);
  })();
  return where === "body" ? v : String(v);
}

function probes(schema: JsonSchema, where: "path" | "query" | "body"): unknown[] {
  const out: unknown[] = [];
  const types = ([] as unknown[]).concat(schema.type ?? []);
  const add = (...values: unknown[]) => out.push(...values);
  const n = (x: number) => (where === "body" ? x : String(x));

  if (where !== "path") add(undefined);
  add("", " ", "a", "NOPE", "0");
  if (where === "body") add(null, true, 1, {}, [], ["x"]);
  for (const e of schema.examples ?? []) {
    add(e);
    if (typeof e === "string") add(e.toLowerCase(), ` ${e}`, `${e} `, `${e}!`, e.slice(0, -1));
  }
  if (schema.enum) for (const e of schema.enum) if (e !== null) add(e, typeof e === "string" ? e.toLowerCase() : e);
  if (schema.format === "uuid") add(UUID, UUID.toUpperCase(), "not-a-uuid", UUID.slice(0, -1), "123");
  if (types.includes("string")) {
    for (const len of [schema.minLength, schema.maxLength]) {
      if (len === undefined) continue;
      for (const l of [len - 1, len, len + 1]) if (l >= 0) add("x".repeat(l), "A".repeat(l), " ".repeat(l));
    }
  }
  if (types.includes("integer") || types.includes("number")) {
    for (const bound of [schema.minimum, schema.maximum, schema.exclusiveMinimum]) {
      if (bound === undefined) continue;
      add(n(bound - 1), n(bound), n(bound + 1), n(bound - 0.01), n(bound + 0.01), n(bound + 0.5));
    }
    add(n(1), n(-1), n(1.5), n(19.99), n(12.345), n(1e20));
    if (where === "body") add("100", -0);
  }
  if (types.includes("array") && schema.items?.enum) {
    const [first, second] = schema.items.enum as unknown[];
    add([first], [first, second], [first, first], ["nope"]);
  }
  if (types.includes("boolean")) add(false, "true", 0);
  return out;
}
