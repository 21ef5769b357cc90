import { h, ltr } from "../shared/dom";
import { forgetPairing, pairing } from "./device";
import { applyDocumentLanguage, errorText, Language, LANGUAGE_NAMES, LANGUAGES, language, setLanguage, t } from "./i18n";
import type { MessageKey } from "./i18n/fr";
import { dismissResults, flush, items, onOutboxChange, OutboxItem, startFlushing } from "./outbox";
import { currentRoute, go, Route, setNavigator } from "./router";
import { stopCamera } from "./scan-field";
import { hubScreen } from "./screens/hub";
import { pairCodeInAddress, pairScreen } from "./screens/pair";
import { pickupScreen } from "./screens/pickup";
import { relayScreen } from "./screens/relay";
import { runScreen } from "./screens/run";
import { currentDay, openDay } from "./state";

/**
 * The courier app: a header (the courier, the network, what waits to be sent, the language), the
 * sync results, and one screen at a time. See docs/network/courier-app.md.
 */
const header = h("header", { class: "top" });
const results = h("div", { class: "results", "aria-live": "polite" });
const main = h("main", { id: "main" });

function stopView(position: number): HTMLElement {
  const stop = currentDay()?.stops[position];
  if (!stop) return runScreen();
  if (stop.kind === "PICKUP") return pickupScreen(stop);
  return stop.kind === "HUB" ? hubScreen(stop) : relayScreen(stop);
}

function show(route: Route): void {
  stopCamera();
  const paired = pairing();
  let view: HTMLElement;
  if (!paired || route.screen === "pair") view = pairScreen(() => void drawChrome());
  else if (route.screen === "stop" && !currentDay()) {
    // A reload on a stop: the day first (from the phone's copy offline), then the stop.
    view = h("p", { class: "muted" }, "…");
    void openDay()
      .then(() => show(route))
      .catch(() => go({ screen: "run" }));
  } else view = route.screen === "stop" ? stopView(route.position) : runScreen();
  main.replaceChildren(view);
  if (paired && route.screen === "run") main.append(unpairButton());
  window.scrollTo(0, 0);
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
        go({ screen: "pair" });
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
        show(currentRoute());
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
  const finished = all.filter(item => item.state !== "waiting" && item.queued);
  const paired = pairing();
  header.replaceChildren(
    h(
      "div",
      { class: "top-row" },
      h("span", { class: "brand", dir: "auto" }, paired ? paired.courierName : t("appName")),
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
  window.addEventListener("online", () => void drawChrome());
  window.addEventListener("offline", () => void drawChrome());
  void drawChrome();
  show(pairCodeInAddress() ? { screen: "pair" } : currentRoute());
  startFlushing();
  if ("serviceWorker" in navigator) void navigator.serviceWorker.register("sw.js", { scope: "./" }).catch(() => undefined);
}

start();
