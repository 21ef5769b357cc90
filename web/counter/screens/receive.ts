import { sameNumber } from "../api";
import { h, ltr, notice } from "../../shared/dom";
import { t } from "../i18n";
import { items, onOutboxChange, OutboxItem, submit, toApiError } from "../outbox";
import { scanField } from "../scan-field";
import { shelfParcel } from "../state";
import { answerSlot, errorNotice, screen } from "./common";
import { visitMemory } from "../visit-memory";

interface ReceiveMemory {
  /** The parcels received in this visit: tracking numbers only, the same in every language. */
  done: HTMLUListElement;
  /** The arrival the line under the field is about, while it waits. */
  lineWaitsFor: string | null;
}

function receivedRow(number: string, waitingId: string | null): HTMLLIElement {
  const row = h("li", { class: `parcel ${waitingId ? "is-waiting" : ""}`, "data-number": number }, ltr(number));
  if (waitingId) row.dataset.outboxId = waitingId;
  return row;
}

const listedRow = (done: HTMLUListElement, number: string) =>
  [...done.querySelectorAll<HTMLLIElement>("li[data-number]")].find(row => sameNumber(row.dataset.number ?? "", number));

/**
 * The arrivals recorded offline in an earlier visit that still wait: "Reçus maintenant" lists them
 * again when the agent comes back to Receive (issue 43), newest first as they were scanned.
 */
async function listWaitingArrivals(done: HTMLUListElement): Promise<void> {
  const waiting = (await items()).filter((item: OutboxItem) => item.kind === "arrival" && item.state === "waiting");
  for (const item of waiting) if (!listedRow(done, item.subject)) done.prepend(receivedRow(item.subject, item.id));
}

/**
 * Receive: one scan per parcel, each answered in one line; the field stays ready for the next.
 * An arrival recorded without network waits in the list (amber) and in the line under the field;
 * once the outbox has sent it, both say what the server said: received, or refused (the row leaves
 * "Received now", the line gives the reason and names the parcel, and Today lists it for the
 * courier), so that nothing on screen stays "will be sent". A parcel scanned twice is listed once.
 * Both stay when the agent switches language (visit-memory.ts): the line is said again in the new one.
 */
export function receiveScreen(): HTMLElement {
  let firstDrawing = false;
  const memory = visitMemory<ReceiveMemory>("receive", () => {
    firstDrawing = true;
    return { done: h("ul", { class: "list", id: "received" }), lineWaitsFor: null };
  });
  const { done } = memory;
  const { slot: result, say } = answerSlot("receive");
  if (firstDrawing) void listWaitingArrivals(done);

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
        say(() => (item.state === "sent" ? notice("ok", t("received", { n: item.subject })) : errorNotice(toApiError(item), item.subject)));
      }
    });
  });

  const field = scanField({
    id: "receive-scan",
    label: t("scanHere"),
    onValue: async number => {
      const listed = listedRow(done, number);
      if (listed) {
        // Scanned again in this visit: nothing to send, and one line in the list.
        say(() => notice("info", t(listed.dataset.outboxId ? "receivedQueued" : "alreadyOnShelf", { n: number })));
        return;
      }
      const outcome = await submit("arrival", "/arrivals", { trackingNumber: number }, number);
      if (outcome.outcome === "refused") {
        // A parcel received earlier (the server's 409 INVALID_TRANSITION): said plainly when the shelf shows it.
        const onShelf = outcome.error.code === "INVALID_TRANSITION" && shelfParcel(number) !== undefined;
        say(() => (onShelf ? notice("info", t("alreadyOnShelf", { n: number })) : errorNotice(outcome.error, number)));
        return;
      }
      const queued = outcome.outcome === "queued";
      memory.lineWaitsFor = queued ? outcome.id : null;
      say(() => notice(queued ? "info" : "ok", t(queued ? "receivedQueued" : "received", { n: number })));
      done.prepend(receivedRow(number, queued ? outcome.id : null));
    }
  });
  return screen("receive", h("p", { class: "muted" }, t("receiveIntro")), field, result, h("h2", null, t("receivedList")), done);
}
