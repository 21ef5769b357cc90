import BaseJoi, { type CustomHelpers, type Root, type Schema } from "joi";

/**
 * Joi as every schema of the project uses it. One change to the stock library: string `min`,
 * `max` and `length` count characters as users see them (Unicode code points), not UTF-16 code
 * units, so a name of 100 emoji is 100 characters long, as it is for JSON Schema's `maxLength`
 * and for the merchant who typed it. `describe()` is unchanged (rule names `min`/`max`/`length`),
 * so the OpenAPI converter reads these bounds as before.
 */

const COMPARE = {
  ">=": (count: number, limit: number) => count >= limit,
  "<=": (count: number, limit: number) => count <= limit,
  "=": (count: number, limit: number) => count === limit
} as const;
type Operator = keyof typeof COMPARE;

export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Joi's own rule-adding hook, with the two fields its typings leave out (used by its own min/max). */
interface RuleAdder {
  $_addRule(rule: { name: string; method: string; args: { limit: number }; operator: Operator }): Schema;
}

interface LengthRule {
  name: "min" | "max" | "length";
  operator: Operator;
  args: { limit: number };
}

export const Joi: Root = BaseJoi.extend({
  type: "string",
  base: BaseJoi.string(),
  rules: {
    codePoints: {
      method: false,
      args: [
        {
          name: "limit",
          ref: true,
          assert: (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0,
          message: "must be a non-negative integer"
        }
      ],
      validate(value: string, helpers: CustomHelpers, args: { limit: number }, rule: LengthRule) {
        return COMPARE[rule.operator](codePointLength(value), args.limit)
          ? value
          : helpers.error(`string.${rule.name}`, { limit: rule.args.limit, value });
      }
    }
  },
  overrides: {
    min(this: RuleAdder, limit: number) {
      return this.$_addRule({ name: "min", method: "codePoints", args: { limit }, operator: ">=" });
    },
    max(this: RuleAdder, limit: number) {
      return this.$_addRule({ name: "max", method: "codePoints", args: { limit }, operator: "<=" });
    },
    length(this: RuleAdder, limit: number) {
      return this.$_addRule({ name: "length", method: "codePoints", args: { limit }, operator: "=" });
    }
  }
});

export type { ObjectSchema, Schema, ValidationErrorItem } from "joi";
