import { call, Me, RelayParcel } from "../api";
import { SERVER_SENDS_REMINDERS } from "../features";
import { h, ltr } from "../../shared/dom";
import { amount, clock, language, t } from "../i18n";
import { go, Screen } from "../router";
import { awaitingCourier, daysLeft, Day, incoming, loadDay, onShelf } from "../state";
import type { MessageKey } from "../i18n/fr";
import { errorNotice, slot } from "./common";
import { setAsideList } from "./set-aside";

/**
 * The shop's day at a glance: what is coming, the shelf by deadline (a one-tap reminder for the
 * late), the returns waiting for the courier, the till and the space used; and every action.
 */
const ACTIONS: [Screen, MessageKey][] = [
  ["receive", "receive"],
  ["handover", "handover"],
  ["refuse", "refuse"],
  ["dropoff", "dropOff"],
  ["dispatch", "dispatch"],
  ["courier", "courier"],
  ["till", "till"],
  ["closure", "closure"]
];

function deadlineBadge(parcel: RelayParcel): HTMLElement | null {
  if (!parcel.pickupDeadline) return null;
  const left = daysLeft(parcel.pickupDeadline);
  if (left <= 0) return h("span", { class: "badge badge-urgent" }, t("expiresToday"));
  if (left === 1) return h("span", { class: "badge badge-soon" }, t("expiresTomorrow"));
  return h("span", { class: "badge" }, t("daysLeft", { n: left }));
}

function reminderButton(parcel: RelayParcel): HTMLElement {
  const place = h("span", { class: "remind" });
  const button = h(
    "button",
    {
      type: "button",
      class: "small",
      onclick: async () => {
        button.disabled = true;
        try {
          await call(
            "POST",
            `/parcels/${encodeURIComponent(parcel.trackingNumber)}/reminders`,
            {},
            { idempotencyKey: crypto.randomUUID() }
          );
          place.replaceChildren(h("span", { class: "done" }, t("reminded")));
        } catch (err) {
          button.disabled = false;
          place.append(errorNotice(err));
        }
      }
    },
    t("remind")
  );
  place.append(button);
  return place;
}

function shelfRow(parcel: RelayParcel): HTMLElement {
  const late = parcel.pickupDeadline !== null && daysLeft(parcel.pickupDeadline) <= 1;
  return h(
    "li",
    { class: "parcel" },
    h("div", { class: "parcel-main" }, h("strong", null, ltr(parcel.recipientHint)), " ", ltr(parcel.trackingNumber)),
    h(
      "div",
      { class: "parcel-side" },
      parcel.codToCollectDzd ? h("span", { class: "cod" }, t("dzd", { n: amount(parcel.codToCollectDzd) })) : null,
      deadlineBadge(parcel),
      late && SERVER_SENDS_REMINDERS ? reminderButton(parcel) : null
    )
  );
}

function tile(label: MessageKey, value: Node | string, id: string): HTMLElement {
  return h("div", { class: "tile", id }, h("span", { class: "tile-label" }, t(label)), h("span", { class: "tile-value" }, value));
}

/** "DZ-28-BOU-SAADA · Wilaya 68 – Bou Saâda": the point's code and where it is now (a code may carry an older wilaya). */
function whereLine(me: Me): HTMLElement {
  const name = language() === "ar" ? me.wilayaNameAr : me.wilayaName;
  return h(
    "p",
    { class: "muted", id: "relay-place" },
    ltr(me.relayCode),
    me.wilaya && name ? [" · ", t("wilayaOf", { code: me.wilaya, name })] : null
  );
}

function dayView(day: Day): HTMLElement {
  const shelf = day.parcels.filter(onShelf).sort((a, b) => (a.pickupDeadline ?? "").localeCompare(b.pickupDeadline ?? ""));
  const coming = day.parcels.filter(incoming);
  const returns = day.parcels.filter(awaitingCourier);
  const at = new Date(day.at);
  return h(
    "div",
    null,
    whereLine(day.me),
    h("p", { class: "muted" }, day.fromCopy ? t("savedCopy", { time: clock(at) }) : t("updatedAt", { time: clock(at) })),
    h(
      "div",
      { class: "tiles" },
      tile("toReceive", ltr(coming.length), "tile-incoming"),
      tile("onShelf", ltr(shelf.length), "tile-shelf"),
      tile("returnsWaiting", ltr(returns.length), "tile-returns"),
      tile("handedToday", ltr(day.handedToday), "tile-handed"),
      tile("cashInTill", t("dzd", { n: amount(day.till.amountDzd) }), "tile-till"),
      tile("capacity", ltr(t("capacityOf", { n: day.me.onShelf, max: day.me.capacity })), "tile-capacity")
    ),
    setAsideList(),
    h("h2", null, t("onShelf")),
    shelf.length ? h("ul", { class: "list" }, shelf.map(shelfRow)) : h("p", { class: "muted" }, t("nothing")),
    coming.length ? h("h2", null, t("toReceive")) : null,
    coming.length
      ? h(
          "ul",
          { class: "list" },
          coming.map(p => h("li", { class: "parcel" }, h("div", { class: "parcel-main" }, ltr(p.trackingNumber))))
        )
      : null
  );
}

export function todayScreen(): HTMLElement {
  const content = slot();
  const refresh = async () => {
    content.setAttribute("aria-busy", "true");
    try {
      content.replaceChildren(dayView(await loadDay()));
    } catch (err) {
      content.replaceChildren(errorNotice(err));
    }
    content.removeAttribute("aria-busy");
  };
  void refresh();
  return h(
    "section",
    { class: "screen", "aria-labelledby": "screen-title" },
    h(
      "div",
      { class: "screen-head" },
      h("h1", { id: "screen-title", tabindex: "-1" }, t("today")),
      h("button", { type: "button", class: "secondary small", onclick: () => void refresh() }, t("refresh"))
    ),
    h(
      "nav",
      { class: "actions", "aria-label": t("actions") },
      ACTIONS.map(([target, label]) =>
        h("button", { type: "button", class: "action", "data-screen": target, onclick: () => go(target) }, t(label))
      )
    ),
    content
  );
}
