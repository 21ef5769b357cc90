import type { JsonSchema, Response } from "../../../lib/openapi/types";

/**
 * Schemas marked with `x-component` (lib/openapi/json-schema `component()`) move to
 * components.schemas under their name and are referred to by `$ref` everywhere they appeared.
 * Declarations come from many services over the registry: two different schemas under one name
 * are an error, not a silent choice of one of them.
 */
export class ComponentHoister {
  readonly schemas = new Map<string, JsonSchema>();

  /** A copy of `value` with every marked schema replaced by a reference. */
  hoist<T>(value: T): T {
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(item => this.walk(item));
    if (value === null || typeof value !== "object") return value;
    const record = value as Record<string, unknown>;
    const name = record["x-component"];
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(record)) {
      // Examples are data, not schemas: never rewritten.
      if (key === "x-component") continue;
      copy[key] = key === "examples" || key === "example" ? child : this.walk(child);
    }
    if (typeof name !== "string") return copy;
    const known = this.schemas.get(name);
    if (known && JSON.stringify(known) !== JSON.stringify(copy)) {
      throw new Error(`OpenAPI: two different schemas are named ${name}`);
    }
    this.schemas.set(name, copy);
    return { $ref: `#/components/schemas/${name}` };
  }

  sortedSchemas(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.schemas].sort(([a], [b]) => a.localeCompare(b)));
  }
}

const pascal = (code: string) => code.toLowerCase().replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());

/**
 * Error responses that several operations give identically (401, 429, 503, a plain 400...) move
 * to components.responses, named after their codes, and the operations refer to them.
 */
export function shareResponses(operations: Array<{ responses: Record<string, Response | { $ref: string }> }>): Record<string, Response> {
  const uses = new Map<string, { response: Response; count: number }>();
  for (const operation of operations) {
    for (const response of Object.values(operation.responses)) {
      if ("$ref" in response) continue;
      const key = JSON.stringify(response);
      const entry = uses.get(key) ?? { response, count: 0 };
      entry.count++;
      uses.set(key, entry);
    }
  }
  const shared: Record<string, Response> = {};
  const names = new Map<string, string>();
  for (const [key, { response, count }] of uses) {
    const codes = response.content?.["application/json"]?.schema.allOf?.[1]?.properties?.code?.examples as string[] | undefined;
    if (count < 2 || !codes) continue;
    const name = codes.map(pascal).join("Or");
    // The same codes answered with other headers (the labels API's per-address limit) stay inline
    // rather than take a name that already means something else.
    if (shared[name]) continue;
    shared[name] = response;
    names.set(key, name);
  }
  for (const operation of operations) {
    for (const [status, response] of Object.entries(operation.responses)) {
      const name = names.get(JSON.stringify(response));
      if (name) operation.responses[status] = { $ref: `#/components/responses/${name}` };
    }
  }
  return Object.fromEntries(Object.entries(shared).sort(([a], [b]) => a.localeCompare(b)));
}
