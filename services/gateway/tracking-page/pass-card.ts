import { renderSVG } from "uqr";
import type { Lang } from "../../../lib/languages";
import type { ParcelStatus } from "../../../lib/parcel-status";
import { Html, html } from "./html";

/**
 * The pickup pass on the tracking page opened from the pick-up SMS (issue 43, decision 0047): a QR
 * the counter scans instead of typing the PIN, checked by the app with the server's public key even
 * without a network. The page shows it only with the SMS link's key; the QR is an inline SVG drawn
 * here (no script, no image request), its text also kept in `data-pass` for tests and assistive tools.
 */

export interface PassMessages {
  heading: string;
  body: string;
  notYet: string;
  qrLabel: string;
}

export const PASS_MESSAGES: Readonly<Record<Lang, PassMessages>> = {
  fr: {
    heading: "Votre pass de retrait",
    body: "Montrez ce code au point relais : il remplace le code de retrait, même sans réseau. Ne le montrez à personne d'autre.",
    notYet: "Votre pass de retrait apparaîtra ici dès que le colis sera au point relais.",
    qrLabel: "Code QR du pass de retrait"
  },
  ar: {
    heading: "بطاقة الاستلام",
    body: "اعرض هذا الرمز في نقطة الاستلام: يغني عن رمز الاستلام حتى دون شبكة. لا تعرضه على أي شخص آخر.",
    notYet: "ستظهر بطاقة الاستلام هنا عند وصول الطرد إلى نقطة الاستلام.",
    qrLabel: "رمز QR لبطاقة الاستلام"
  },
  en: {
    heading: "Your pickup pass",
    body: "Show this code at the relay point: it replaces the pick-up code, even without network. Show it to no one else.",
    notYet: "Your pickup pass will appear here as soon as the parcel is at the relay point.",
    qrLabel: "QR code of the pickup pass"
  }
};

const WAITING: readonly ParcelStatus[] = ["CREATED", "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT"];

/** The card: the pass's QR, or, before arrival, where it will be; nothing once the parcel left the shelf. */
export function passCard(pass: string | null, status: ParcelStatus, lang: Lang): Html | "" {
  const m = PASS_MESSAGES[lang];
  if (pass === null) {
    return WAITING.includes(status)
      ? html`<section class="card" aria-labelledby="pass-heading"><h2 id="pass-heading">${m.heading}</h2><p>${m.notYet}</p></section>`
      : "";
  }
  // uqr draws only rectangles from the text's modules: nothing of the text reaches the markup but data-pass, escaped.
  const svg = renderSVG(pass, { ecc: "M", border: 4 }).replace("<svg ", `<svg role="img" aria-labelledby="pass-qr-label" `);
  return html`<section class="card pass" aria-labelledby="pass-heading" data-pass="${pass}">
<h2 id="pass-heading">${m.heading}</h2>
<p>${m.body}</p>
<figure><span id="pass-qr-label" hidden>${m.qrLabel}</span>${new Html(svg)}</figure>
</section>`;
}
