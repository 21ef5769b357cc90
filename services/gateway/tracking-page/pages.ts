import { algiersClock, formatOpeningHours, OpeningHours, openingStatusAt, weekdayName } from "../../../lib/opening-hours";
import type { ParcelStatus } from "../../../lib/parcel-status";
import type { TrackingPageDestination, TrackingPageParcel } from "../../../lib/public-tracking";
import { formatDateTime, formatDzd } from "../../../lib/algiers-format";
import { wilayaName } from "../../../lib/wilayas";
import { Html, html } from "./html";
import { passPagePath, renderLayout, TRACK_PATH, trackingPagePath } from "./layout";
import { passCard } from "./pass-card";
import { notMeCard } from "./not-me";
import { Messages, MESSAGES } from "./messages";
import type { PageOptions } from "./page-options";
import { CHANGE_MESSAGES } from "./change-messages";
import { changeRelayPath, isChangeable } from "./change-relay";
import { pinCard } from "./pin-resend";
import { journeyLines, journeyTitle, latestStepWhileInTransit } from "./journey";

export type { PageOptions };

export type NumberProblem = "empty" | "malformed";

/** Until the parcel is handed over, the recipient needs to know the cash to bring. */
const AWAITING_COLLECTION: readonly ParcelStatus[] = [
  "CREATED",
  "READY_FOR_PICKUP",
  "PICKED_UP",
  "IN_TRANSIT",
  "AT_RELAY",
  "RELAY_NOTIFIED"
];
/** Waiting at the relay point, where the pick-up deadline runs. */
const ON_SHELF: readonly ParcelStatus[] = ["AT_RELAY", "RELAY_NOTIFIED"];
const GOOD_NEWS: readonly ParcelStatus[] = ["AT_RELAY", "RELAY_NOTIFIED", "DELIVERED"];
const BAD_NEWS: readonly ParcelStatus[] = ["RETURN_PENDING", "RETURNED", "LOST", "DAMAGED", "CANCELLED"];
const MAX_SHOWN_INPUT = 64;

/** ` class="a b"`, or nothing when no class applies. */
function classes(...names: (string | false)[]): Html | "" {
  const list = names.filter(Boolean).join(" ");
  return list ? html` class="${list}"` : "";
}

function trackingNumber(value: string): Html {
  return html`<span class="tn">${value}</span>`;
}

function trackingForm(m: Messages, options: PageOptions, value: string, problem?: NumberProblem): Html {
  const error = problem === "empty" ? m.emptyNumber : problem === "malformed" ? m.malformedNumber : null;
  const describedBy = error ? "number-hint number-error" : "number-hint";
  return html`<form class="card" method="get" action="${TRACK_PATH}">
<div class="field">
<label for="number">${m.numberLabel}</label>
<span class="hint" id="number-hint">${m.numberHint}</span>
${error ? html`<span class="error" id="number-error">${error}</span>` : ""}
<input type="text" id="number" name="number" value="${value.slice(0, MAX_SHOWN_INPUT)}" maxlength="${MAX_SHOWN_INPUT}" required autocomplete="off" autocapitalize="characters" spellcheck="false" aria-describedby="${describedBy}"${error ? new Html(' aria-invalid="true"') : ""}>
</div>
${options.linkLang ? html`<input type="hidden" name="lang" value="${options.linkLang}">` : ""}
<button type="submit">${m.submit}</button>
</form>`;
}

/** `GET /track`: the form; again with the problem when the number typed cannot be one. */
export function renderTrackingFormPage(options: PageOptions & { value?: string; problem?: NumberProblem }): string {
  const m = MESSAGES[options.lang];
  return renderLayout({
    brand: options.brand,
    lang: options.lang,
    linkLang: options.linkLang,
    title: `${m.formHeading}`,
    path: TRACK_PATH,
    main: html`<h1>${m.formHeading}</h1>
<p>${m.formIntro}</p>
${trackingForm(m, options, options.value ?? "", options.problem)}`
  });
}

/** An unknown (or impossible) number: said plainly, with the form to try again. */
export function renderNotFoundPage(options: PageOptions & { number: string; reason: "unknown" | "malformed" }): string {
  const m = MESSAGES[options.lang];
  const shown = options.number.slice(0, MAX_SHOWN_INPUT);
  const [before, after] = m.notFoundBody.split("{number}");
  const explanation =
    options.reason === "malformed"
      ? html`<p>${m.malformedNumber}</p>`
      : html`<p>${before}${trackingNumber(shown)}${after}</p><p>${m.notFoundHelp}</p>`;
  return renderLayout({
    brand: options.brand,
    lang: options.lang,
    linkLang: options.linkLang,
    title: `${m.notFoundHeading}`,
    path: options.reason === "unknown" ? trackingPagePath(shown) : TRACK_PATH,
    main: html`<h1>${m.notFoundHeading}</h1>
<section class="card status bad" role="status">${explanation}</section>
<h2>${m.formHeading}</h2>
${trackingForm(m, options, shown)}`
  });
}

