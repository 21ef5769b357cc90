import { Joi } from "../../../lib/joi";
import type { JsonSchema } from "../../../lib/openapi/types";

/**
 * Dinar notes and coins in circulation, by face value in DZD. A count is a map from face value to
 * how many: `{ "2000": 3, "500": 1 }` is 6 500 DZD. What a count sums to is computed, never typed.
 */
export const DENOMINATIONS_DZD = [2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1] as const;

export type Denominations = Record<string, number>;

/** Each face value a key of its own (the OpenAPI document lists them); none given is a count of nothing. */
export const denominationsSchema = () =>
  Joi.object(Object.fromEntries(DENOMINATIONS_DZD.map(face => [String(face), Joi.number().integer().min(0).max(1_000_000)])))
    .description(`How many of each note or coin, by face value in DZD (${DENOMINATIONS_DZD.join(", ")}), e.g. {"2000": 3, "500": 1}.`)
    .example({ "2000": 3, "500": 1 });

export function centimesOf(count: Denominations): number {
  return Object.entries(count).reduce((sum, [face, n]) => sum + Number(face) * 100 * n, 0);
}

/** A count in an answer: the OpenAPI shape of a Denominations map. */
export const denominationsView = (description: string): JsonSchema => ({
  type: "object",
  description: `${description} By face value in DZD (${DENOMINATIONS_DZD.join(", ")}): how many.`,
  additionalProperties: { type: "integer", minimum: 0 }
});

/** The counts added up face by face; null when any is missing (a total alone says nothing of its notes). */
export function sumOfCounts(counts: readonly (Denominations | null)[]): Denominations | null {
  if (counts.length === 0 || counts.some(c => c === null)) return null;
  const sum: Denominations = {};
  for (const count of counts as Denominations[]) {
    for (const [face, n] of Object.entries(count)) if (n > 0) sum[face] = (sum[face] ?? 0) + n;
  }
  return sum;
}
