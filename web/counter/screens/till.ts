import { call, Till } from "../api";
import { h, ltr, notice } from "../../shared/dom";
import { amount, t } from "../i18n";
import { errorNotice, screen, slot } from "./common";

/** DZD in circulation: notes, then coins. */
const NOTES = [2000, 1000, 500, 200];
const COINS = [200, 100, 50, 20, 10, 5];

interface Closing {
  expectedDzd: number;
  countedDzd: number;
  differenceDzd: number;
}

/** The till: what the hand-overs brought since the last closing, counted by denomination, then closed. */
export function tillScreen(): HTMLElement {
  const content = slot();
  const result = slot();
  void call<Till>("GET", "/cash")
    .then(till => content.replaceChildren(countForm(till, result)))
    .catch(err => content.replaceChildren(errorNotice(err)));
  return screen("till", content, result);
}

function countForm(till: Till, result: HTMLElement): HTMLElement {
  const inputs: [number, HTMLInputElement][] = [];
  const counted = h("output", { id: "till-counted" }, t("dzd", { n: 0 }));
  const difference = h("output", { id: "till-difference" }, t("dzd", { n: amount(-till.amountDzd) }));
  const total = () => inputs.reduce((sum, [value, input]) => sum + value * (Number.parseInt(input.value, 10) || 0), 0);
  // The count by face value, the courier's shape (the 200 note and the 200 coin are one face); none
  // typed: a total of nothing, which says nothing of notes and coins.
  const body = () => {
    const typed = inputs.filter(([, input]) => input.value.trim() !== "");
    if (typed.length === 0) return { countedDzd: 0 };
    const denominations: Record<string, number> = {};
    for (const [value, input] of typed) denominations[value] = (denominations[value] ?? 0) + (Number.parseInt(input.value, 10) || 0);
    return { denominations };
  };
  const update = () => {
    counted.textContent = t("dzd", { n: amount(total()) });
    difference.textContent = t("dzd", { n: amount(total() - till.amountDzd) });
  };
  const row = (value: number, kind: "note" | "coin") => {
    const id = `${kind}-${value}`;
    const input = h("input", {
      id,
      name: id,
      type: "number",
      inputmode: "numeric",
      min: 0,
      max: 9999,
      step: 1,
      dir: "ltr",
      oninput: update
    });
    inputs.push([value, input]);
    return h("div", { class: "denomination" }, h("label", { for: id }, ltr(amount(value))), input);
  };
  let key = crypto.randomUUID();
  let sent = "";
  const form = h(
    "form",
    {
      class: "stack",
      onsubmit: async (event: Event) => {
        event.preventDefault();
        const count = body();
        if (JSON.stringify(count) !== sent) key = crypto.randomUUID();
        sent = JSON.stringify(count);
        try {
          const closing = await call<Closing>("POST", "/cash/closings", count, { idempotencyKey: key });
          form.replaceWith(
            notice(
              closing.differenceDzd === 0 ? "ok" : "info",
              t("closed", {
                expected: amount(closing.expectedDzd),
                counted: amount(closing.countedDzd),
                difference: amount(closing.differenceDzd)
              })
            )
          );
          result.replaceChildren();
        } catch (err) {
          result.replaceChildren(errorNotice(err));
        }
      }
    },
    h(
      "dl",
      { class: "till-summary" },
      h("dt", null, t("tillExpected")),
      h("dd", { id: "till-expected" }, t("dzd", { n: amount(till.amountDzd) })),
      h("dt", null, t("tillCounted")),
      h("dd", null, counted),
      h("dt", null, t("tillDifference")),
      h("dd", null, difference)
    ),
    h("p", { class: "muted" }, t("handoversToday", { n: till.count })),
    h(
      "fieldset",
      { class: "denominations" },
      h("legend", null, t("notes")),
      NOTES.map(v => row(v, "note"))
    ),
    h(
      "fieldset",
      { class: "denominations" },
      h("legend", null, t("coins")),
      COINS.map(v => row(v, "coin"))
    ),
    h("button", { type: "submit", class: "primary wide", id: "till-close" }, t("closeTill"))
  );
  return form;
}
