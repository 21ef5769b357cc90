import { createAppShell } from "../shared/app-shell";
import { forgetPairing, pairing, relayNameIn } from "./device";
import { applyDocumentLanguage, errorText, language, setLanguage, t } from "./i18n";
import type { MessageKey } from "./i18n/fr";
import { dismissResults, flush, items, onOutboxChange, startFlushing } from "./outbox";
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
 * The counter app: the shared frame (web/shared/app-shell.ts: the relay point, the network, what
 * waits to be sent, the language, the sync results) and one screen at a time. See
 * docs/relay-points/counter-app.md.
 */
const shell = createAppShell({
  i18n: { t, errorText, language, setLanguage, applyDocumentLanguage },
  outbox: { items, flush, dismissResults, onOutboxChange, startFlushing },
  kindText: item => t(`kind_${item.kind}` as MessageKey),
  brand: () => {
    const paired = pairing();
    return paired ? relayNameIn(language(), paired.relayName) : null;
  },
  unpair: () => {
    forgetPairing();
    go("pair");
  },
  // The same visit in another language, keeping what it holds.
  redraw: () => show(currentScreen(), true),
  changes: [onDayLoaded]
});

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
  const view = !paired || screen === "pair" ? pairScreen(() => void shell.drawChrome()) : SCREENS[screen]();
  shell.showView(view, paired !== null && screen === "today");
}

setNavigator(show);
shell.start(() => show(pairCodeInAddress() ? "pair" : currentScreen()));
