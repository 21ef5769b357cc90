import { ApiError, NetworkError } from "../api";
import { forgetPairing } from "../device";
import { h, ltr, notice } from "../../shared/dom";
import { pairAgainButton } from "../../shared/pair-screen";
import { errorText, t } from "../i18n";
import type { MessageKey } from "../i18n/fr";
import { go } from "../router";
import { visitMemory } from "../visit-memory";

/** A screen's frame: its title, a way back to Today, and its content. */
export function screen(titleKey: MessageKey, ...content: (Node | null)[]): HTMLElement {
  return h(
    "section",
    { class: "screen", "aria-labelledby": "screen-title" },
    h(
      "div",
      { class: "screen-head" },
      h("button", { type: "button", class: "back", onclick: () => go("today") }, t("back")),
      h("h1", { id: "screen-title", tabindex: "-1" }, t(titleKey))
    ),
    ...content
  );
}

/**
 * The one line that explains an error, and what to do; `parcel` names the parcel it is about when
 * the screen no longer shows it (an operation answered after a sync).
 */
export function errorNotice(err: unknown, parcel?: string): HTMLElement {
  const about = parcel ? [ltr(parcel), " — "] : [];
  if (err instanceof ApiError) {
    // The API says the tries left in its message ("…; 3 attempts left").
    const left = err.code === "PIN_INCORRECT" ? /(\d+) attempts? left/.exec(err.message)?.[1] : undefined;
    const extra = left ? ` ${t("triesLeft", { n: left })}` : "";
    const again =
      err.code === "UNAUTHENTICATED"
        ? pairAgainButton(t("pairAgain"), () => {
            forgetPairing();
            go("pair");
          })
        : null;
    return notice("error", ...about, errorText(err.code) + extra, h("small", { class: "code" }, ` (${err.code})`), again);
  }
  if (err instanceof NetworkError) return notice("error", ...about, errorText("NETWORK"));
  return notice("error", ...about, errorText("UNKNOWN"));
}

/** A slot on the screen whose content is replaced as the flow goes. */
export function slot(): HTMLDivElement {
  return h("div", { class: "slot", "aria-live": "polite" });
}

/** What an answer slot shows, made again (in the language of the moment) each time it is drawn. */
export type Line = () => Node;

/**
 * The slot under what the agent just did (a scan, a confirmation), remembered for this visit
 * (visit-memory.ts): when the screen is drawn again for a language switch, the answer is said again
 * in the new language instead of disappearing (a drop-off's number the agent was copying, a refusal).
 */
export function answerSlot(screenName: string): { slot: HTMLDivElement; say: (line: Line | null) => void } {
  const memory = visitMemory<{ line: Line | null }>(`${screenName}:answer`, () => ({ line: null }));
  const area = slot();
  if (memory.line) area.replaceChildren(memory.line());
  const say = (line: Line | null) => {
    memory.line = line;
    area.replaceChildren(...(line ? [line()] : []));
  };
  return { slot: area, say };
}
