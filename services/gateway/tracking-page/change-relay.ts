import wilayas from "../../../resources/wilayas.json";
import type { TrackingPageParcel } from "../../../lib/public-tracking";
import type { RelayPointSearchItem } from "../../parcels/parcels.contract";
import { CHANGE_MESSAGES, ChangeProblem } from "./change-messages";
import { formTokenField } from "./form-guard";
import { Html, html } from "./html";
import { renderLayout, TRACK_PATH } from "./layout";
import type { PageOptions } from "./page-options";

/**
 * "Change relay point" (issue 21), without JavaScript: three plain forms on one page. The first
 * asks for the SMS code (POST, then back here with `sent=1`); the second searches relay points by
 * wilaya and city (GET, so the result is a page like any other); the third sends the code and the
 * chosen point (POST, then the parcel's page on success, or back here saying what went wrong).
 */

/** Before arrival, and not a test parcel: the statuses in which the page offers the change. */
const CHANGEABLE = ["CREATED", "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT"];

export function isChangeable(parcel: Pick<TrackingPageParcel, "status" | "sandbox">): boolean {
  return !parcel.sandbox && CHANGEABLE.includes(parcel.status);
}

/** `/track/{n}/change`, with the query given (lang first when set). */
export function changeRelayPath(trackingNumber: string, query: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));
  const text = search.toString();
  return `${TRACK_PATH}/${encodeURIComponent(trackingNumber)}/change${text ? `?${text}` : ""}`;
}

export interface ChangeRelayView {
  sent: boolean;
  problem: ChangeProblem | null;
  wilaya: string;
  city: string;
  /** null before any search. */
  results: RelayPointSearchItem[] | null;
}

const langField = (options: PageOptions) => (options.linkLang ? html`<input type="hidden" name="lang" value="${options.linkLang}">` : "");

/** What a posted form carries back to the page: the language picked and the search made. */
const keptFields = (options: PageOptions, view: ChangeRelayView) =>
  html`${langField(options)}<input type="hidden" name="wilaya" value="${view.wilaya}"><input type="hidden" name="city" value="${view.city}">`;

function wilayaOptions(options: PageOptions, chosen: string): Html[] {
  return wilayas.map(w => {
    const name = options.lang === "ar" ? w.nameAr : w.name;
    return chosen === w.code
      ? html`<option value="${w.code}" selected>${w.code} – ${name}</option>`
      : html`<option value="${w.code}">${w.code} – ${name}</option>`;
  });
}

/** One line per part (no comma between Latin parts in an Arabic line); the city only when the address lacks it. */
function relayChoices(results: RelayPointSearchItem[], current: string): Html[] {
  return results
    .filter(r => r.code !== current)
    .map(r => {
      const cityShown = !r.address || !r.address.toLocaleLowerCase("fr").includes(r.city.toLocaleLowerCase("fr"));
      return html`<li><label><input type="radio" name="destinationRelayCode" value="${r.code}" required>
<span><bdi class="place">${r.name}</bdi><br>${r.address ? html`<bdi>${r.address}</bdi><br>` : ""}${cityShown ? html`<bdi>${r.city}</bdi><br>` : ""}<span class="tn">${r.code}</span></span></label></li>`;
    });
}

export function renderChangeRelayPage(parcel: TrackingPageParcel, options: PageOptions, view: ChangeRelayView): string {
  const c = CHANGE_MESSAGES[options.lang];
  const tn = parcel.trackingNumber;
  const lang = options.linkLang;
  const back = html`<p><a href="${`${TRACK_PATH}/${encodeURIComponent(tn)}${lang ? `?lang=${lang}` : ""}`}">${c.back}</a></p>`;
  const problem = view.problem ? html`<section class="card status bad" role="alert"><p>${c.problems[view.problem]}</p></section>` : "";
  const shell = (main: Html) =>
    renderLayout({
      brand: options.brand,
      lang: options.lang,
      linkLang: lang,
      title: `${c.heading} ${tn}`,
      path: changeRelayPath(tn),
      main
    });
  if (!isChangeable(parcel)) {
    return shell(html`<h1>${c.heading} <span class="tn">${tn}</span></h1>
${problem}<section class="card status bad" role="status"><p>${c.notChangeable}</p></section>
${back}`);
  }
  const choices = view.results === null ? null : relayChoices(view.results, parcel.destination.code);
  const sentNote = view.sent ? html`<p class="note ok" role="status">${c.codeSent}</p>` : "";
  return shell(html`<h1>${c.heading} <span class="tn">${tn}</span></h1>
${problem}<p>${c.intro}</p>
<section class="card" aria-labelledby="code-step">
<h2 id="code-step">${c.codeStep}</h2>
<p>${c.codeIntro}</p>
${sentNote}
<form method="post" action="${changeRelayPath(tn)}/code">
${formTokenField(options, `${changeRelayPath(tn)}/code`)}${keptFields(options, view)}
<button type="submit">${c.sendCode}</button>
</form>
</section>
<section class="card" aria-labelledby="search-step">
<h2 id="search-step">${c.searchStep}</h2>
<form method="get" action="${changeRelayPath(tn)}">
${langField(options)}${view.sent ? html`<input type="hidden" name="sent" value="1">` : ""}
<div class="field"><label for="wilaya">${c.wilaya}</label>
<select id="wilaya" name="wilaya"><option value="">${c.anyWilaya}</option>${wilayaOptions(options, view.wilaya)}</select></div>
<div class="field"><label for="city">${c.city}</label>
<input type="text" class="plain" id="city" name="city" value="${view.city}" maxlength="100" autocomplete="address-level2"></div>
<button type="submit">${c.search}</button>
</form>
</section>
<section class="card" aria-labelledby="confirm-step">
<h2 id="confirm-step">${c.confirmStep}</h2>
<form method="post" action="${changeRelayPath(tn)}">
${formTokenField(options, changeRelayPath(tn))}${keptFields(options, view)}
<fieldset><legend>${c.newRelay}</legend>
${
  choices === null
    ? html`<p class="muted">${c.searchFirst}</p>`
    : choices.length === 0
      ? html`<p class="muted">${c.noRelay}</p>`
      : html`<ul class="choices">${choices}</ul>`
}
</fieldset>
<div class="field"><label for="code">${c.code}</label>
<span class="hint" id="code-hint">${c.codeHint}</span>
<input type="text" id="code" name="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" required autocomplete="one-time-code" aria-describedby="code-hint"></div>
<button type="submit">${c.confirm}</button>
</form>
</section>
${back}`);
}
