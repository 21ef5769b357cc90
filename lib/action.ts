import type { ObjectSchema } from "joi";
import type { ActionSchema, Context } from "moleculer";
import type { ScopeRequirement } from "./api-keys";

/** Fields our actions add to Moleculer's: read by the validation middleware and the gateway. */
export interface ActionExtras {
  /** Joi schema of `ctx.params`; the handler's params type comes from the same declaration. */
  schema?: ObjectSchema<unknown>;
  /** Scope the calling API key must carry; "any" when every valid key may call it. */
  scope?: ScopeRequirement;
}

type TypedAction<P, TThis, M extends object> = Omit<ActionSchema<TThis>, "handler"> & {
  schema?: ObjectSchema<P>;
  scope?: ScopeRequirement;
  handler(this: TThis, ctx: Context<P, M>): unknown;
};

/**
 * Declares an action whose `ctx.params` type is the one its Joi schema validates.
 * Moleculer copies action definitions into the INFO packet every node broadcasts; the Joi
 * object would add kilobytes of internals there, so it serialises to a short marker instead.
 */
export function defineAction<P = unknown, TThis = unknown, M extends object = Record<string, unknown>>(
  definition: TypedAction<P, TThis, M>
): ActionSchema<TThis> {
  if (definition.schema && !Object.prototype.hasOwnProperty.call(definition.schema, "toJSON")) {
    Object.defineProperty(definition.schema, "toJSON", { value: () => "joi", enumerable: false });
  }
  return definition as unknown as ActionSchema<TThis>;
}

export function extrasOf(action: ActionSchema | { name?: string }): ActionExtras {
  return action as ActionExtras;
}