/** Too many lookups from one address: said plainly, with nothing to retry until the minute is over. */
export function renderTooManyRequestsPage(options: PageOptions & { number: string }): string {
  const m = MESSAGES[options.lang];
  return renderLayout({
    brand: options.brand,
    lang: options.lang,
    linkLang: options.linkLang,
    title: `${m.tooManyHeading}`,
    path: trackingPagePath(options.number.slice(0, MAX_SHOWN_INPUT)),
    main: html`<h1>${m.tooManyHeading}</h1>
<section class="card status bad" role="status"><p>${m.tooManyBody}</p></section>`
  });
}

function openingHoursBlock(hours: OpeningHours | null, m: Messages, options: PageOptions): Html {
  if (!hours) return html`<p class="muted">${m.noOpeningHours}</p>`;
  const now = options.now ?? new Date();
  const today = algiersClock(now).day;
  const status = openingStatusAt(hours, now);
  const statusText = status.open
    ? m.openNow(status.closesAt)
    : m.closedNow(status.opensAt && { ...status.opensAt, day: weekdayName(status.opensAt.day, options.lang) });
  const rows = formatOpeningHours(hours, options.lang, today).map(
    row =>
      html`<tr${classes(row.includesToday && "today", row.closed && "off")}><th scope="row">${row.days}${
        row.includesToday ? html`<span class="tag">${m.today}</span>` : ""
      }</th><td>${row.ranges.map(r => html`<span>${r}</span>`)}</td></tr>`
  );
  return html`<p class="now ${status.open ? "open" : "closed"}">${statusText}</p>
<table class="hours"><caption>${m.openingHours}</caption><tbody>${rows}</tbody></table>`;
}

