import { ApiError, call, NetworkError } from "../api";
import { h, ltr, notice } from "../../shared/dom";
import { amount, t } from "../i18n";
import { errorNotice } from "./common";

/** A count by face value in DZD, as the relay API gives it ({"2000": 3, "500": 1}). */
type Denominations = Record<string, number>;

interface CashCount {
  by: "courier" | "agent" | "hub";
  countedDzd: number;
  denominations: Denominations;
}

interface PendingCollection {
  id: string;
  closingIds: string[];
  previousCountDzd: number;
  counts: CashCount[];
}

interface Uncollected {
  countedDzd: number;
  denominations: Denominations | null;
  closings: { id: string; denominations: Denominations | null; pendingCollectionId: string | null }[];
  pendingCollections: PendingCollection[];
}

interface ConfirmedCollection {
  counts: CashCount[];
  previousCountDzd: number;
}

/** While the screen shows, the courier's count appears without a tap (the courier records it on its own phone). */
const POLL_MS = 10_000;

/**
 * The counter's side of the courier's cash collection (issue 45, decision 0063): the cash closed
 * and not yet collected, by denomination when the closings were counted so, and each collection a
 * courier recorded here, its count beside the closing's, to confirm (the courier's count becomes
 * the agent's) or dispute (cancelled: the closings wait, the courier counts again). Needs the
 * network: there is nothing to show or confirm without the server, and the screen says so.
 *
 * Stable hooks for browser tests: #cash-uncollected (the amount), #cash-nothing, #cash-offline, #cash-result,
 * #cash-refresh, and per collection #cash-collection-<id>, #cash-confirm-<id>, #cash-dispute-<id>.
 */
export function courierCashSection(): HTMLElement {
  const body = h("div", { class: "slot", "aria-live": "polite" });
  const result = h("div", { id: "cash-result", class: "slot", "aria-live": "polite" });
  let shown = "";
  let timer: number | undefined;

  const draw = async (force = false) => {
    window.clearTimeout(timer);
    try {
      if (!navigator.onLine) throw new NetworkError("offline");
      const cash = await call<Uncollected>("GET", "/cash/uncollected");
      const text = JSON.stringify(cash);
      if (force || text !== shown) {
        shown = text;
        body.replaceChildren(...cashView(cash, settle));
      }
    } catch (err) {
      shown = "";
      body.replaceChildren(err instanceof NetworkError ? offlineNotice() : errorNotice(err));
    }
    timer = window.setTimeout(() => {
      if (section.isConnected) void draw();
    }, POLL_MS);
  };

  /** Confirm or dispute one collection, then show the answer and the cash as it now is. */
  const settle = async (collection: PendingCollection, action: "confirm" | "cancel", key: string) => {
    const courier = collection.counts.find(c => c.by === "courier")!;
    try {
      if (action === "confirm") {
        const done = await call<ConfirmedCollection>(
          "POST",
          `/cash/collections/${collection.id}/confirm`,
          { denominations: courier.denominations },
          { idempotencyKey: key }
        );
        const agreed = done.counts.every(c => c.countedDzd === done.previousCountDzd);
        result.replaceChildren(
          agreed
            ? notice("ok", t("cashConfirmed", { n: amount(courier.countedDzd) }))
            : notice("info", t("cashConfirmedDifference", { n: amount(courier.countedDzd), closed: amount(done.previousCountDzd) }))
        );
      } else {
        await call("POST", `/cash/collections/${collection.id}/cancel`, undefined, { idempotencyKey: key });
        result.replaceChildren(notice("info", t("cashDisputed")));
      }
    } catch (err) {
      // Another tap (or another phone of this counter) settled it first: say which, not the generic CONFLICT line.
      const settled = err instanceof ApiError && err.code === "CONFLICT";
      result.replaceChildren(
        settled ? notice("error", t(action === "cancel" ? "cashAlreadyConfirmed" : "cashAlreadyDisputed")) : errorNotice(err)
      );
    }
    await draw(true);
  };

  const refresh = h("button", { type: "button", class: "wide", id: "cash-refresh", onclick: () => void draw(true) }, t("refresh"));
  const section = h(
    "section",
    { class: "courier-cash", "aria-labelledby": "cash-title" },
    h("h2", { id: "cash-title" }, t("cashTitle")),
    result,
    body,
    refresh
  );
  // The network coming or going redraws at once; once the screen is left, the listeners go too.
  const again = () => {
    if (section.isConnected) return void draw(true);
    window.removeEventListener("online", again);
    window.removeEventListener("offline", again);
  };
  window.addEventListener("online", again);
  window.addEventListener("offline", again);
  void draw();
  return section;
}

function offlineNotice(): HTMLElement {
  const line = notice("error", t("cashOffline"));
  line.id = "cash-offline";
  return line;
}

