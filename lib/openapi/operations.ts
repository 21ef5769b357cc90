import type { ErrorCode } from "../errors";
import { actionContract } from "./action-schemas";
import { ERROR_DESCRIPTIONS, errorResponse, HeaderSet, responseHeaders } from "./components";
import { requestParts, RequestLayout } from "./requests";
import type { Example, Header, HttpMethod, JsonSchema, Operation, Parameter, PathItem, Response, SecurityRequirement } from "./types";
import { schemaRef } from "./types";

/**
 * One documented HTTP operation: the gateway alias it stands for (method, path, action), where
 * each key of the action's Joi schema comes from, and every answer it can give.
 */
export interface OperationSpec {
  method: HttpMethod;
  /** Full path in OpenAPI template form, e.g. /api/partner/v1/parcels/{id}. */
  path: string;
  action: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** No credential (pre-signed label URLs): no security requirement, no rate-limit headers. */
  public?: boolean;
  layout: RequestLayout;
  /** Parameters the Joi schema does not cover (headers read by the gateway, or actions without a schema). */
  extraParameters?: Parameter[];
  body?: { component: string; required: boolean; description: string; examples?: Record<string, Example> };
  success: {
    status: number;
    description: string;
    /** JSON body schema; absent for an empty answer (204). */
    schema?: JsonSchema;
    mediaType?: string;
    location?: boolean;
    headers?: Record<string, Header>;
    examples?: Record<string, Example>;
  };
  errors: Partial<Record<number, ErrorCode[]>>;
}

export interface DocumentStyle {
  /** Security requirements of an operation, given the scope its action demands. */
  security(scope: string | undefined): SecurityRequirement[];
  /** Rate-limit headers on success and on errors (none for unauthenticated or unlimited APIs). */
  rate: { success: HeaderSet["rate"]; errors: HeaderSet["rate"] };
}

export function buildOperation(spec: OperationSpec, style: DocumentStyle): { operation: Operation; bodySchema: JsonSchema | null } {
  const contract = spec.action.startsWith("gateway.") ? { schema: undefined, scope: undefined } : actionContract(spec.action);
  const { parameters, body } = requestParts(contract.schema, spec.layout);
  if (spec.body && !body) throw new Error(`OpenAPI: ${spec.operationId} documents a body its layout does not have`);
  if (body && !spec.body) throw new Error(`OpenAPI: ${spec.operationId} has body fields but no body documentation`);

  const rate = spec.public ? { success: undefined, errors: undefined } : style.rate;
  const responses: Record<string, Response> = {};
  const success = spec.success;
  responses[String(success.status)] = {
    description: success.description,
    headers: responseHeaders({ rate: rate.success, location: success.location, extra: success.headers }),
    ...(success.schema
      ? {
          content: {
            [success.mediaType ?? "application/json"]: {
              schema: success.schema,
              ...(success.examples ? { examples: success.examples } : {})
            }
          }
        }
      : {})
  };
  for (const [status, codes] of Object.entries(spec.errors)) {
    const description = ERROR_DESCRIPTIONS[Number(status)] ?? "Error";
    responses[status] = errorResponse(Number(status), codes!, description, rate.errors);
  }

  const operation: Operation = {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag],
    parameters: [...parameters, ...(spec.extraParameters ?? [])],
    ...(spec.body && body
      ? {
          requestBody: {
            description: spec.body.description,
            required: spec.body.required,
            content: {
              "application/json": { schema: schemaRef(spec.body.component), ...(spec.body.examples ? { examples: spec.body.examples } : {}) }
            }
          }
        }
      : {}),
    responses,
    security: spec.public ? [] : style.security(contract.scope),
    "x-action": spec.action
  };
  if (operation.parameters!.length === 0) delete operation.parameters;
  return { operation, bodySchema: body };
}

const pascal = (code: string) => code.toLowerCase().replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());

/**
 * Error responses that several operations give identically (401, 429, 503, plain 400...) move to
 * components.responses under the name of their codes, and the operations refer to them.
 */
function shareResponses(operations: Operation[]): Record<string, Response> {
  const uses = new Map<string, { response: Response; count: number }>();
  for (const operation of operations) {
    for (const response of Object.values(operation.responses) as Response[]) {
      const key = JSON.stringify(response);
      const entry = uses.get(key) ?? { response, count: 0 };
      entry.count++;
      uses.set(key, entry);
    }
  }
  const shared: Record<string, Response> = {};
  const names = new Map<string, string>();
  for (const [key, { response, count }] of uses) {
    const codes = response.content?.["application/json"]?.schema.allOf?.[1]?.properties?.code?.enum as string[] | undefined;
    if (count < 2 || !codes) continue;
    const name = codes.map(pascal).join("Or");
    if (shared[name]) throw new Error(`OpenAPI: two different shared responses named ${name}`);
    shared[name] = response;
    names.set(key, name);
  }
  for (const operation of operations) {
    for (const [status, response] of Object.entries(operation.responses)) {
      const name = names.get(JSON.stringify(response));
      if (name) operation.responses[status] = { $ref: `#/components/responses/${name}` };
    }
  }
  return shared;
}

export function buildPaths(
  specs: OperationSpec[],
  style: DocumentStyle
): { paths: Record<string, PathItem>; bodySchemas: Record<string, JsonSchema>; responses: Record<string, Response> } {
  const paths: Record<string, PathItem> = {};
  const bodySchemas: Record<string, JsonSchema> = {};
  const operations: Operation[] = [];
  for (const spec of specs) {
    const { operation, bodySchema } = buildOperation(spec, style);
    operations.push(operation);
    const item = (paths[spec.path] ??= {});
    if (item[spec.method]) throw new Error(`OpenAPI: ${spec.method.toUpperCase()} ${spec.path} documented twice`);
    item[spec.method] = operation;
    if (spec.body && bodySchema) {
      bodySchemas[spec.body.component] = { ...bodySchema, description: spec.body.description };
    }
  }
  return { paths, bodySchemas, responses: shareResponses(operations) };
}

/** /api/partner/v1/parcels/{id} → /api/partner/v1/parcels/:id (the gateway's alias form). */
export function toAliasPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ":$1");
}
