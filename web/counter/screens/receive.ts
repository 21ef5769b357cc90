import { h, ltr, notice } from "../dom";
import { t } from "../i18n";
import { submit } from "../outbox";
import { scanField } from "../scan-field";
import { errorNotice, screen, slot } from "./common";

/** Receive: one scan per parcel, each answered in one line; the field stays ready for the next. */
export function receiveScreen(): HTMLElement {
  const result = slot();
  const done = h("ul", { class: "list", id: "received" });
  const field = scanField({
    id: "receive-scan",
    label: t("scanHere"),
    onValue: async number => {
      const outcome = await submit("arrival", "/arrivals", { trackingNumber: number }, number);
      if (outcome.outcome === "refused") {
        result.replaceChildren(errorNotice(outcome.error));
        return;
      }
      const queued = outcome.outcome === "queued";
      result.replaceChildren(notice(queued ? "info" : "ok", t(queued ? "receivedQueued" : "received", { n: number })));
      done.prepend(h("li", { class: `parcel ${queued ? "is-waiting" : ""}` }, ltr(number)));
    }
  });
  return screen("receive", h("p", { class: "muted" }, t("receiveIntro")), field, result, h("h2", null, t("receivedList")), done);
}
