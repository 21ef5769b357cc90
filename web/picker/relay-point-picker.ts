import wilayas from "../../resources/wilayas.json";
import css from "./picker.css";
import { addDays, algiersDay, hoursText, isClosedOn, isDay, shortDate, WEEKDAY_KEYS, weekdayIndex } from "./days";
import { Lang, langOf, Messages, MESSAGES } from "./i18n";
import { createMap, PickerMap } from "./map";
import { PublicRelayPoint, SearchFilters, searchRelayPoints } from "./search";

/**
 * <relay-point-picker name="relay_code" lang="ar" wilaya="16" required></relay-point-picker>
 *
 * A checkout's relay-point chooser (issue 28, docs/merchants/checkout-picker.md): a
 * form-associated custom element whose value (the chosen point's code) is submitted with the
 * shop's own form under `name`, which `required` blocks until a point is chosen. It calls our
 * public search (`api-base`, by default the origin this script was loaded from), lives in a
 * shadow root (the shop's CSS cannot break it, it touches nothing of the page), and is themed
 * with --rpp-* custom properties and ::part(). A point closed on the expected arrival day, or
 * that takes no new parcel today, is shown and marked but cannot be chosen.
 */

/** Days a parcel usually travels from the shop to its relay point, when `arrival-date` is not given. */
const USUAL_TRANSIT_DAYS = 2;
/** The wilayas by code (01 to 69, law 26-06 of 2026), for the list and for naming a point's new wilaya. */
const WILAYA_BY_CODE = new Map(wilayas.map(w => [w.code, w]));
/** The commune list's values: a commune's ONS code (four digits), or, for a point without one, its city. */
const COMMUNE_CODE = /^\d{4}$/;

/** Radius of a "near me" search, in km; after it, other searches are ranked by distance within 500 km. */
const NEAR_RADIUS_KM = 30;
const DEBOUNCE_MS = 300;

const SCRIPT_ORIGIN = new URL(import.meta.url).origin;

type El<K extends keyof HTMLElementTagNameMap> = HTMLElementTagNameMap[K];

function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, string> = {}, ...children: (Node | string)[]): El<K> {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name === "class") el.className = value;
    else el.setAttribute(name, value);
  }
  el.append(...children);
  return el;
}

/** Times and codes read left to right, also inside Arabic text. */
const ltr = (text: string) => h("bdi", { dir: "ltr" }, text);

/** A point's name in the picker's language: its Arabic name on an Arabic page, when the directory has one. */
export const nameIn = (point: PublicRelayPoint, lang: Lang) => (lang === "ar" && point.nameAr ? point.nameAr : point.name);

export class RelayPointPicker extends HTMLElement {
  static formAssociated = true;
  static observedAttributes = ["lang", "value", "wilaya", "arrival-date", "transit-days", "disabled", "required", "tiles"];

  readonly #internals: ElementInternals;
  readonly #root: ShadowRoot;
  #points: PublicRelayPoint[] = [];
  #chosen: PublicRelayPoint | null = null;
  #value = "";
  #position: { latitude: number; longitude: number } | null = null;
  #search: AbortController | null = null;
  #debounce: ReturnType<typeof setTimeout> | undefined;
  #map: Promise<PickerMap> | null = null;
  /** The code whose point is being asked for (#lookUpChosen), so that it is asked once. */
  #lookingUp: string | null = null;
  #rendered = false;
  #formDisabled = false;
  // The parts rebuilt by render(); the list and the live status are kept across searches.
  #wilayaSelect!: HTMLSelectElement;
  #citySelect!: HTMLSelectElement;
  #textInput!: HTMLInputElement;
  #nearButton!: HTMLButtonElement;
  #status!: HTMLElement;
  #list!: HTMLElement;
  #summary!: HTMLElement;
  #mapBox!: HTMLElement;
  #wrapper!: HTMLElement;

  constructor() {
    super();
    this.#internals = this.attachInternals();
    this.#root = this.attachShadow({ mode: "open", delegatesFocus: false });
    // A shop's script may set `value` before this module defines the element (it loads deferred): that
    // made an own property hiding the setter. Take it, so that the form submits what was set.
    if (Object.hasOwn(this, "value")) {
      const early = (this as { value?: unknown }).value;
      delete (this as { value?: unknown }).value;
      this.#setValue(typeof early === "string" ? early : "", false);
    }
  }

