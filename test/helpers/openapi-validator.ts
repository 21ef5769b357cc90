import Ajv2020, { ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { Header, HttpMethod, JsonSchema, OpenApiDocument, Operation, Parameter, Reference, Response } from "../../lib/openapi/types";
import { apiDocument } from "./api-documents";

/**
 * Checks real HTTP answers against the OpenAPI documents: the status must be documented for the
 * operation, the body must match that response's schema, the documented headers must be there
 * and well-formed, and an error's code must be one the operation lists for that status.
 * test/helpers/http.ts runs it on every response of the e2e suites.
 *
 * The documents keep responses open (a later v1 may add fields); the tests hold the server to
 * exactly the documented fields, so every object schema with properties is checked closed here.
 * Likewise "at most two decimals", which the documents state in words (multipleOf misleads
 * floating-point clients), is checked as multipleOf 0.01 with a precision that handles 19.99.
 */

export interface ObservedResponse {
  method: string;
  /** Path with or without its query string. */
  path: string;
  status: number;
  headers: Headers | Record<string, string | string[] | undefined>;
  /** Parsed JSON when the answer was JSON, the text otherwise. */
  body: unknown;
  text: string;
}

export interface Verdict {
  /** False when no documented operation matches the method and path (nothing was checked). */
  checked: boolean;
  operationId?: string;
  errors: string[];
}

interface Route {
  document: OpenApiDocument;
  docId: string;
  template: string;
  regex: RegExp;
  literalSegments: number;
  method: HttpMethod;
  operation: Operation;
}

function headerOf(headers: ObservedResponse["headers"], name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find(k => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(", ") : value;
}

function isReference(x: unknown): x is Reference {
  return typeof x === "object" && x !== null && "$ref" in x;
}

/** Header values are text: a documented integer or boolean is read as one before checking. */
function headerValue(raw: string, schema: JsonSchema): unknown {
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if ((types.includes("integer") || types.includes("number")) && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (types.includes("boolean") && (raw === "true" || raw === "false")) return raw === "true";
  return raw;
}

export class ResponseValidator {
  private readonly ajv: Ajv2020;
  private readonly routes: Route[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(documents: Record<string, OpenApiDocument>) {
    this.ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, multipleOfPrecision: 9 });
    addFormats(this.ajv);
    for (const [docId, document] of Object.entries(documents)) {
      // The document's components become one schema of $defs that every check refers to.
      this.ajv.addSchema(this.rewriteRefs({ $id: `urn:openapi:${docId}`, $defs: document.components.schemas ?? {} }, docId) as object);
      for (const [template, item] of Object.entries(document.paths)) {
        for (const method of ["get", "post", "put", "delete", "patch"] as HttpMethod[]) {
          const operation = item[method];
          if (!operation) continue;
          const segments = template.split("/");
          const pattern = segments.map(s => (/^\{[^}]+\}$/.test(s) ? "[^/]+" : s.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))).join("/");
          this.routes.push({
            document,
            docId,
            template,
            regex: new RegExp(`^${pattern}/?$`),
            literalSegments: segments.filter(s => !s.startsWith("{")).length,
            method,
            operation
          });
        }
      }
    }
    // Literal segments win over templates (/parcels/by-tracking/{n} before /parcels/{id}).
    this.routes.sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** References into one schema of $defs, and every object schema closed except the parts of a composition. */
  private rewriteRefs(value: unknown, docId: string, inComposition = false): unknown {
    if (Array.isArray(value)) return value.map(v => this.rewriteRefs(v, docId, inComposition));
    if (typeof value !== "object" || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === "examples" || k === "example") {
        out[k] = v;
      } else if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")) {
        out[k] = `urn:openapi:${docId}#/$defs/${v.slice("#/components/schemas/".length)}`;
      } else {
        out[k] = this.rewriteRefs(v, docId, k === "allOf" || k === "anyOf" || k === "oneOf");
      }
    }
    if (!inComposition && "properties" in out && !("additionalProperties" in out)) out.additionalProperties = false;
    const types = ([] as unknown[]).concat(out.type ?? []);
    if (types.includes("number") && /at most two decimals/i.test(String(out.description ?? ""))) out.multipleOf = 0.01;
    return out;
  }

  private validatorFor(key: string, docId: string, schema: JsonSchema): ValidateFunction {
    let fn = this.compiled.get(key);
    if (!fn) {
      fn = this.ajv.compile(this.rewriteRefs(schema, docId) as object);
      this.compiled.set(key, fn);
    }
    return fn;
  }

  private resolve<T>(document: OpenApiDocument, x: T | Reference): T {
    if (!isReference(x)) return x;
    const [, , kind, name] = x.$ref.split("/");
    return (document.components as Record<string, Record<string, unknown>>)[kind][name] as T;
  }

  /** Every schema of every document, compiled in strict mode: a malformed schema fails here. */
  compileAll(): void {
    for (const route of this.routes) {
      for (const [status, response] of Object.entries(route.operation.responses)) {
        const resolved = this.resolve<Response>(route.document, response);
        for (const [media, content] of Object.entries(resolved.content ?? {})) {
          this.validatorFor(`${route.docId} ${route.method} ${route.template} ${status} ${media}`, route.docId, content.schema);
        }
      }
    }
  }

  findRoute(method: string, path: string): Route | null {
    const bare = path.split("?")[0];
    const wanted = method.toLowerCase();
    return this.routes.find(r => r.method === wanted && r.regex.test(bare)) ?? null;
  }

  validate(res: ObservedResponse): Verdict {
    const route = this.findRoute(res.method, res.path);
    if (!route) return { checked: false, errors: [] };
    const { operation, document, docId } = route;
    const where = `${res.method.toUpperCase()} ${route.template} → ${res.status}`;
    const documented = operation.responses[String(res.status)];
    if (!documented) {
      return {
        checked: true,
        operationId: operation.operationId,
        errors: [
          `${where}: status ${res.status} is not documented for ${operation.operationId} (documented: ${Object.keys(operation.responses).join(", ")})`
        ]
      };
    }
    const response = this.resolve<Response>(document, documented);
    const errors: string[] = [];

    for (const [name, h] of Object.entries(response.headers ?? {})) {
      const header = this.resolve<Header>(document, h);
      const raw = headerOf(res.headers, name);
      if (raw === undefined) {
        if (header.required) errors.push(`${where}: required header ${name} is missing`);
        continue;
      }
      const check = this.validatorFor(`${docId} header ${JSON.stringify(header.schema)}`, docId, header.schema);
      if (!check(headerValue(raw, header.schema))) {
        errors.push(`${where}: header ${name}: ${JSON.stringify(raw)} ${this.ajv.errorsText(check.errors)}`);
      }
    }

    const contentType = (headerOf(res.headers, "content-type") ?? "").split(";")[0].trim().toLowerCase();
    const content = response.content ?? {};
    if (Object.keys(content).length === 0) {
      if (res.text.length > 0) errors.push(`${where}: no body is documented, got ${JSON.stringify(res.text.slice(0, 200))}`);
    } else if (!(contentType in content)) {
      errors.push(`${where}: content type ${JSON.stringify(contentType)} is not documented (${Object.keys(content).join(", ")})`);
    } else if (contentType === "application/json" || contentType.endsWith("+json")) {
      const schema = content[contentType].schema;
      const check = this.validatorFor(`${docId} ${route.method} ${route.template} ${res.status} ${contentType}`, docId, schema);
      if (!check(res.body)) {
        errors.push(
          `${where}: body does not match the documented schema: ${this.ajv.errorsText(check.errors, { separator: "; " })}\n` +
            `body: ${res.text.slice(0, 600)}`
        );
      }
      const listed = schema.allOf?.[1]?.properties?.code?.examples as string[] | undefined;
      const code = (res.body as { code?: unknown } | null)?.code;
      if (res.status >= 400 && listed && !listed.includes(code as string)) {
        errors.push(`${where}: error code ${JSON.stringify(code)} is not listed for ${operation.operationId} (${listed.join(", ")})`);
      }
    }
    return { checked: true, operationId: operation.operationId, errors };
  }

  /** Throws when the response is not what the document promises. */
  assert(res: ObservedResponse): Verdict {
    const verdict = this.validate(res);
    if (verdict.errors.length > 0) {
      throw new Error(`Response does not match the OpenAPI document:\n- ${verdict.errors.join("\n- ")}`);
    }
    return verdict;
  }

  /** A webhook request as received by a merchant: headers and body against the document's `webhooks` entry. */
  validateWebhook(docId: string, request: { headers: ObservedResponse["headers"]; body: unknown }): string[] {
    const route = this.routes.find(r => r.docId === docId);
    const document = route?.document;
    if (!document) return [`no document ${docId}`];
    const event = headerOf(request.headers, "x-relay-event") ?? "";
    const operation = document.webhooks?.[event]?.post;
    if (!operation) return [`webhook event ${JSON.stringify(event)} is not documented`];
    const errors: string[] = [];
    for (const p of operation.parameters ?? []) {
      const parameter = this.resolve<Parameter>(document, p);
      const raw = headerOf(request.headers, parameter.name);
      if (raw === undefined) {
        if (parameter.required) errors.push(`${event}: header ${parameter.name} is missing`);
        continue;
      }
      const check = this.validatorFor(`${docId} header ${JSON.stringify(parameter.schema)}`, docId, parameter.schema);
      if (!check(headerValue(raw, parameter.schema)))
        errors.push(`${event}: header ${parameter.name}: ${this.ajv.errorsText(check.errors)}`);
    }
    const schema = operation.requestBody!.content["application/json"].schema;
    const check = this.validatorFor(`${docId} webhook ${event}`, docId, schema);
    if (!check(request.body)) errors.push(`${event}: body: ${this.ajv.errorsText(check.errors, { separator: "; " })}`);
    return errors;
  }
}

let shared: ResponseValidator | null = null;

/** One validator per test file, over the documents exactly as the gateway builds them. */
export function apiResponseValidator(): ResponseValidator {
  shared ??= new ResponseValidator({
    partner: apiDocument("partner"),
    relay: apiDocument("relay"),
    backoffice: apiDocument("backoffice")
  });
  return shared;
}
