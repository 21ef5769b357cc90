import { call } from "../api";
import { h, ltr, notice } from "../../shared/dom";
import { t } from "../i18n";
import { submit } from "../outbox";
import { answerSlot, errorNotice, screen, slot } from "./common";

interface Closure {
  from: string;
  to: string;
  reason?: string | null;
}

/** Announce days closed (holidays, inventory): whole days, both included. */
export function closureScreen(): HTMLElement {
  const planned = slot();
  const { slot: result, say } = answerSlot("closure");
  const show = () =>
    call<{ items: Closure[] }>("GET", "/closures")
      .then(answer =>
        planned.replaceChildren(
          answer.items.length
            ? h(
                "ul",
                { class: "list" },
                answer.items.map(c => h("li", { class: "parcel" }, ltr(`${c.from} → ${c.to}`), c.reason ? ` ${c.reason}` : ""))
              )
            : h("p", { class: "muted" }, t("nothing"))
        )
      )
      .catch(() => undefined);
  const field = (id: string, key: "closureFrom" | "closureTo" | "closureReason", type: string) =>
    h(
      "div",
      { class: "field" },
      h("label", { for: id }, t(key)),
      h("input", { id, name: id, type, required: type === "date", dir: "ltr" })
    );
  const form = h(
    "form",
    {
      class: "stack",
      onsubmit: async (event: Event) => {
        event.preventDefault();
        const data = new FormData(form);
        const body: Record<string, unknown> = { from: data.get("closure-from"), to: data.get("closure-to") };
        const reason = String(data.get("closure-reason") ?? "").trim();
        if (reason) body.reason = reason;
        const outcome = await submit("closure", "/closures", body, `${body.from} → ${body.to}`, false);
        if (outcome.outcome === "refused") say(() => errorNotice(outcome.error));
        else {
          say(() =>
            notice(outcome.outcome === "queued" ? "info" : "ok", t("closureDone", { from: String(body.from), to: String(body.to) }))
          );
          void show();
        }
      }
    },
    field("closure-from", "closureFrom", "date"),
    field("closure-to", "closureTo", "date"),
    field("closure-reason", "closureReason", "text"),
    h("button", { type: "submit", class: "primary wide" }, t("closureButton"))
  );
  void show();
  return screen("closure", form, result, h("h2", null, t("closuresPlanned")), planned);
}
