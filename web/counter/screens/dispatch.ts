import { h, ltr, notice } from "../../shared/dom";
import { t } from "../i18n";
import { submit } from "../outbox";
import { awaitingCourier, loadDay } from "../state";
import { answerSlot, errorNotice, screen, slot } from "./common";

/**
 * The courier takes the returns: every refused or expired parcel waiting, confirmed once. The
 * customers' drop-offs are listed too, but the courier's own pick-up scan moves those.
 */
export function dispatchScreen(): HTMLElement {
  const content = slot();
  const { slot: result, say } = answerSlot("dispatch");
  void loadDay()
    .then(day => {
      const waiting = day.parcels.filter(p => p.status === "RETURN_PENDING").map(p => p.trackingNumber);
      const dropOffs = day.parcels.filter(p => awaitingCourier(p) && p.status !== "RETURN_PENDING").map(p => p.trackingNumber);
      const dropOffList = dropOffs.length
        ? [
            h("p", { class: "muted" }, t("dropOffsWaiting")),
            h(
              "ul",
              { class: "list", id: "drop-offs" },
              dropOffs.map(n => h("li", { class: "parcel" }, ltr(n)))
            )
          ]
        : [];
      if (!waiting.length) {
        content.replaceChildren(notice("info", t("noReturns")), ...dropOffList);
        return;
      }
      content.replaceChildren(
        h("p", null, t("dispatchIntro")),
        h(
          "ul",
          { class: "list" },
          waiting.map(n => h("li", { class: "parcel" }, ltr(n)))
        ),
        h(
          "button",
          {
            type: "button",
            class: "primary wide",
            id: "dispatch-confirm",
            onclick: async () => {
              const outcome = await submit("dispatch", "/return-dispatches", { trackingNumbers: waiting }, String(waiting.length), false);
              if (outcome.outcome === "refused") say(() => errorNotice(outcome.error));
              else {
                content.replaceChildren();
                say(() => notice(outcome.outcome === "queued" ? "info" : "ok", t("dispatched", { n: waiting.length })));
              }
            }
          },
          t("dispatchButton", { n: waiting.length })
        ),
        ...dropOffList
      );
    })
    .catch(err => content.replaceChildren(errorNotice(err)));
  return screen("dispatch", content, result);
}
