import type { Lang } from "../../../lib/languages";
import { formTokenField } from "./form-guard";
import { html, Html } from "./html";
import { passPagePath, renderLayout, TRACK_PATH } from "./layout";
import type { PageOptions } from "./page-options";

/**
 * "Not me" (issue 43, decision 0047): a parcel handed over offline against the PIN checked on a
 * phone is confirmed to its recipient by SMS, whose link opens the tracking page with the parcel's
 * key; there, a recipient who did not collect it says so. The form carries the key (only the SMS's
 * holder has it) and the page's form token; the dispute goes to the operators' list.
 */

const NOT_ME_MESSAGES: Record<Lang, { heading: string; body: string; button: string; doneHeading: string; done: string; back: string }> = {
  fr: {
    heading: "Ce n'était pas vous ?",
    body: "Ce colis a été remis au point relais sans réseau, contre le code de retrait. Si vous ne l'avez pas retiré, dites-le nous : nous enquêtons.",
    button: "Je n'ai pas retiré ce colis",
    doneHeading: "Merci, c'est noté",
    done: "Nous vérifions cette remise avec le point relais et l'expéditeur. Gardez le SMS reçu.",
    back: "Retour au suivi du colis"
  },
  ar: {
    heading: "لست أنت؟",
    body: "سُلّم هذا الطرد في نقطة الاستلام دون شبكة مقابل رمز الاستلام. إن لم تستلمه أنت فأخبرنا: سنتحقق من الأمر.",
    button: "لم أستلم هذا الطرد",
    doneHeading: "شكرا، تم التسجيل",
    done: "نتحقق من هذا التسليم مع نقطة الاستلام والمرسل. احتفظ بالرسالة التي وصلتك.",
    back: "العودة إلى تتبع الطرد"
  },
  en: {
    heading: "Not you?",
    body: "This parcel was handed over at the relay point without network, against the pick-up code. If you did not collect it, tell us: we investigate.",
    button: "I did not collect this parcel",
    doneHeading: "Thank you, noted",
    done: "We are checking this hand-over with the relay point and the sender. Keep the SMS you received.",
    back: "Back to the parcel's tracking"
  }
};

/** `/track/{n}/dispute`, where the form posts. */
export const notMePath = (trackingNumber: string) => `${TRACK_PATH}/${encodeURIComponent(trackingNumber)}/dispute`;

/** The card of the page opened with the parcel's key, for a parcel handed over offline against its PIN. */
export function notMeCard(trackingNumber: string, key: string, options: PageOptions): Html {
  const m = NOT_ME_MESSAGES[options.lang];
  const action = notMePath(trackingNumber);
  return html`<section class="card status bad" aria-labelledby="not-me-heading">
<h2 id="not-me-heading">${m.heading}</h2>
<p>${m.body}</p>
<form method="post" action="${action}">
${formTokenField(options, action)}<input type="hidden" name="pass" value="${key}">${
    options.linkLang ? html`<input type="hidden" name="lang" value="${options.linkLang}">` : ""
  }
<button type="submit">${m.button}</button>
</form>
</section>`;
}

/** The answer: the same page whether or not a dispute was recorded (it tells a prober nothing). */
export function renderNotMePage(trackingNumber: string, key: string, options: PageOptions): string {
  const m = NOT_ME_MESSAGES[options.lang];
  return renderLayout({
    brand: options.brand,
    lang: options.lang,
    linkLang: options.linkLang,
    title: m.doneHeading,
    path: passPagePath(trackingNumber, key),
    main: html`<h1>${m.doneHeading}</h1>
<section class="card status ok" role="status"><p>${m.done}</p></section>
<p><a href="${passPagePath(trackingNumber, key, options.linkLang)}">${m.back}</a></p>`
  });
}
