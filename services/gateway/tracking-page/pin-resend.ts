import type { Lang } from "../../../lib/languages";
import type { TrackingPageParcel } from "../../../lib/public-tracking";
import { formTokenField } from "./form-guard";
import { html, Html } from "./html";
import { renderLayout, TRACK_PATH, trackingPagePath } from "./layout";
import type { PageOptions } from "./page-options";

/**
 * "Send me the code again" (issue 30), without JavaScript: on the page of a parcel waiting at its
 * relay point, the reminder to bring the SMS code and a form that asks for a new one. The answer
 * page says the same for any number (the new code goes only to the phone on file), or, past the
 * day's three, that no more can be sent today.
 */

const PIN_RESEND_MESSAGES: Record<
  Lang,
  {
    heading: string;
    bring: string;
    lost: string;
    button: string;
    sentHeading: string;
    sent: string;
    limitedHeading: string;
    limited: string;
    back: string;
  }
> = {
  fr: {
    heading: "Votre code de retrait",
    bring: "Apportez le code à 6 chiffres reçu par SMS : le point relais le demande pour vous remettre le colis.",
    lost: "SMS perdu ou code bloqué ? Un nouveau code peut être envoyé au numéro donné par l'expéditeur (3 fois par jour au plus). L'ancien code ne marchera plus.",
    button: "M'envoyer le code à nouveau",
    sentHeading: "Demande reçue",
    sent: "Si ce colis attend dans un point relais, un nouveau code part par SMS vers le numéro donné par l'expéditeur. L'ancien code ne marche plus.",
    limitedHeading: "Plus d'envoi aujourd'hui",
    limited: "Trois nouveaux codes ont déjà été demandés aujourd'hui pour ce colis. Utilisez le dernier SMS reçu, ou réessayez demain.",
    back: "Retour au suivi du colis"
  },
  ar: {
    heading: "رمز الاستلام",
    bring: "أحضر الرمز المكوّن من 6 أرقام الذي وصلك في الرسالة القصيرة: تطلبه نقطة الاستلام لتسليمك الطرد.",
    lost: "فقدت الرسالة أو أُقفل الرمز؟ يمكن إرسال رمز جديد إلى الرقم الذي أعطاه المرسل (3 مرات في اليوم على الأكثر). لن يعمل الرمز القديم بعد ذلك.",
    button: "أرسل لي الرمز من جديد",
    sentHeading: "تم استلام الطلب",
    sent: "إذا كان هذا الطرد ينتظر في نقطة استلام، فسيُرسل رمز جديد في رسالة قصيرة إلى الرقم الذي أعطاه المرسل. الرمز القديم لم يعد صالحا.",
    limitedHeading: "لا مزيد من الإرسال اليوم",
    limited: "طُلبت ثلاثة رموز جديدة اليوم لهذا الطرد. استعمل آخر رسالة وصلتك، أو أعد المحاولة غدا.",
    back: "العودة إلى تتبع الطرد"
  },
  en: {
    heading: "Your pick-up code",
    bring: "Bring the 6-digit code from the SMS: the relay point asks for it to hand you the parcel.",
    lost: "Lost the SMS, or the code is locked? A new code can be sent to the number the sender gave (at most 3 times a day). The old code will stop working.",
    button: "Send me the code again",
    sentHeading: "Request received",
    sent: "If this parcel is waiting at a relay point, a new code is on its way by SMS to the number the sender gave. The old code no longer works.",
    limitedHeading: "No more codes today",
    limited: "Three new codes were already asked for this parcel today. Use the last SMS you received, or try again tomorrow.",
    back: "Back to the parcel's tracking"
  }
};

/** `/track/{n}/pin`, where the form posts. */
export const pinResendPath = (trackingNumber: string) => `${TRACK_PATH}/${encodeURIComponent(trackingNumber)}/pin`;

const ON_SHELF = ["AT_RELAY", "RELAY_NOTIFIED"];

/** The card of the parcel's page: only for a live parcel on the shelf (a test parcel has no PIN). */
export function pinCard(parcel: Pick<TrackingPageParcel, "status" | "sandbox" | "trackingNumber">, options: PageOptions): Html | "" {
  if (parcel.sandbox || !ON_SHELF.includes(parcel.status)) return "";
  const p = PIN_RESEND_MESSAGES[options.lang];
  const action = pinResendPath(parcel.trackingNumber);
  return html`<section class="card" aria-labelledby="pin-heading">
<h2 id="pin-heading">${p.heading}</h2>
<p>${p.bring}</p>
<p class="muted">${p.lost}</p>
<form method="post" action="${action}">
${formTokenField(options, action)}${options.linkLang ? html`<input type="hidden" name="lang" value="${options.linkLang}">` : ""}
<button type="submit">${p.button}</button>
</form>
</section>`;
}

/** The answer to the form: the same page for any number; "limited" past the day's three. */
export function renderPinResendPage(trackingNumber: string, options: PageOptions, outcome: "accepted" | "limited"): string {
  const p = PIN_RESEND_MESSAGES[options.lang];
  const heading = outcome === "accepted" ? p.sentHeading : p.limitedHeading;
  return renderLayout({
    brand: options.brand,
    lang: options.lang,
    linkLang: options.linkLang,
    title: `${heading}`,
    // The language links lead to the parcel's page: the form's path answers POST only.
    path: trackingPagePath(trackingNumber),
    main: html`<h1>${heading}</h1>
<section class="card status ${outcome === "accepted" ? "ok" : "bad"}" role="status"><p>${outcome === "accepted" ? p.sent : p.limited}</p></section>
<p><a href="${trackingPagePath(trackingNumber, options.linkLang)}">${p.back}</a></p>`
  });
}
