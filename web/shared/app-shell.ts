import { h, ltr } from "./dom";
import { Language, LANGUAGE_NAMES, LANGUAGES } from "./i18n";
import type { OutboxItem } from "./outbox";

/** The shell's words, in each app's catalogue. */
export type ShellWord =
  | "appName"
  | "unpair"
  | "unpairConfirm"
  | "language"
  | "syncOk"
  | "syncRefused"
  | "online"
  | "offline"
  | "waitingOne"
  | "waiting"
  | "sendNow"
  | "syncResults"
  | "dismiss";

/** What differs between the apps' shells: their words, outbox and pairing, and what their header names. */
export interface AppShellOptions<K extends string> {
  i18n: {
    t: (key: ShellWord, vars?: Record<string, string | number>) => string;
    errorText: (code: string) => string;
    language: () => Language;
    setLanguage: (language: Language) => void;
    applyDocumentLanguage: () => void;
  };
  outbox: {
    items: () => Promise<OutboxItem<K>[]>;
    flush: () => Promise<unknown>;
    dismissResults: () => Promise<unknown>;
    onOutboxChange: (listener: () => void) => void;
    startFlushing: () => void;
  };
  /** The kind of an outbox item, in words ("Arrivée", "Collecte"…). */
  kindText: (item: OutboxItem<K>) => string;
  /** The header's name: the relay point, the courier; the app's name before pairing. */
  brand: () => string | null;
  /** Forgets the pairing and opens the pairing screen (after the person confirmed). */
  unpair: () => void;
  /** Draws the current screen again, in the language just chosen. */
  redraw: () => void;
  /** More events after which the header is drawn again (the counter's day loaded). */
  changes?: ((listener: () => void) => void)[];
}

/**
 * The apps' frame, one copy for both: a header (whose phone, the network, what waits to be sent,
 * the language), the sync results, and `main` where the app draws one screen at a time.
 */
export function createAppShell<K extends string>(options: AppShellOptions<K>) {
  const { t } = options.i18n;
  const header = h("header", { class: "top" });
  const results = h("div", { class: "results", "aria-live": "polite" });
  const main = h("main", { id: "main" });

  function unpairButton(): HTMLElement {
    const onclick = () => {
      if (confirm(t("unpairConfirm"))) options.unpair();
    };
    return h("button", { type: "button", class: "link", onclick }, t("unpair"));
  }

  function languagePicker(): HTMLElement {
    const { language, setLanguage } = options.i18n;
    const onchange = () => {
      setLanguage(select.value as Language);
      void drawChrome();
      options.redraw();
    };
    const select = h(
      "select",
      { id: "language", "aria-label": t("language"), onchange },
      LANGUAGES.map(code => h("option", { value: code, selected: code === language(), lang: code }, LANGUAGE_NAMES[code]))
    );
    return select;
  }

  function resultRow(item: OutboxItem<K>): HTMLElement {
    const ok = item.state === "sent";
    const reason =
      ok || !item.error ? null : h("span", { class: "result-reason" }, ` ${options.i18n.errorText(item.error.code)} (${item.error.code})`);
    return h(
      "li",
      { class: `result ${ok ? "result-ok" : "result-refused"}`, "data-id": item.id },
      h("span", { class: "result-kind" }, options.kindText(item)),
      " ",
      ltr(item.subject),
      " — ",
      h("strong", null, t(ok ? "syncOk" : "syncRefused")),
      reason
    );
  }

  function waitingLine(waiting: number): HTMLElement {
    const send = navigator.onLine
      ? h("button", { type: "button", class: "small", onclick: () => void options.outbox.flush() }, t("sendNow"))
      : null;
    const count = waiting === 1 ? t("waitingOne") : t("waiting", { n: waiting });
    return h("div", { class: "outbox", id: "outbox-count", role: "status" }, h("span", null, count), send);
  }

  async function drawChrome(): Promise<void> {
    const all = await options.outbox.items();
    const waiting = all.filter(item => item.state === "waiting").length;
    // A set-aside item (kept after the results were cleared: the counter's refused arrivals) is listed on a screen of its own.
    const finished = all.filter(item => item.state !== "waiting" && item.queued && !item.setAside);
    const online = navigator.onLine;
    header.replaceChildren(
      h(
        "div",
        { class: "top-row" },
        h("span", { class: "brand", dir: "auto" }, options.brand() ?? t("appName")),
        h("span", { class: `net ${online ? "net-on" : "net-off"}`, role: "status" }, t(online ? "online" : "offline")),
        languagePicker()
      ),
      waiting ? waitingLine(waiting) : ""
    );
    const dismiss = () => void options.outbox.dismissResults();
    results.replaceChildren(
      ...(finished.length
        ? [
            h("h2", null, t("syncResults")),
            h("ul", { class: "list", id: "sync-results" }, finished.map(resultRow)),
            h("button", { type: "button", class: "small secondary", onclick: dismiss }, t("dismiss"))
          ]
        : [])
    );
  }

  /** Puts a screen in `main` (with the unpair button under the first screen), and focus on its title unless a field took it (the scan field does). */
  function showView(view: HTMLElement, withUnpair: boolean): void {
    main.replaceChildren(view);
    if (withUnpair) main.append(unpairButton());
    window.scrollTo(0, 0);
    queueMicrotask(() => {
      if (!main.contains(document.activeElement)) main.querySelector<HTMLElement>("h1")?.focus();
    });
  }

  /** The boot: the page's language, the frame, the header kept current, the first screen, the outbox, the service worker. */
  function start(showFirst: () => void): void {
    options.i18n.applyDocumentLanguage();
    document.body.replaceChildren(header, results, main);
    const redrawChrome = () => void drawChrome();
    options.outbox.onOutboxChange(redrawChrome);
    for (const change of options.changes ?? []) change(redrawChrome);
    window.addEventListener("online", redrawChrome);
    window.addEventListener("offline", redrawChrome);
    void drawChrome();
    showFirst();
    options.outbox.startFlushing();
    if ("serviceWorker" in navigator) void navigator.serviceWorker.register("sw.js", { scope: "./" }).catch(() => undefined);
  }

  return { main, drawChrome, showView, start };
}