function cashView(cash: Uncollected, settle: (c: PendingCollection, a: "confirm" | "cancel", key: string) => Promise<void>): Node[] {
  const total = h(
    "p",
    { class: "cash-total" },
    t("cashClosed"),
    " ",
    h("strong", { id: "cash-uncollected" }, t("dzd", { n: amount(cash.countedDzd) }))
  );
  if (cash.closings.length === 0) return [h("p", { class: "muted", id: "cash-nothing" }, t("cashNothing"))];
  const nodes: Node[] = [total];
  if (cash.pendingCollections.length === 0 && cash.denominations) nodes.push(countTable([[t("cashAtClosing"), cash.denominations]]));
  if (cash.pendingCollections.length === 0) nodes.push(h("p", { class: "muted" }, t("cashWaitCourier")));
  for (const collection of cash.pendingCollections) nodes.push(collectionCard(cash, collection, settle));
  return nodes;
}

/** The closings a collection takes, counted by denomination at closing: added up, or null when one was a total only. */
function closedCountOf(cash: Uncollected, collection: PendingCollection): Denominations | null {
  const closings = cash.closings.filter(c => c.pendingCollectionId === collection.id);
  if (closings.length === 0 || closings.some(c => c.denominations === null)) return null;
  const sum: Denominations = {};
  for (const c of closings) for (const [face, n] of Object.entries(c.denominations!)) sum[face] = (sum[face] ?? 0) + n;
  return sum;
}

function collectionCard(
  cash: Uncollected,
  collection: PendingCollection,
  settle: (c: PendingCollection, a: "confirm" | "cancel", key: string) => Promise<void>
): HTMLElement {
  const courier = collection.counts.find(c => c.by === "courier")!;
  const closed = closedCountOf(cash, collection);
  const same = courier.countedDzd === collection.previousCountDzd;
  // One key per button and drawing: a tap sent twice (a slow network) is one confirmation.
  const keys = { confirm: crypto.randomUUID(), cancel: crypto.randomUUID() };
  let busy = false;
  const act = (action: "confirm" | "cancel") => async (event: Event) => {
    if (busy) return;
    busy = true;
    (event.currentTarget as HTMLButtonElement).disabled = true;
    await settle(collection, action, keys[action]);
  };
  const courierAmount = amount(courier.countedDzd);
  // Each button's name is its words and the amount (the words first: what a voice user says).
  const button = (action: "confirm" | "cancel") => {
    const words = t(action === "confirm" ? "cashConfirm" : "cashDispute");
    return h(
      "button",
      {
        type: "button",
        class: action === "confirm" ? "primary wide" : "wide danger",
        id: `cash-${action === "confirm" ? "confirm" : "dispute"}-${collection.id}`,
        "data-collection-id": collection.id,
        "aria-label": `${words} (${t("dzd", { n: courierAmount })})`,
        onclick: act(action)
      },
      words
    );
  };
  return h(
    "article",
    { class: `cash-collection ${same ? "" : "cash-differs"}`, id: `cash-collection-${collection.id}` },
    h("h3", null, t("cashCourierCounted", { n: courierAmount })),
    h(
      "dl",
      { class: "till-summary" },
      h("dt", null, t("cashAtClosing")),
      h("dd", null, t("dzd", { n: amount(collection.previousCountDzd) })),
      h("dt", null, t("cashByCourier")),
      h("dd", { class: same ? "" : "cash-bad" }, t("dzd", { n: courierAmount }))
    ),
    // Said in words, not with a sign: "300 DA missing" reads the same in both directions.
    same
      ? null
      : notice(
          "error",
          t(courier.countedDzd < collection.previousCountDzd ? "cashShort" : "cashOver", {
            n: amount(Math.abs(courier.countedDzd - collection.previousCountDzd))
          })
        ),
    countTable(
      closed
        ? [
            [t("cashAtClosing"), closed],
            [t("cashByCourier"), courier.denominations]
          ]
        : [[t("cashByCourier"), courier.denominations]]
    ),
    h("div", { class: "cash-actions" }, button("confirm"), button("cancel"))
  );
}

/** Notes and coins, one row per face value, one column per count: where two counts disagree, the row says so. */
function countTable(columns: [string, Denominations][]): HTMLElement {
  const faces = [...new Set(columns.flatMap(([, count]) => Object.keys(count).filter(face => count[face] > 0)))]
    .map(Number)
    .sort((a, b) => b - a);
  return h(
    "table",
    { class: "cash-count" },
    h("caption", null, t("cashByDenomination")),
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        h("th", { scope: "col" }, t("cashFace")),
        columns.map(([title]) => h("th", { scope: "col" }, title))
      )
    ),
    h(
      "tbody",
      null,
      faces.map(face => {
        const ns = columns.map(([, count]) => count[String(face)] ?? 0);
        return h(
          "tr",
          { class: ns.every(n => n === ns[0]) ? "" : "cash-bad" },
          h("th", { scope: "row" }, ltr(amount(face))),
          ns.map(n => h("td", null, ltr(n)))
        );
      })
    )
  );
}
