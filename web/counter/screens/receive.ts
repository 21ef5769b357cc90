import { h, ltr, notice } from "../dom";
import { t } from "../i18n";
import { items, onOutboxChange, submit, toApiError } from "../outbox";
import { scanField } from "../scan-field";
import { answerSlot, errorNotice, screen } from "./common";
import { visitMemory } from "../visit-memory";

interface ReceiveMemory {
  /** The parcels received in this visit: tracking numbers only, the same in every language. */
  done: HTMLUListElement;
  /** The arrival the line under the field is about, while it waits. */
  lineWaitsFor: string | null;
}

/**
 * Receive: one scan per parcel, each answered in one line; the field stays ready for the next.
 * An arrival recorded without network waits in the list (amber) and in the line under the field;
 * once the outbox has sent it, both say what the server said: received, or refused (the row leaves
 * "Received now", the line gives the reason), so that nothing on screen stays "will be sent".
 * Both stay when the agent switches language (visit-memory.ts): the line is said again in the new one.
 */
export function receiveScreen(): HTMLElement {
  const memory = visitMemory<ReceiveMemory>("receive", () => ({ done: h("ul", { class: "list", id: "received" }), lineWaitsFor: null }));
  const { done } = memory;
  const { slot: result, say } = answerSlot("receive");

  const stop = onOutboxChange(() => {
    // This drawing of the screen is gone (another screen, or the same one in another language).
    if (!result.isConnected) {
      stop();
      return;
    }
    const waiting = done.querySelectorAll<HTMLElement>("li[data-outbox-id]");
    // Nothing of this screen waits: no read of the outbox (main.ts reads it for the header already).
    if (waiting.length === 0) return;
    void items().then(all => {
      for (const row of waiting) {
        const item = all.find(other => other.id === row.dataset.outboxId);
        if (!item || item.state === "waiting") continue;
        delete row.dataset.outboxId;
        if (item.state === "sent") row.classList.remove("is-waiting");
        else row.remove();
        if (memory.lineWaitsFor !== item.id) continue;
        memory.lineWaitsFor = null;
        say(() => (item.state === "sent" ? notice("ok", t("received", { n: item.subject })) : errorNotice(toApiError(item))));
      }
    });
  });

  const field = scanField({
    id: "receive-scan",
    label: t("scanHere"),
    onValue: async number => {
      const outcome = await submit("arrival", "/arrivals", { trackingNumber: number }, number);
      if (outcome.outcome === "refused") {
        say(() => errorNotice(outcome.error));
        return;
      }
      const queued = outcome.outcome === "queued";
      memory.lineWaitsFor = queued ? outcome.id : null;
      say(() => notice(queued ? "info" : "ok", t(queued ? "receivedQueued" : "received", { n: number })));
      const row = h("li", { class: `parcel ${queued ? "is-waiting" : ""}` }, ltr(number));
      if (queued) row.dataset.outboxId = outcome.id;
      done.prepend(row);
    }
  });
  return screen("receive", h("p", { class: "muted" }, t("receiveIntro")), field, result, h("h2", null, t("receivedList")), done);
}
