import type { FieldProblem } from "./errors";
import type { Schema, ValidationErrorItem } from "./joi";
import { uuidParamsCheck, UuidParamsCheck } from "./uuid-params";

/** How every request is validated: all problems at once, no type coercion, field names without quotes. */
const OPTIONS = { abortEarly: false, convert: false, errors: { wrap: { label: false } } } as const;

/**
 * Each schema with OPTIONS as its own preferences, made once. Options passed to `validate()` are
 * merged with Joi's defaults on every call (a deep clone: 14 % of a GET by id's own CPU), while a
 * schema's preferences are merged once and cached by Joi; the result is the same validation.
 */
const prepared = new WeakMap<Schema, { joi: Schema; uuids: UuidParamsCheck | null }>();

function preparedOf<T>(schema: Schema<T>): { joi: Schema<T>; uuids: UuidParamsCheck | null } {
  let ready = prepared.get(schema);
  if (!ready) {
    ready = { joi: schema.prefs(OPTIONS), uuids: uuidParamsCheck(schema) };
    prepared.set(schema, ready);
  }
  return ready as { joi: Schema<T>; uuids: UuidParamsCheck | null };
}

function toFieldProblem(item: ValidationErrorItem, whole: string): FieldProblem {
  return {
    field: item.path.length > 0 ? item.path.join(".") : String(item.context?.key ?? whole),
    message: item.message.replace(/"/g, "")
  };
}

/**
 * Validates `value` against a Joi schema as the validation middleware does for every action: the
 * validated value (defaults applied), or every problem field by field. `whole` names the value
 * itself when the problem is with it rather than a field (the request body, one batch item).
 */
export function validateWith<T>(schema: Schema<T>, value: unknown, whole = "body"): { value: T } | { problems: FieldProblem[] } {
  const { joi, uuids } = preparedOf(schema);
  // The params of a call by id, when they are what Joi would accept as is (lib/uuid-params.ts).
  const ids = uuids?.(value);
  if (ids) return { value: ids as T };
  const { error, value: validated } = joi.validate(value);
  if (error) return { problems: error.details.map(item => toFieldProblem(item, whole)) };
  return { value: validated as T };
}
