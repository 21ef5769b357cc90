import type { Context, Middleware } from "moleculer";
import { AppError, FieldProblem } from "../lib/errors";
import type { Schema } from "../lib/joi";
import { NoParamsSchema } from "../lib/schemas";
import { unsafeTextProblems } from "../lib/text-safety";
import { validateWith } from "../lib/validation";

function refuse(details: FieldProblem[]): never {
  throw new AppError("VALIDATION_FAILED", "The request is not valid", { details });
}

/** The text-safety rule, then the schema: the validated value (defaults applied), or a 400 naming every problem. */
function checked(schema: Schema, params: unknown): unknown {
  const unsafe = unsafeTextProblems(params);
  if (unsafe.length > 0) refuse(unsafe);
  const result = validateWith(schema, params);
  if ("problems" in result) refuse(result.problems);
  return result.value;
}

/** `{}` (or no params at all): what a GET without query sends to an action without params. */
function isEmptyObject(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/**
 * Checks `ctx.params` of every action that declares a Joi `schema`: first the one rule every
 * string obeys whatever its field (lib/text-safety: no control characters, no unpaired
 * surrogates, no prototype keys), then the schema. The handler gets the validated value
 * (defaults applied). Every problem is reported at once, field by field. An action without
 * params (`NoParamsSchema`, any object) called with none has nothing to check: no Joi pass.
 */
export const ValidationMiddleware: Middleware = {
  name: "JoiValidation",
  localAction(next, action) {
    const schema = action.schema as Schema | undefined;
    if (!schema) return next;
    const noParams = schema === NoParamsSchema;
    // async, so that a refusal is a rejected promise like any other failure of a call.
    return async function validated(this: ThisParameterType<typeof next>, ctx: Context<unknown>) {
      const params = ctx.params ?? {};
      if (!(noParams && isEmptyObject(params))) ctx.params = checked(schema, params);
      return next.call(this, ctx);
    };
  }
};
