import type { Context, Middleware } from "moleculer";
import { AppError } from "../lib/errors";
import { unsafeTextProblems } from "../lib/text-safety";
import { validateWith } from "../lib/validation";

/**
 * Checks `ctx.params` of every action that declares a Joi `schema`: first the one rule every
 * string obeys whatever its field (lib/text-safety: no control characters, no unpaired
 * surrogates, no prototype keys), then the schema. The handler gets the validated value
 * (defaults applied). Every problem is reported at once, field by field.
 */
export const ValidationMiddleware: Middleware = {
  name: "JoiValidation",
  localAction(next, action) {
    const schema = action.schema;
    if (!schema) return next;
    // async, so that a refusal is a rejected promise like any other failure of a call.
    return async function validated(this: ThisParameterType<typeof next>, ctx: Context<unknown>) {
      const params = ctx.params ?? {};
      const unsafe = unsafeTextProblems(params);
      if (unsafe.length > 0) throw new AppError("VALIDATION_FAILED", "The request is not valid", { details: unsafe });
      const checked = validateWith(schema, params);
      if ("problems" in checked) throw new AppError("VALIDATION_FAILED", "The request is not valid", { details: checked.problems });
      ctx.params = checked.value;
      return next.call(this, ctx);
    };
  }
};