  // --- the public surface -----------------------------------------------------------------------

  get value(): string {
    return this.#value;
  }
  set value(code: string) {
    this.#setValue(code ?? "", false);
  }
  get form(): HTMLFormElement | null {
    return this.#internals.form;
  }
  get name(): string | null {
    return this.getAttribute("name");
  }
  get validity(): ValidityState {
    return this.#internals.validity;
  }
  get validationMessage(): string {
    return this.#internals.validationMessage;
  }
  get willValidate(): boolean {
    return this.#internals.willValidate;
  }
  checkValidity(): boolean {
    return this.#internals.checkValidity();
  }
  reportValidity(): boolean {
    return this.#internals.reportValidity();
  }
  /** The chosen point as the search gave it, or null. */
  get selectedPoint(): PublicRelayPoint | null {
    return this.#chosen;
  }

  connectedCallback(): void {
    if (!this.#rendered) this.#render();
    const wilaya = this.#initialWilaya();
    if (wilaya && this.#points.length === 0) void this.#runSearch({ wilaya });
    this.#updateValidity();
    void this.#lookUpChosen();
  }

  disconnectedCallback(): void {
    this.#search?.abort();
    clearTimeout(this.#debounce);
  }

  attributeChangedCallback(name: string, old: string | null, now: string | null): void {
    if (old === now) return;
    if (name === "value") {
      // Before the first render too (the parser gives the attributes first): the form value follows.
      this.#setValue(now ?? "", false);
      return;
    }
    if (!this.#rendered) return;
    if (name === "required") this.#updateValidity();
    else if (name === "disabled") this.#applyDisabled();
    else if (name === "wilaya") {
      this.#wilayaSelect.value = this.#initialWilaya() ?? "";
      void this.#runSearch(this.#filters());
    } else {
      // Language, arrival day, transit or tiles: everything shown depends on them (the communes' names too).
      this.#render();
      this.#fillCommunes();
      this.#showPoints();
      this.#updateValidity();
    }
  }

  formResetCallback(): void {
    this.#setValue(this.getAttribute("value") ?? "", false);
  }

  formDisabledCallback(disabled: boolean): void {
    this.#formDisabled = disabled;
    this.#applyDisabled();
  }

  formStateRestoreCallback(state: string | File | FormData | null): void {
    if (typeof state === "string") this.#setValue(state, false);
  }

  // --- settings ------------------------------------------------------------------------------------

  get #lang(): Lang {
    return langOf(this.getAttribute("lang") ?? this.closest("[lang]")?.getAttribute("lang") ?? navigator.language);
  }
  get #t(): Messages {
    return MESSAGES[this.#lang];
  }
  get #apiBase(): string {
    return (this.getAttribute("api-base") ?? SCRIPT_ORIGIN).replace(/\/+$/, "");
  }
  get #required(): boolean {
    return this.hasAttribute("required");
  }
  get #disabled(): boolean {
    return this.hasAttribute("disabled") || this.#formDisabled;
  }
  /** The day the parcel is expected at its relay point: `arrival-date`, else today (Algiers) plus the usual transit. */
  get #arrivalDay(): string {
    const given = this.getAttribute("arrival-date");
    if (isDay(given)) return given;
    const transit = Number(this.getAttribute("transit-days") ?? USUAL_TRANSIT_DAYS);
    return addDays(algiersDay(new Date()), Number.isInteger(transit) && transit >= 0 ? transit : USUAL_TRANSIT_DAYS);
  }

  #initialWilaya(): string | null {
    const raw = (this.getAttribute("wilaya") ?? "").trim();
    return /^\d{1,2}$/.test(raw) && WILAYA_BY_CODE.has(raw.padStart(2, "0")) ? raw.padStart(2, "0") : null;
  }

  /** Why a point cannot be chosen, or null when it can. */
  #refusal(point: PublicRelayPoint): string | null {
    const arrival = this.#arrivalDay;
    if (isClosedOn(point.closures, arrival)) return this.#t.closedOnArrival(shortDate(arrival, this.#lang));
    if (point.notTakingReason === "FULL") return this.#t.full;
    if (!point.takesNewParcels) return this.#t.closedForNew;
    return null;
  }

  // --- rendering -----------------------------------------------------------------------------------

  #render(): void {
    const t = this.#t;
    const lang = this.#lang;
    const id = (s: string) => `rpp-${s}`;
    this.#wilayaSelect = h(
      "select",
      { id: id("wilaya"), part: "select" },
      h("option", { value: "" }, t.anyWilaya),
      ...wilayas.map(w => h("option", { value: w.code }, `${w.code} · ${lang === "ar" ? w.nameAr : w.name}`))
    );
    this.#wilayaSelect.value = this.#initialWilaya() ?? "";
    this.#citySelect = h("select", { id: id("city"), part: "select" }, h("option", { value: "" }, t.anyCity));
    this.#textInput = h("input", { id: id("q"), type: "search", part: "input", placeholder: t.searchPlaceholder, autocomplete: "off" });
    this.#nearButton = h("button", { type: "button", class: "near", part: "button near-me" }, t.nearMe);
    this.#status = h("p", { class: "status", role: "status", part: "status" }, t.start);
    this.#list = h("ul", {
      class: "list",
      role: "listbox",
      part: "list",
      "aria-label": t.list,
      "aria-required": String(this.#required)
    });
    this.#summary = h("div", { class: "chosen", part: "chosen", "aria-live": "polite" });
    this.#mapBox = h("div", { class: "map", part: "map", role: "region", "aria-label": t.map, hidden: "" });
    this.#wrapper = h(
      "div",
      { class: "rpp", part: "container", lang, dir: lang === "ar" ? "rtl" : "ltr" },
      h(
        "div",
        { class: "search", part: "search" },
        this.#nearButton,
        h("label", { class: "field", for: id("wilaya") }, t.wilaya, this.#wilayaSelect),
        h("label", { class: "field", for: id("city") }, t.city, this.#citySelect),
        h("label", { class: "field text", for: id("q") }, t.search, this.#textInput)
      ),
      this.#status,
      this.#mapBox,
      this.#list,
      this.#summary
    );
    const style = h("style", {}, css);
    this.#root.replaceChildren(style, this.#wrapper);
    this.#map = null;
    this.#rendered = true;

    this.#nearButton.addEventListener("click", () => this.#nearMe());
    this.#wilayaSelect.addEventListener("change", () => {
      this.#citySelect.replaceChildren(h("option", { value: "" }, this.#t.anyCity));
      void this.#runSearch(this.#filters());
    });
    this.#citySelect.addEventListener("change", () => void this.#runSearch(this.#filters()));
    this.#textInput.addEventListener("input", () => {
      clearTimeout(this.#debounce);
      this.#debounce = setTimeout(() => void this.#runSearch(this.#filters()), DEBOUNCE_MS);
    });
    this.#textInput.addEventListener("keydown", event => {
      // Enter searches now rather than submitting the shop's form half filled.
      if (event.key === "Enter") {
        event.preventDefault();
        clearTimeout(this.#debounce);
        void this.#runSearch(this.#filters());
      }
    });
    this.#list.addEventListener("keydown", event => this.#onListKey(event));
    this.#list.addEventListener("click", event => {
      const option = (event.target as Element).closest<HTMLElement>("[role=option]");
      if (option) this.#choose(option.dataset.code ?? "", true);
    });
    this.#applyDisabled();
    this.#renderSummary();
  }

  #filters(): SearchFilters {
    const filters: SearchFilters = {};
    if (this.#wilayaSelect.value) filters.wilaya = this.#wilayaSelect.value;
    const place = this.#citySelect.value;
    if (COMMUNE_CODE.test(place)) filters.commune = place;
    else if (place) filters.city = place;
    const q = this.#textInput.value.trim();
    if (q) filters.q = q;
    if (this.#position) {
      // Once the customer gave a position, every search is ranked by distance from it.
      filters.near = this.#position;
      filters.radiusKm = filters.wilaya || filters.q || filters.city || filters.commune ? 500 : NEAR_RADIUS_KM;
    }
    return filters;
  }

  #nearMe(): void {
    const t = this.#t;
    if (!("geolocation" in navigator)) {
      this.#status.textContent = t.locationRefused;
      return;
    }
    this.#status.textContent = t.locating;
    navigator.geolocation.getCurrentPosition(
      pos => {
        this.#position = { latitude: pos.coords.latitude, longitude: pos.coords.longitude };
        this.#wilayaSelect.value = "";
        this.#citySelect.replaceChildren(h("option", { value: "" }, this.#t.anyCity));
        this.#textInput.value = "";
        void this.#runSearch(this.#filters());
      },
      () => {
        this.#status.textContent = this.#t.locationRefused;
      },
      { enableHighAccuracy: false, timeout: 15_000, maximumAge: 300_000 }
    );
  }

  async #runSearch(filters: SearchFilters): Promise<void> {
    this.#search?.abort();
    const controller = new AbortController();
    this.#search = controller;
    if (!filters.wilaya && !filters.city && !filters.q && !filters.near) {
      this.#points = [];
      this.#status.textContent = this.#t.start;
      this.#showPoints();
      return;
    }
    this.#status.textContent = this.#t.loading;
    try {
      this.#points = await searchRelayPoints(this.#apiBase, filters, controller.signal);
    } catch (err) {
      if (controller.signal.aborted) return;
      this.#points = [];
      this.#showPoints();
      this.#status.textContent = this.#t.failed;
      void err;
      return;
    }
    if (controller.signal.aborted) return;
    if (!filters.city && !filters.commune) this.#fillCommunes();
    this.#showPoints();
  }

  /** The communes of the points found, named in the picker's language, for the second list (a point without a commune by its city). */
  #fillCommunes(): void {
    const chosen = this.#citySelect.value;
    const places = new Map<string, string>();
    for (const p of this.#points) {
      if (p.commune) places.set(p.commune, (this.#lang === "ar" ? p.communeNameAr : p.communeName) ?? p.city);
      else places.set(p.city, p.city);
    }
    const sorted = [...places].sort(([, a], [, b]) => a.localeCompare(b, this.#lang));
    this.#citySelect.replaceChildren(
      h("option", { value: "" }, this.#t.anyCity),
      ...sorted.map(([value, label]) => h("option", { value }, label))
    );
    this.#citySelect.value = places.has(chosen) ? chosen : "";
  }

  /** A point found through the wilaya it belonged to before 2026 (the list's wilaya): where it is now, or null. */
  #movedBadge(point: PublicRelayPoint): HTMLElement | null {
    const chosen = this.#wilayaSelect.value;
    if (!chosen || !point.wilaya || point.wilaya === chosen || point.formerWilaya !== chosen) return null;
    const now = WILAYA_BY_CODE.get(point.wilaya);
    if (!now) return null;
    return h(
      "span",
      { class: "badge", part: "badge moved" },
      this.#t.nowInWilaya(point.wilaya, this.#lang === "ar" ? now.nameAr : now.name)
    );
  }

  #showPoints(): void {
    const t = this.#t;
    const points = this.#points;
    // The point set by the shop, found by this search: what the summary and the validity speak of.
    const listed = this.#value !== "" && this.#chosen?.code !== this.#value ? points.find(p => p.code === this.#value) : undefined;
    if (listed) {
      this.#chosen = listed;
      this.#updateValidity();
      this.#renderSummary();
    }
    if (points.length > 0 || this.#status.textContent !== t.start) {
      this.#status.textContent = points.length === 0 ? t.none : t.found(points.length);
    }
    const today = algiersDay(new Date());
    const weekday = WEEKDAY_KEYS[weekdayIndex(today)];
    const options = points.map(point => {
      const refusal = this.#refusal(point);
      const selected = point.code === this.#value;
      const hours = point.openingHours ? point.openingHours[weekday] : null;
      const badges = h("span", { class: "badges" });
      badges.append(h("span", { class: point.openNow ? "badge open" : "badge", part: "badge" }, point.openNow ? t.openNow : t.closedNow));
      if (hours)
        badges.append(h("span", { class: "badge", part: "badge" }, t.today, " ", hours.length ? ltr(hoursText(hours)) : t.closedToday));
      for (const c of point.closures) {
        badges.append(h("span", { class: "badge", part: "badge" }, t.closedOn(shortDate(c.from, this.#lang), shortDate(c.to, this.#lang))));
      }
      const moved = this.#movedBadge(point);
      if (moved) badges.append(moved);
      if (refusal) badges.append(h("span", { class: "badge warn", part: "badge unavailable" }, refusal));
      const option = h(
        "li",
        {
          role: "option",
          class: "option",
          id: `rpp-opt-${point.code}`,
          part: `option${selected ? " option-selected" : ""}${refusal ? " option-unavailable" : ""}`,
          "aria-selected": String(selected),
          tabindex: "-1",
          "data-code": point.code
        },
        h("span", { class: "name", dir: "auto" }, nameIn(point, this.#lang)),
        h(
          "span",
          { class: "distance" },
          point.distanceKm === undefined ? "" : t.km(point.distanceKm.toLocaleString(`${this.#lang}-u-nu-latn`))
        ),
        h("span", { class: "meta", dir: "auto" }, [point.address, point.city].filter(Boolean).join(" — ")),
        badges
      );
      if (refusal) option.setAttribute("aria-disabled", "true");
      return option;
    });
    this.#list.replaceChildren(...options);
    // One option is reachable by Tab (the chosen one, else the first): arrows move between them.
    const current = options.find(o => o.getAttribute("aria-selected") === "true") ?? options[0];
    if (current) current.tabIndex = this.#disabled ? -1 : 0;
    this.#list.hidden = options.length === 0;
    void this.#updateMap();
  }

  #onListKey(event: KeyboardEvent): void {
    const options = [...this.#list.querySelectorAll<HTMLElement>("[role=option]")];
    const index = options.indexOf(this.#root.activeElement as HTMLElement);
    if (index < 0 || this.#disabled) return;
    let next = index;
    switch (event.key) {
      case "ArrowDown":
        next = Math.min(options.length - 1, index + 1);
        break;
      case "ArrowUp":
        next = Math.max(0, index - 1);
        break;
      case "Home":
        next = 0;
        break;
      case "End":
        next = options.length - 1;
        break;
      case "Enter":
      case " ":
        event.preventDefault();
        this.#choose(options[index].dataset.code ?? "", true);
        return;
      default:
        return;
    }
    event.preventDefault();
    this.#focusOption(options, next);
  }

  #focusOption(options: HTMLElement[], index: number): void {
    for (const [i, o] of options.entries()) o.tabIndex = i === index ? 0 : -1;
    options[index]?.focus();
  }

  #choose(code: string, byUser: boolean): void {
    const point = this.#points.find(p => p.code === code);
    if (!point || this.#disabled || this.#refusal(point)) return;
    this.#setValue(code, byUser);
  }

  #setValue(code: string, byUser: boolean): void {
    this.#value = code;
    this.#chosen = this.#points.find(p => p.code === code) ?? (this.#chosen?.code === code ? this.#chosen : null);
    this.#internals.setFormValue(code === "" ? null : code, code);
    this.#updateValidity();
    if (!this.#chosen) void this.#lookUpChosen();
    if (!this.#rendered) return;
    const focused = this.#root.activeElement as HTMLElement | null;
    const hadFocus = !!focused?.dataset.code;
    this.#showPoints();
    this.#renderSummary();
    const option = this.#root.getElementById(`rpp-opt-${code}`);
    if (hadFocus) option?.focus();
    // Chosen on the map: the list shows it too.
    else if (byUser) option?.scrollIntoView({ block: "nearest" });
    if (byUser && this.#chosen) {
      this.#status.textContent = this.#t.selected(nameIn(this.#chosen, this.#lang));
      this.dispatchEvent(new CustomEvent("relaypointselect", { detail: { point: this.#chosen }, bubbles: true, composed: true }));
      this.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }

  #renderSummary(): void {
    const t = this.#t;
    const point = this.#chosen;
    if (!point || point.code !== this.#value) {
      this.#summary.replaceChildren(this.#value ? h("strong", {}, t.chosen, " ", h("bdi", {}, this.#value)) : t.nothingChosen);
      return;
    }
    const week = h("ul", { class: "week" });
    if (point.openingHours) {
      // Saturday first, as the Algerian week runs.
      for (const i of [6, 0, 1, 2, 3, 4, 5]) {
        const ranges = point.openingHours[WEEKDAY_KEYS[i]];
        week.append(h("li", {}, `${t.weekdays[i]} `, ranges.length ? ltr(hoursText(ranges)) : t.closedToday));
      }
    }
    this.#summary.replaceChildren(
      h("strong", {}, t.chosen, " ", h("bdi", {}, nameIn(point, this.#lang))),
      h("span", { dir: "auto" }, [point.address, point.city, point.code].filter(Boolean).join(" — ")),
      week
    );
  }

  #updateValidity(): void {
    const anchor = this.#rendered ? this.#textInput : undefined;
    // A point set by the shop (a returning customer's) that cannot take this parcel is not submitted silently.
    const refused = this.#chosen?.code === this.#value && this.#value !== "" ? this.#refusal(this.#chosen) : null;
    if (this.#required && this.#value === "") this.#internals.setValidity({ valueMissing: true }, this.#t.required, anchor);
    else if (refused)
      this.#internals.setValidity({ customError: true }, this.#t.chooseAnother(nameIn(this.#chosen!, this.#lang), refused), anchor);
    else this.#internals.setValidity({});
  }

  /**
   * A code set by the shop (the `value` attribute or property) whose point the list does not hold:
   * asked for by its code, so that the customer sees the point's name and hours, not a bare code.
   */
  async #lookUpChosen(): Promise<void> {
    const code = this.#value;
    if (code === "" || this.#chosen?.code === code || this.#lookingUp === code || !this.isConnected) return;
    this.#lookingUp = code;
    try {
      const found = await searchRelayPoints(this.#apiBase, { q: code }, AbortSignal.timeout(15_000));
      const point = found.find(p => p.code === code);
      if (!point || this.#value !== code) return;
      this.#chosen = point;
      this.#updateValidity();
      if (this.#rendered) this.#renderSummary();
    } catch {
      // The summary keeps the code: what is submitted is shown either way.
    } finally {
      if (this.#lookingUp === code) this.#lookingUp = null;
    }
  }

  #applyDisabled(): void {
    if (!this.#rendered) return;
    const off = this.#disabled;
    for (const control of [this.#wilayaSelect, this.#citySelect, this.#textInput, this.#nearButton]) control.disabled = off;
    this.#list.setAttribute("aria-disabled", String(off));
    for (const o of this.#list.querySelectorAll<HTMLElement>("[role=option]")) if (off) o.tabIndex = -1;
    if (!off) this.#showPoints();
  }

  async #updateMap(): Promise<void> {
    const tiles = this.getAttribute("tiles");
    if (!tiles || this.#points.length === 0) {
      this.#mapBox.hidden = true;
      return;
    }
    this.#mapBox.hidden = false;
    // Static import (one file to serve); Leaflet itself is fetched only now, by map.ts.
    this.#map ??= createMap(this.#root, this.#mapBox, {
      apiBase: this.#apiBase,
      tiles,
      attribution: this.getAttribute("tiles-attribution") ?? "",
      onChoose: code => this.#choose(code, true)
    });
    try {
      const lang = this.#lang;
      (await this.#map).show(
        this.#points,
        this.#value || null,
        p => this.#refusal(p) === null,
        p => nameIn(p, lang)
      );
    } catch {
      // No map is no loss: the list has everything.
      this.#mapBox.hidden = true;
    }
  }
}

if (!customElements.get("relay-point-picker")) customElements.define("relay-point-picker", RelayPointPicker);

declare global {
  interface HTMLElementTagNameMap {
    "relay-point-picker": RelayPointPicker;
  }
}
