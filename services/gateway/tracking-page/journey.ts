import { formatDateTime } from "../../../lib/algiers-format";
import type { Lang } from "../../../lib/languages";
import type { JourneyStep, TrackingPageParcel } from "../../../lib/public-tracking";
import { wilayaName } from "../../../lib/wilayas";
import { Html, html } from "./html";

/**
 * The middle mile on the tracking page (issue 44 E, decision 0058): the network's steps between
 * "collected" and "at your relay point", in the reader's language, the wilaya named in the
 * reader's script (lib/wilayas.ts). The page merges them into its history by time.
 */

interface JourneyWording {
  /** `name` is the wilaya's name, already isolated. */
  atHub: (name: Html) => Html;
  missorted: (name: Html) => Html;
  /** A mis-sort at a relay point (no wilaya): brought to another relay point. */
  wrongRelay: string;
  toRelay: string;
}

const place = (code: string | null, lang: Lang): Html => {
  const name = wilayaName(code, lang);
  return name ? html`<bdi>${name}</bdi>` : html`<bdi dir="ltr">${code ?? "?"}</bdi>`;
};

/** French elides "de" before a vowel: "wilaya d’Alger", "wilaya d’Oran", "wilaya de Blida". */
const deFr = (name: Html) => (/^<bdi[^>]*>[AEIOUYÂÉÈÎÏÔ]/iu.test(name.text) ? html`d’${name}` : html`de ${name}`);

export const JOURNEY_MESSAGES: Record<Lang, JourneyWording> = {
  fr: {
    atHub: name => html`Au centre de tri, wilaya ${deFr(name)}`,
    missorted: name => html`Passé par erreur par la wilaya ${deFr(name)}, renvoyé vers votre point relais`,
    wrongRelay: "Arrivé par erreur à un autre point relais, renvoyé vers le vôtre",
    toRelay: "En route vers votre point relais"
  },
  ar: {
    atHub: name => html`في مركز الفرز، ولاية ${name}`,
    missorted: name => html`مرّ خطأً عبر ولاية ${name}، وأُعيد توجيهه إلى نقطة الاستلام`,
    wrongRelay: "وصل خطأً إلى نقطة استلام أخرى، وأُعيد توجيهه إلى نقطتك",
    toRelay: "في الطريق إلى نقطة الاستلام"
  },
  en: {
    atHub: name => html`At the sorting hub in ${name}`,
    missorted: name => html`Sent to ${name} by mistake, now on its way to your relay point`,
    wrongRelay: "Brought to another relay point by mistake, now on its way to yours",
    toRelay: "On its way to your relay point"
  }
};

/** One step's words: what the page shows in its history and, when it is the latest news, under the status. */
export function journeyTitle(step: JourneyStep, lang: Lang): Html {
  const m = JOURNEY_MESSAGES[lang];
  if (step.step === "to_relay") return html`${m.toRelay}`;
  if (step.step === "missorted" && step.wilaya === null) return html`${m.wrongRelay}`;
  return step.step === "at_hub" ? m.atHub(place(step.wilaya, lang)) : m.missorted(place(step.wilaya, lang));
}

/** A history line of each step, with its time, to merge with the statuses' lines. */
export function journeyLines(parcel: TrackingPageParcel, lang: Lang): { occurredAt: string; line: Html }[] {
  return (parcel.journey ?? []).map(step => ({
    occurredAt: step.occurredAt,
    line: html`<li class="step"><span class="event">${journeyTitle(step, lang)}</span><time class="when" datetime="${step.occurredAt}">${formatDateTime(step.occurredAt, lang)}</time></li>`
  }));
}

/** The latest step, when the parcel is still on its way and nothing newer happened to its status. */
export function latestStepWhileInTransit(parcel: TrackingPageParcel): JourneyStep | null {
  const journey = parcel.journey ?? [];
  const last = journey[journey.length - 1];
  if (!last || parcel.status !== "IN_TRANSIT") return null;
  const lastStatusAt = parcel.events.length > 0 ? Date.parse(parcel.events[parcel.events.length - 1].occurredAt) : 0;
  return Date.parse(last.occurredAt) >= lastStatusAt ? last : null;
}
