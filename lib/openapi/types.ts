/**
 * The parts of OpenAPI 3.1 (and of its JSON Schema 2020-12 dialect) that our documents use.
 * Loose on purpose where the specification is open-ended; strict enough to catch typos.
 */

export type JsonType = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null";

export interface JsonSchema {
  $ref?: string;
  title?: string;
  description?: string;
  type?: JsonType | JsonType[];
  format?: string;
  enum?: readonly unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  // strings
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  // numbers
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  // objects
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  // arrays
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  // composition
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  readOnly?: boolean;
  writeOnly?: boolean;
  deprecated?: boolean;
  /** Our marker: the gateway hoists this schema into components.schemas under this name (lib/openapi/json-schema). */
  "x-component"?: string;
}

export interface Example {
  summary?: string;
  description?: string;
  value: unknown;
}

export interface MediaType {
  schema: JsonSchema;
  examples?: Record<string, Example>;
}

export interface Header {
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Reference {
  $ref: string;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  description?: string;
  required?: boolean;
  schema: JsonSchema;
  example?: unknown;
}

export interface RequestBody {
  description?: string;
  required?: boolean;
  content: Record<string, MediaType>;
}

export interface Response {
  description: string;
  headers?: Record<string, Header | Reference>;
  content?: Record<string, MediaType>;
}

export type SecurityRequirement = Record<string, string[]>;

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  parameters?: (Parameter | Reference)[];
  requestBody?: RequestBody;
  responses: Record<string, Response | Reference>;
  security?: SecurityRequirement[];
  /** The Moleculer action behind the route; lets tests tie the document to the gateway's aliases. */
  "x-action"?: string;
}

export type HttpMethod = "get" | "post" | "put" | "delete" | "patch";
export type PathItem = Partial<Record<HttpMethod, Operation>> & { summary?: string; description?: string };

export interface SecurityScheme {
  type: "apiKey" | "http";
  description?: string;
  name?: string;
  in?: "header" | "query" | "cookie";
  scheme?: string;
  bearerFormat?: string;
}

export interface Tag {
  name: string;
  description?: string;
}

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description?: string; contact?: Record<string, string>; license?: Record<string, string> };
  servers?: { url: string; description?: string }[];
  tags?: Tag[];
  security?: SecurityRequirement[];
  paths: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  components: {
    schemas?: Record<string, JsonSchema>;
    responses?: Record<string, Response>;
    parameters?: Record<string, Parameter>;
    headers?: Record<string, Header>;
    securitySchemes?: Record<string, SecurityScheme>;
  };
}
