import { ApiError, NetworkError } from "../../shared/api-errors";
import { cashCountFields } from "../../shared/cash-count";
import { Denominations, totalDzd } from "../../shared/denominations";
import { h, ltr, notice } from "../../shared/dom";
import { pairAgainButton } from "../../shared/pair-screen";
import type { Outcome } from "../../shared/outbox";
import { forgetPairing } from "../device";
import { amount, errorText, t } from "../i18n";
import type { MessageKey } from "../i18n/fr";
import { countDifference } from "../progress";
import { go } from "../router";

/** A screen's frame: its title, a way back to the run, and its content. */
export function screen(title: string, where: string | Node, ...content: (Node | null)[]): HTMLElement {
  return h(
    "section",
    { class: "screen", "aria-labelledby": "screen-title" },
    h(
      "div",
      { class: "screen-head" },
      h("button", { type: "button", class: "back", onclick: () => go({ screen: "run" }) }, t("back")),
      h("h1", { id: "screen-title", tabindex: "-1", dir: "auto" }, title)
    ),
    // Codes and addresses on a line of their own: a long relay code does not break the title.
    h("p", { class: "stop-where", dir: "auto" }, where),
    ...content
  );
}

/** The one line that explains an error, and what to do. */
export function errorNotice(err: unknown, about?: string): HTMLElement {
  const subject = about ? [ltr(about), " — "] : [];
  if (err instanceof ApiError) {
    const again =
      err.code === "UNAUTHENTICATED"
        ? pairAgainButton(t("pairAgain"), () => {
            forgetPairing();
            go({ screen: "pair" });
          })
        : null;
    return notice("error", ...subject, errorText(err.code), h("small", { class: "code" }, ` (${err.code})`), again);
  }
  return notice("error", ...subject, errorText(err instanceof NetworkError ? "NETWORK" : "UNKNOWN"));
}

/** A count with its label, in a row of tiles (the run's progress, the hub stop's counts). */
export function tile(id: string, label: string, value: Node | string): HTMLElement {
  return h("div", { class: "tile", id }, h("span", { class: "tile-label" }, label), h("span", { class: "tile-value" }, value));
}

/** A slot on the screen whose content is replaced as the stop goes. */
export function slot(): HTMLDivElement {
  return h("div", { class: "slot", "aria-live": "polite" });
}

/** What the outbox said about an operation, in one line: done (`ok`), waiting for the network, or refused. */
export function outcomeNotice(outcome: Outcome, ok: string, about?: string): HTMLElement {
  if (outcome.outcome === "queued") return notice("info", about ? [ltr(about), " — "] : null, t("queued"));
  if (outcome.outcome === "refused") return errorNotice(outcome.error, about);
  return notice("ok", about ? [ltr(about), " — "] : null, ok);
}

/** A title and a list of tracking numbers (marked when done). */
export function numberList(id: string, titleKey: MessageKey, numbers: string[], isDone: (n: string) => boolean = () => false): HTMLElement {
  return h(
    "div",
    null,
    h("h2", null, t(titleKey), " ", h("span", { class: "badge" }, ltr(numbers.length))),
    numbers.length
      ? h(
          "ul",
          { class: "list", id },
          numbers.map(n =>
            h(
              "li",
              { class: "parcel" },
              h("span", { class: "parcel-main" }, ltr(n)),
              isDone(n) ? h("span", { class: "done" }, t("done")) : null
            )
          )
        )
      : h("p", { class: "muted" }, t("nothingHere"))
  );
}

/**
 * A count of cash by denomination (web/shared/cash-count.ts) with its total and, when the
 * amount expected is known, the difference; `send` gets the count when the courier submits it.
 */
export function cashForm(
  id: string,
  expectedDzd: number | null,
  /** What the expected amount is: the till's closed cash, the cash aboard. */
  expectedKey: MessageKey,
  submitKey: MessageKey,
  send: (count: Denominations, total: number) => Promise<void>
): HTMLElement {
  const counted = h("output", { id: `${id}-counted` }, t("dzd", { n: 0 }));
  const difference = h("output", { id: `${id}-difference` }, expectedDzd === null ? "—" : differenceWords(-expectedDzd));
  const fields = cashCountFields(id, { notes: t("notes"), coins: t("coins"), amount }, (_count, total) => {
    counted.textContent = t("dzd", { n: amount(total) });
    const differs = countDifference(total, expectedDzd);
    if (differs !== null) difference.textContent = differenceWords(differs);
  });
  const button = h("button", { type: "submit", class: "primary wide", id: `${id}-send` }, t(submitKey));
  const form = h(
    "form",
    {
      class: "stack",
      onsubmit: async (event: Event) => {
        event.preventDefault();
        const count = fields.count();
        button.disabled = true;
        await send(count, totalDzd(count));
        button.disabled = false;
      }
    },
    h(
      "dl",
      { class: "till-summary" },
      expectedDzd === null
        ? null
        : [h("dt", null, t(expectedKey)), h("dd", { id: `${id}-expected` }, t("dzd", { n: amount(expectedDzd) }))],
      h("dt", null, t("counted")),
      h("dd", null, counted),
      expectedDzd === null ? null : [h("dt", null, t("difference")), h("dd", null, difference)]
    ),
    fields.element,
    button
  );
  return form;
}

/**
 * A difference said in words, not with a sign: "il manque 300 DA" reads the same in both
 * directions, where Arabic's bidi turned "-300" into "300-" (the counter app says it the same way).
 */
export function differenceWords(differs: number): string {
  if (differs === 0) return t("dzd", { n: amount(0) });
  return t(differs < 0 ? "missingDzd" : "extraDzd", { n: amount(Math.abs(differs)) });
}

/** After a count is recorded: what the books expected, and the difference when there is one (recorded with who counted). */
export function differenceLine(countedDzd: number, expectedDzd: number): HTMLElement {
  const differs = countDifference(countedDzd, expectedDzd) ?? 0;
  if (differs === 0) return h("span");
  return notice(
    "error",
    t("countDiffers", { expected: amount(expectedDzd), counted: amount(countedDzd), difference: differenceWords(differs) })
  );
}
