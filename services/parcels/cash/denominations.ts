import { Joi } from "../../../lib/joi";

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
