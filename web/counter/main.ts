import { forgetPairing, pairing, relayNameIn } from "./device";
import { h, ltr } from "../shared/dom";
import { applyDocumentLanguage, errorText, Language, LANGUAGE_NAMES, LANGUAGES, language, setLanguage, t } from "./i18n";
import type { MessageKey } from "./i18n/fr";
import { dismissResults, flush, items, onOutboxChange, OutboxItem, startFlushing } from "./outbox";
import { currentScreen, go, Screen, setNavigator } from "./router";
import { stopCamera } from "./scan-field";
import { startVisit } from "./visit-memory";
import { onDayLoaded } from "./state";
import { closureScreen } from "./screens/closure";
import { dispatchScreen } from "./screens/dispatch";
import { courierScreen } from "./screens/courier";
import { dropOffScreen } from "./screens/drop-off";
import { handoverScreen } from "./screens/handover";
import { pairCodeInAddress, pairScreen } from "./screens/pair";
import { receiveScreen } from "./screens/receive";
import { refuseScreen } from "./screens/refuse";
import { tillScreen } from "./screens/till";
import { todayScreen } from "./screens/today";

/**
 * The counter app: a header (the relay point, the network, what waits to be sent, the language),
 * the sync results, and one screen at a time. See docs/relay-points/counter-app.md.
 */
const header = h("header", { class: "top" });
const results = h("div", { class: "results", "aria-live": "polite" });
const main = h("main", { id: "main" });

const SCREENS: Record<Exclude<Screen, "pair">, () => HTMLElement> = {
  today: todayScreen,
  receive: receiveScreen,
  handover: handoverScreen,
  refuse: refuseScreen,
  dropoff: dropOffScreen,
  dispatch: dispatchScreen,
  till: tillScreen,
  closure: closureScreen,
  courier: courierScreen
};

/** Draws a screen: a new visit, or (`redraw`) the same visit in another language, keeping what it holds. */
function show(screen: Screen, redraw = false): void {
  if (!redraw) startVisit();
  stopCamera();
  const paired = pairing();
  const view = !paired || screen === "pair" ? pairScreen(() => void drawChrome()) : SCREENS[screen]();
  main.replaceChildren(view);
  if (paired && screen === "today") main.append(unpairButton());
  window.scrollTo(0, 0);
  // Moves focus to the new screen's title unless a field took it (the scan field does).
  queueMicrotask(() => {
    if (!main.contains(document.activeElement)) main.querySelector<HTMLElement>("h1")?.focus();
  });
}

function unpairButton(): HTMLElement {
  return h(
    "button",
    {
      type: "button",
      class: "link",
      onclick: () => {
        if (!confirm(t("unpairConfirm"))) return;
        forgetPairing();
        go("pair");
      }
    },
    t("unpair")
  );
}

function languagePicker(): HTMLElement {
  const select = h(
    "select",
    {
      id: "language",
      "aria-label": t("language"),
      onchange: () => {
        setLanguage(select.value as Language);
        void drawChrome();
        show(currentScreen(), true);
      }
    },
    LANGUAGES.map(code => h("option", { value: code, selected: code === language(), lang: code }, LANGUAGE_NAMES[code]))
  );
  return select;
}

function resultRow(item: OutboxItem): HTMLElement {
  const ok = item.state === "sent";
  return h(
    "li",
    { class: `result ${ok ? "result-ok" : "result-refused"}`, "data-id": item.id },
    h("span", { class: "result-kind" }, t(`kind_${item.kind}` as MessageKey)),
    " ",
    ltr(item.subject),
    " — ",
    h("strong", null, t(ok ? "syncOk" : "syncRefused")),
    ok || !item.error ? null : h("span", { class: "result-reason" }, ` ${errorText(item.error.code)} (${item.error.code})`)
  );
}

async function drawChrome(): Promise<void> {
  const all = await items();
  const waiting = all.filter(item => item.state === "waiting").length;
  const finished = all.filter(item => item.state !== "waiting" && item.queued && !item.setAside);
  const paired = pairing();
  header.replaceChildren(
    h(
      "div",
      { class: "top-row" },
      h("span", { class: "brand", dir: "auto" }, paired ? relayNameIn(language(), paired.relayName) : t("appName")),
      h("span", { class: `net ${navigator.onLine ? "net-on" : "net-off"}`, role: "status" }, t(navigator.onLine ? "online" : "offline")),
      languagePicker()
    ),
    waiting
      ? h(
          "div",
          { class: "outbox", id: "outbox-count", role: "status" },
          h("span", null, waiting === 1 ? t("waitingOne") : t("waiting", { n: waiting })),
          navigator.onLine ? h("button", { type: "button", class: "small", onclick: () => void flush() }, t("sendNow")) : null
        )
      : ""
  );
  results.replaceChildren(
    ...(finished.length
      ? [
          h("h2", null, t("syncResults")),
          h("ul", { class: "list", id: "sync-results" }, finished.map(resultRow)),
          h("button", { type: "button", class: "small secondary", onclick: () => void dismissResults() }, t("dismiss"))
        ]
      : [])
  );
}

function start(): void {
  applyDocumentLanguage();
  document.body.replaceChildren(header, results, main);
  setNavigator(show);
  onOutboxChange(() => void drawChrome());
  onDayLoaded(() => void drawChrome());
  window.addEventListener("online", () => void drawChrome());
  window.addEventListener("offline", () => void drawChrome());
  void drawChrome();
  show(pairCodeInAddress() ? "pair" : currentScreen());
  startFlushing();
  if ("serviceWorker" in navigator) void navigator.serviceWorker.register("sw.js", { scope: "./" }).catch(() => undefined);
}

start();
