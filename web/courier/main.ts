import { createAppShell } from "../shared/app-shell";
import { h } from "../shared/dom";
import { forgetPairing, pairing } from "./device";
import { applyDocumentLanguage, errorText, language, setLanguage, t } from "./i18n";
import type { MessageKey } from "./i18n/fr";
import { dismissResults, flush, items, onOutboxChange, startFlushing } from "./outbox";
import { currentRoute, go, Route, setNavigator } from "./router";
import { stopCamera } from "./scan-field";
import { hubScreen } from "./screens/hub";
import { pairCodeInAddress, pairScreen } from "./screens/pair";
import { pickupScreen } from "./screens/pickup";
import { relayScreen } from "./screens/relay";
import { runScreen } from "./screens/run";
import { currentDay, openDay } from "./state";

/**
 * The courier app: the shared frame (web/shared/app-shell.ts: the courier, the network, what waits
 * to be sent, the language, the sync results) and one screen at a time. See docs/network/courier-app.md.
 */
const shell = createAppShell({
  i18n: { t, errorText, language, setLanguage, applyDocumentLanguage },
  outbox: { items, flush, dismissResults, onOutboxChange, startFlushing },
  kindText: item => t(`kind_${item.kind}` as MessageKey),
  brand: () => pairing()?.courierName ?? null,
  unpair: () => {
    forgetPairing();
    go({ screen: "pair" });
  },
  redraw: () => show(currentRoute())
});

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
  if (!paired || route.screen === "pair") view = pairScreen(() => void shell.drawChrome());
  else if (route.screen === "stop" && !currentDay()) {
    // A reload on a stop: the day first (from the phone's copy offline), then the stop.
    view = h("p", { class: "muted" }, "…");
    void openDay()
      .then(() => show(route))
      .catch(() => go({ screen: "run" }));
  } else view = route.screen === "stop" ? stopView(route.position) : runScreen();
  shell.showView(view, paired !== null && route.screen === "run");
}

setNavigator(show);
shell.start(() => show(pairCodeInAddress() ? { screen: "pair" } : currentRoute()));
