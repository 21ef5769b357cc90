import { call, Till } from "../api";
import { cashCountFields } from "../../shared/cash-count";
import { h, notice } from "../../shared/dom";
import { amount, t } from "../i18n";
import { errorNotice, screen, slot } from "./common";

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
  const counted = h("output", { id: "till-counted" }, t("dzd", { n: 0 }));
  const difference = h("output", { id: "till-difference" }, t("dzd", { n: amount(-till.amountDzd) }));
  // The fields of web/shared/cash-count.ts with no prefix: note-2000…, coin-5 as before.
  const fields = cashCountFields("", { notes: t("notes"), coins: t("coins"), amount }, (_count, total) => {
    counted.textContent = t("dzd", { n: amount(total) });
    difference.textContent = t("dzd", { n: amount(total - till.amountDzd) });
  });
  // The count by face value (the 200 note and the 200 coin are one face); none typed: a total of
  // nothing, which says nothing of notes and coins.
  const body = () => (fields.typed() ? { denominations: fields.count() } : { countedDzd: 0 });
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
    fields.element,
    h("button", { type: "submit", class: "primary wide", id: "till-close" }, t("closeTill"))
  );
  return form;
}