function mapLink(destination: TrackingPageDestination, m: Messages): Html | "" {
  const { latitude, longitude } = destination;
  if (typeof latitude !== "number" || typeof longitude !== "number" || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return "";
  const lat = latitude.toFixed(6);
  const lng = longitude.toFixed(6);
  return html`<p><a href="https://www.openstreetmap.org/?mlat=${lat}&amp;mlon=${lng}#map=18/${lat}/${lng}" rel="noopener noreferrer">${m.map}</a></p>`;
}

/** "Wilaya 68 – Bou Saâda": where the point is on the map the recipient knows (the code may still say 28). */
function wilayaLine(code: string | null | undefined, m: Messages, options: PageOptions): Html | "" {
  const name = wilayaName(code, options.lang);
  return name ? html`<span class="wilaya">${m.wilaya} <bdi dir="ltr">${code!}</bdi> – <bdi>${name}</bdi></span>` : "";
}

function relayBlock(destination: TrackingPageDestination, m: Messages, options: PageOptions): Html {
  const arabic = options.lang === "ar";
  const name = (arabic && destination.nameAr) || destination.name;
  const city = (arabic && destination.cityAr) || destination.city;
  const address = destination.address;
  // Addresses are written in Latin script; isolated so that an Arabic line keeps its order.
  const addressLine = address ? html`<bdi>${address}</bdi>` : "";
  const cityShown = !address || arabic || !address.toLocaleLowerCase("fr").includes(destination.city.toLocaleLowerCase("fr"));
  return html`<section class="card" aria-labelledby="relay-heading">
<h2 id="relay-heading">${m.relayHeading}</h2>
<p class="place"><bdi>${name}</bdi></p>
<p>${[addressLine, cityShown ? html`<bdi>${city}</bdi>` : "", wilayaLine(destination.wilaya, m, options)]
    .filter(part => part !== "")
    .map((part, i) => (i === 0 ? part : html`<br>${part}`))}</p>
<p class="muted">${m.relayCode} ${trackingNumber(destination.code)}</p>
${openingHoursBlock(destination.openingHours, m, options)}
${mapLink(destination, m)}
</section>`;
}

/** Before arrival: the way to the "change relay point" page. */
function changeCard(trackingNumber: string, options: PageOptions): Html {
  const c = CHANGE_MESSAGES[options.lang];
  return html`<section class="card" aria-labelledby="change-heading">
<h2 id="change-heading">${c.heading}</h2>
<p>${c.intro}</p>
<p><a href="${changeRelayPath(trackingNumber, { lang: options.linkLang })}">${c.link}</a></p>
</section>`;
}

/** `GET /track/{number}` of a known parcel. Reads only the public fields it names. */
export function renderParcelPage(parcel: TrackingPageParcel, options: PageOptions): string {
  const { lang } = options;
  const m = MESSAGES[lang];
  const current = m.statuses[parcel.status];
  const newestFirst = [...parcel.events].reverse();
  const lastUpdate = newestFirst[0];
  const tone = GOOD_NEWS.includes(parcel.status) ? "ok" : BAD_NEWS.includes(parcel.status) && "bad";
  const cod =
    parcel.codToPayDzd !== null && parcel.codToPayDzd > 0 && AWAITING_COLLECTION.includes(parcel.status)
      ? html`<section class="card cod" aria-labelledby="cod-heading">
<h2 id="cod-heading">${m.codHeading}</h2>
<p class="amount">${formatDzd(parcel.codToPayDzd, lang)}</p>
<p>${m.codNote}</p>
</section>`
      : "";
  const deadline =
    parcel.pickupDeadline !== null && ON_SHELF.includes(parcel.status)
      ? html`<section class="card deadline" aria-labelledby="deadline-heading">
<h2 id="deadline-heading">${m.collectBefore}</h2>
<p class="amount"><time datetime="${parcel.pickupDeadline}">${formatDateTime(parcel.pickupDeadline, lang)}</time></p>
<p>${m.collectBeforeNote}</p>
</section>`
      : "";
  const returnCode =
    parcel.returnCodeSentAt !== null
      ? html`<section class="card" aria-labelledby="return-heading">
<h2 id="return-heading">${m.returnCodeSent}</h2>
<p class="muted"><time datetime="${parcel.returnCodeSentAt}">${formatDateTime(parcel.returnCodeSentAt, lang)}</time></p>
<p>${m.returnCodeSentNote}</p>
</section>`
      : "";
  const statusLines = newestFirst.map(event => ({
    occurredAt: event.occurredAt,
    line: html`<li><span class="event">${m.statuses[event.status].title}</span><time class="when" datetime="${event.occurredAt}">${formatDateTime(event.occurredAt, lang)}</time></li>`
  }));
  // Decision 0058: the middle mile's steps between the statuses, newest first; a step above the status its scan made.
  const history = [...journeyLines(parcel, lang).reverse(), ...statusLines]
    .map((entry, index) => ({ ...entry, index }))
    .sort((a, b) => Date.parse(b.occurredAt) - Date.parse(a.occurredAt) || a.index - b.index)
    .map(entry => entry.line);
  const step = latestStepWhileInTransit(parcel);
  return renderLayout({
    brand: options.brand,
    lang,
    linkLang: options.linkLang,
    title: `${m.parcelHeading} ${parcel.trackingNumber}`,
    path: options.pass ? passPagePath(parcel.trackingNumber, options.pass.key) : trackingPagePath(parcel.trackingNumber),
    main: html`<h1>${m.parcelHeading} ${trackingNumber(parcel.trackingNumber)}</h1>
${parcel.sandbox ? html`<p class="card sandbox" role="note">${m.sandbox}</p>` : ""}
<section${classes("card", "status", tone)} aria-labelledby="status-heading">
<h2 id="status-heading" class="muted">${m.currentStatus}</h2>
<p class="status-title">${current.title}</p>
<p>${step ? journeyTitle(step, lang) : current.detail}</p>
${lastUpdate ? html`<p class="muted">${m.lastUpdate} <time datetime="${lastUpdate.occurredAt}">${formatDateTime(lastUpdate.occurredAt, lang)}</time></p>` : ""}
</section>
${options.changed ? html`<p class="card status ok" role="status">${CHANGE_MESSAGES[lang].changed}</p>` : ""}
${deadline}
${options.pass ? passCard(options.pass.text, parcel.status, lang) : ""}
${options.pass?.notMe ? notMeCard(parcel.trackingNumber, options.pass.key, options) : ""}
${pinCard(parcel, options)}
${returnCode}
${cod}
${relayBlock(parcel.destination, m, options)}
${isChangeable(parcel) ? changeCard(parcel.trackingNumber, options) : ""}
${
  history.length > 0
    ? html`<section class="card" aria-labelledby="history-heading">
<h2 id="history-heading">${m.historyHeading}</h2>
<ol class="timeline" reversed>${history}</ol>
</section>`
    : ""
}
<p><a href="${trackingPagePath(null, options.linkLang)}">${m.trackAnother}</a></p>`
  });
}
