/**
 * Counting cash by denomination (Algerian dinars): the notes and coins a person counts, and what a
 * count sums to. A count is sent as the API takes it: face value in DZD → how many; the 200 DZD
 * note and the 200 DZD coin are one face value there, so their numbers add up.
 */
export const NOTES_DZD = [2000, 1000, 500, 200] as const;
export const COINS_DZD = [200, 100, 50, 20, 10, 5] as const;

export type Denominations = Record<string, number>;

/** One line of a count as typed: a note or a coin of a face value, and how many (not a number: none). */
export interface CountLine {
  face: number;
  kind: "note" | "coin";
  count: number;
}

/** The count as the API takes it: face value → how many, the lines of one face value added, empty lines left out. */
export function denominationsOf(lines: CountLine[]): Denominations {
  const count: Denominations = {};
  for (const line of lines) {
    const n = Number.isFinite(line.count) && line.count > 0 ? Math.floor(line.count) : 0;
    if (n > 0) count[String(line.face)] = (count[String(line.face)] ?? 0) + n;
  }
  return count;
}

/** What a count sums to, in DZD. */
export function totalDzd(count: Denominations): number {
  return Object.entries(count).reduce((sum, [face, n]) => sum + Number(face) * n, 0);
}
