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
 * The broker's retry for an action whose repeat changes nothing (issue 46, decision 0055): a call
 * lost with a NATS node that died (RequestTimeoutError), or sent while the only instance was
 * between nodes (ServiceNotAvailableError), is sent again, twice at most, 200 then 400 ms later.
 * Only errors Moleculer marks retryable; our own AppErrors (a refusal, a database 503) never are.
 * Every other call stays the flows' own to retry (the saga, the outbox relay, the client's
 * Idempotency-Key): the broker retries nothing blindly.
 */
export const IDEMPOTENT_RETRY: NonNullable<ActionSchema["retryPolicy"]> = {
  enabled: true,
  retries: 2,
  delay: 200,
  maxDelay: 1_000,
  factor: 2
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
  // An HTTP GET repeats nothing (RFC 9110 §9.2.2): its action is retried like any idempotent one, unless it says otherwise.
  const retry = typeof definition.rest === "string" && definition.rest.startsWith("GET ") && !definition.retryPolicy;
  return {
    ...rest,
    ...(retry ? { retryPolicy: IDEMPOTENT_RETRY } : {}),
    ...(compiled ? { endpoint: compiled } : {})
  } as unknown as ActionSchema<TThis>;
}
