import { h, ltr, notice } from "../../shared/dom";
import { t } from "../i18n";
import type { MessageKey } from "../i18n/fr";
import { submit } from "../outbox";
import { scanField } from "../scan-field";
import { answerSlot, errorNotice, screen, slot } from "./common";

/** The reasons a recipient refuses, from a list: the merchant reads the French text in the webhook. */
const REASONS: MessageKey[] = ["reasonRefused", "reasonDamaged", "reasonWrongItem", "reasonCodTooHigh", "reasonOther"];
const FRENCH: Record<string, string> = {
  reasonRefused: "Refusé par le destinataire",
  reasonDamaged: "Colis endommagé",
  reasonWrongItem: "Article non conforme",
  reasonCodTooHigh: "Le destinataire ne peut pas payer",
  reasonOther: "Autre motif"
};

export function refuseScreen(): HTMLElement {
  const step = slot();
  const { slot: result, say } = answerSlot("refuse");
  const askReason = (number: string) => {
    const form = h(
      "form",
      {
        class: "stack",
        onsubmit: async (event: Event) => {
          event.preventDefault();
          const chosen = new FormData(form).get("reason");
          if (typeof chosen !== "string") return;
          const outcome = await submit("refusal", "/refusals", { trackingNumber: number, reason: FRENCH[chosen] }, number);
          if (outcome.outcome === "refused") say(() => errorNotice(outcome.error));
          else {
            step.replaceChildren();
            say(() => notice(outcome.outcome === "queued" ? "info" : "ok", t("refused", { n: number })));
          }
        }
      },
      h("p", null, ltr(number)),
      h(
        "fieldset",
        { class: "choices" },
        h("legend", null, t("reason")),
        REASONS.map((key, index) =>
          h(
            "label",
            { class: "choice" },
            h("input", { type: "radio", name: "reason", value: key, required: true, checked: index === 0 }),
            t(key)
          )
        )
      ),
      h("button", { type: "submit", class: "primary wide", id: "refuse-confirm" }, t("refuseButton"))
    );
    say(null);
    step.replaceChildren(form);
  };
  return screen("refuse", scanField({ id: "refuse-scan", label: t("scanHere"), onValue: askReason }), step, result);
}
