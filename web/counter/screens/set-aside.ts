import { h, ltr } from "../../shared/dom";
import { errorText, t } from "../i18n";
import { givenToCourier, isSetAside, items, onOutboxChange, OutboxItem } from "../outbox";

/**
 * Today's "for the courier" list (issue 43): the arrivals the server refused after a sync (another
 * relay point's parcel, an unknown number, a full shelf). The parcel is in the shop and on no list
 * of the shelf: it stays here, with why, until the agent says the courier took it. Redrawn when the
 * outbox changes, while it is on screen.
 */
export function setAsideList(): HTMLElement {
  const area = h("section", { id: "set-aside", "aria-labelledby": "set-aside-title" });
  const draw = async () => {
    const held = (await items()).filter(isSetAside);
    area.replaceChildren(
      ...(held.length
        ? [
            h("h2", { id: "set-aside-title" }, t("setAside")),
            h("p", { class: "muted" }, t("setAsideIntro")),
            h("ul", { class: "list" }, held.map(row))
          ]
        : [])
    );
  };
  const stop = onOutboxChange(() => {
    if (!area.isConnected) stop();
    else void draw();
  });
  void draw();
  return area;
}

function row(item: OutboxItem): HTMLElement {
  return h(
    "li",
    { class: "parcel", "data-number": item.subject },
    h(
      "div",
      { class: "parcel-main" },
      h("strong", null, ltr(item.subject)),
      " ",
      h("span", { class: "result-reason" }, errorText(item.error?.code ?? "UNKNOWN"))
    ),
    h(
      "div",
      { class: "parcel-side" },
      h("button", { type: "button", class: "small secondary", onclick: () => void givenToCourier(item.id) }, t("givenToCourier"))
    )
  );
}
