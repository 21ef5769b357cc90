import { h, ltr, notice } from "../../shared/dom";
import type { RunStop } from "../api";
import { amount, clock, t } from "../i18n";
import { runProgress, stopKeysOf } from "../progress";
import { go } from "../router";
import { currentDay, currentRecord, loadDay, onDayChange, openDay } from "../state";
import { errorNotice, slot, tile } from "./common";

/** What to do at a stop, one short line. */
export function whatToDo(stop: RunStop): string {
  if (stop.kind === "PICKUP") return t("doPickup", { n: stop.parcelCount });
  if (stop.kind === "HUB") return t("doHub", { n: stop.otherCount });
  return t("doRelay", { n: stop.deliver.length, r: stop.collectReturns.length });
}

/** Where a stop is: the merchant's address, the hub's or the relay point's code. */
export function whereIs(stop: RunStop): string {
  if (stop.kind === "PICKUP") return stop.address ? `${stop.address.line1}, ${stop.address.city}` : (stop.confirmationNumber ?? "");
  return (stop.kind === "HUB" ? stop.hubCode : stop.relayCode) ?? "";
}

/** The day's run: progress, then every stop in order with what to do there; the next one stands out. */
export function runScreen(): HTMLElement {
  const content = slot();
  const draw = () => {
    const day = currentDay();
    const record = currentRecord();
    if (!day || !record) return;
    const progress = runProgress(day.stops, record);
    const done = new Set(record.done);
    const keys = stopKeysOf(day.stops);
    content.replaceChildren(
      h(
        "div",
        null,
        h(
          "div",
          { class: "tiles" },
          tile("progress-stops", t("stopsDone"), t("stopsOf", { n: progress.stopsDone, max: progress.stops })),
          tile("progress-parcels", t("parcelsAboard"), ltr(progress.parcelsAboard)),
          tile("progress-cash", t("cashAboard"), t("dzd", { n: amount(progress.cashAboardDzd) }))
        ),
        h(
          "p",
          { class: "muted" },
          day.fromCopy ? t("savedCopy", { time: clock(new Date(day.at)) }) : t("updatedAt", { time: clock(new Date(day.at)) })
        ),
        day.stops.length === 0 ? notice("info", t("noStops")) : progress.next === null ? notice("ok", t("dayOver")) : null,
        h(
          "ol",
          { class: "list stops", id: "stops" },
          day.stops.map((stop, index) => {
            const isDone = done.has(keys[index]);
            const isNext = index === progress.next;
            return h(
              "li",
              { class: `stop${isNext ? " stop-next" : ""}${isDone ? " stop-done" : ""}`, "data-kind": stop.kind },
              h(
                "button",
                { type: "button", class: "stop-button", onclick: () => go({ screen: "stop", position: index }) },
                h(
                  "span",
                  { class: "stop-kind" },
                  `${index + 1}. ${t(`kind_${stop.kind}`)}`,
                  isNext ? h("span", { class: "badge badge-soon" }, t("next")) : null
                ),
                h("span", { class: "stop-where", dir: "auto" }, whereIs(stop)),
                h("span", { class: "stop-what" }, whatToDo(stop)),
                stop.kind === "RELAY" && stop.cashToCollect
                  ? h("span", { class: "stop-what cod" }, t("doCash", { n: amount(stop.cashToCollect) }))
                  : null,
                isDone ? h("span", { class: "done" }, t("done")) : null
              )
            );
          })
        )
      )
    );
  };
  const refresh = h(
    "button",
    {
      type: "button",
      class: "secondary small",
      id: "refresh",
      onclick: () =>
        void loadDay()
          .then(draw)
          .catch(err => content.replaceChildren(errorNotice(err)))
    },
    t("refresh")
  );
  // The server's run, when it comes after the phone's copy, is drawn while this screen is shown.
  onDayChange(() => {
    if (content.isConnected) draw();
  });
  if (currentDay()) draw();
  else
    void openDay()
      .then(draw)
      .catch(err => content.replaceChildren(errorNotice(err)));
  return h(
    "section",
    { class: "screen", "aria-labelledby": "screen-title" },
    h("div", { class: "screen-head" }, h("h1", { id: "screen-title", tabindex: "-1" }, t("runTitle")), refresh),
    content
  );
}
