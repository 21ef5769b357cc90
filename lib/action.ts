import type { ObjectSchema } from "joi";
import type { ActionSchema, Context } from "moleculer";
import { compileEndpoint, EndpointDocs } from "./endpoint";

type TypedAction<P, TThis, M extends object> = Omit<ActionSchema<TThis>, "handler" | "schema" | "endpoint"> & {
  schema?: ObjectSchema<P>;
  /** With `rest` and `api`: the endpoint this action answers (see lib/endpoint.ts). */
  endpoint?: EndpointDocs;
  handler(this: TThis, ctx: Context<P, M>): unknown;
};

/**
 * Declares an action whose `ctx.params` type is the one its Joi schema validates, and, when it
 * answers an HTTP endpoint, compiles the endpoint's request into JSON Schema here, in the
 * service's own process, so that the registry carries plain data. The Joi object itself would
 * add kilobytes of internals to the INFO packet every node broadcasts: it serialises to "joi".
 */
export function defineAction<P = unknown, TThis = unknown, M extends object = Record<string, unknown>>(
  definition: TypedAction<P, TThis, M>
): ActionSchema<TThis> {
  const { endpoint, ...rest } = definition;
  if (definition.schema && !Object.prototype.hasOwnProperty.call(definition.schema, "toJSON")) {
    Object.defineProperty(definition.schema, "toJSON", { value: () => "joi", enumerable: false });
  }
  if (endpoint && (typeof definition.rest !== "string" || !definition.api)) {
    throw new Error(`endpoint ${endpoint.operationId} needs rest ("METHOD /path") and api`);
  }
  const compiled = endpoint
    ? compileEndpoint(definition.rest as string, definition.schema as ObjectSchema<unknown> | undefined, endpoint)
    : undefined;
  return { ...rest, ...(compiled ? { endpoint: compiled } : {}) } as unknown as ActionSchema<TThis>;
}
