import { COINS_DZD, CountLine, Denominations, denominationsOf, NOTES_DZD, totalDzd } from "./denominations";
import { h, ltr } from "./dom";

/**
 * A count of cash by denomination as a person types it: a field per note and per coin, the total
 * kept up to date as they type (`onChange`). The app gives the words (its legends) and how it
 * writes an amount. Fields are named `${idPrefix}-note-2000`…, or `note-2000`… with no prefix
 * (the counter's till, whose ids its tests and agents' habits know). `typed()`: whether any field
 * was filled in, a zero too (the till tells a count of nothing from no count at all).
 */
export interface CashCountText {
  notes: string;
  coins: string;
  amount(value: number): string;
}

export function cashCountFields(
  idPrefix: string,
  text: CashCountText,
  onChange: (count: Denominations, total: number) => void
): { element: HTMLElement; count(): Denominations; typed(): boolean } {
  const lines: { line: Omit<CountLine, "count">; input: HTMLInputElement }[] = [];
  const count = () => denominationsOf(lines.map(({ line, input }) => ({ ...line, count: Number.parseInt(input.value, 10) })));
  const row = (face: number, kind: CountLine["kind"]) => {
    const id = idPrefix ? `${idPrefix}-${kind}-${face}` : `${kind}-${face}`;
    const input = h("input", {
      id,
      name: id,
      type: "number",
      inputmode: "numeric",
      min: 0,
      max: 9999,
      step: 1,
      dir: "ltr",
      oninput: () => {
        const now = count();
        onChange(now, totalDzd(now));
      }
    });
    lines.push({ line: { face, kind }, input });
    return h("div", { class: "denomination" }, h("label", { for: id }, ltr(text.amount(face))), input);
  };
  const element = h(
    "div",
    { class: "stack" },
    h(
      "fieldset",
      { class: "denominations" },
      h("legend", null, text.notes),
      NOTES_DZD.map(face => row(face, "note"))
    ),
    h(
      "fieldset",
      { class: "denominations" },
      h("legend", null, text.coins),
      COINS_DZD.map(face => row(face, "coin"))
    )
  );
  const typed = () => lines.some(({ input }) => input.value.trim() !== "");
  return { element, count, typed };
}
