import type { Lang } from "../../lib/languages";
import { TIME_ZONE } from "../../lib/opening-hours";
import { fitName, toGsmLookAlikes } from "./sms-segments";

/**
 * Every SMS the recipient gets (issue 30), in their language, short enough to cost one segment
 * in French and English (GSM-7, 160 characters) and at most two in Arabic (UCS-2, 2 × 67): the
 * relay point's name, the only part of unbounded length, is shortened to fit. The rest of what a
 * recipient may want (address, opening hours, map) is behind the short link `/t/{number}`.
 * test/unit/notifications/sms-texts.test.ts prints the segment counts and holds them.
 */

export interface SmsContext {
  lang: Lang;
  /** BRAND_NAME: whom the message is from. */
  brand: string;
  /** PUBLIC_BASE_URL, without a trailing slash: the short link is `${baseUrl}/t/{number}`. */
  baseUrl: string;
}

export const MAX_SEGMENTS: Readonly<Record<Lang, number>> = Object.freeze({ fr: 1, en: 1, ar: 2 });

/**
 * The tracking page's short link (services/gateway/tracking-page): it opens in the recipient's
 * language. With the parcel's pass token instead of its number (issue 43, lib/pass-link.ts: as
 * long, so the SMS stays as short) it opens the page that shows the pickup pass; the number alone
 * opens the public page.
 */
export const shortLink = (ctx: SmsContext, trackingNumber: string, passKey?: string | null) =>
  `${ctx.baseUrl}/t/${passKey || trackingNumber}`;

/** "12/03": the day and month in Algiers, the same in every language (Latin digits). */
export function shortDate(isoInstant: string): string {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: TIME_ZONE, day: "2-digit", month: "2-digit" }).formatToParts(
    new Date(isoInstant)
  );
  const part = (type: string) => parts.find(p => p.type === type)?.value ?? "";
  return `${part("day")}/${part("month")}`;
}

/** 1500 → "1500", 1500.5 → "1500.50": no grouping space to cost a character or break a line. */
const amount = (dzd: number) => (Number.isInteger(dzd) ? String(dzd) : dzd.toFixed(2));

const oneLine = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

/** Fits the text to the language's segments, in GSM-7 look-alikes for French and English. */
function fitted(ctx: SmsContext, relayName: string, compose: (name: string) => string): string {
  const gsm = ctx.lang !== "ar";
  const name = gsm ? toGsmLookAlikes(oneLine(relayName)) : oneLine(relayName);
  return fitName(n => (gsm ? toGsmLookAlikes(compose(n)) : compose(n)), name, MAX_SEGMENTS[ctx.lang]);
}

export interface PickupText {
  trackingNumber: string;
  relayName: string;
  /** The PIN, or its mask for the stored copy; null for a parcel without one. */
  pin: string | null;
  codAmountDzd: number | null;
  pickupDeadline: string | null;
  /** The key of the link to the page with the pickup pass (or its mask, for the stored copy); none for a sandbox parcel. */
  passKey?: string | null;
}

export function pickupText(ctx: SmsContext, p: PickupText): string {
  const link = shortLink(ctx, p.trackingNumber, p.passKey);
  const cod = p.codAmountDzd !== null && p.codAmountDzd > 0 ? amount(p.codAmountDzd) : null;
  const until = p.pickupDeadline ? shortDate(p.pickupDeadline) : null;
  return fitted(ctx, p.relayName, name => {
    if (ctx.lang === "ar") {
      return [
        `${ctx.brand}: طردك ${p.trackingNumber} في ${name}.`,
        p.pin !== null ? ` الرمز ${p.pin}.` : " أظهر هذه الرسالة.",
        cod ? ` ادفع ${cod} دج.` : "",
        until ? ` قبل ${until}.` : "",
        ` ${link}`
      ].join("");
    }
    if (ctx.lang === "en") {
      return [
        `${ctx.brand}: parcel ${p.trackingNumber} at ${name}.`,
        p.pin !== null ? ` Pick-up code: ${p.pin}.` : " Show this SMS.",
        cod ? ` Pay ${cod} DZD.` : "",
        until ? ` By ${until}.` : "",
        ` ${link}`
      ].join("");
    }
    return [
      `${ctx.brand}: colis ${p.trackingNumber} chez ${name}.`,
      p.pin !== null ? ` Code de retrait: ${p.pin}.` : " Montrez ce SMS.",
      cod ? ` Payer ${cod} DA.` : "",
      until ? ` Avant le ${until}.` : "",
      ` ${link}`
    ].join("");
  });
}

export function reminderText(ctx: SmsContext, p: { trackingNumber: string; relayName: string; pickupDeadline: string | null }): string {
  const link = shortLink(ctx, p.trackingNumber);
  const until = p.pickupDeadline ? shortDate(p.pickupDeadline) : null;
  return fitted(ctx, p.relayName, name => {
    if (ctx.lang === "ar")
      return `${ctx.brand}: تذكير، طردك ${p.trackingNumber} ينتظرك في ${name}.${until ? ` استلمه قبل ${until}` : " استلمه"} وإلا يعاد. ${link}`;
    if (ctx.lang === "en")
      return `${ctx.brand}: reminder, parcel ${p.trackingNumber} waits at ${name}. Collect it${until ? ` by ${until}` : ""} or it goes back. ${link}`;
    return `${ctx.brand}: rappel, colis ${p.trackingNumber} au relais ${name}. Retirez-le${until ? ` avant le ${until}` : ""} sinon il repart. ${link}`;
  });
}

export function expiredText(ctx: SmsContext, p: { trackingNumber: string; relayName: string }): string {
  return fitted(ctx, p.relayName, name => {
    if (ctx.lang === "ar") return `${ctx.brand}: لم يستلم طردك ${p.trackingNumber} من ${name} في الوقت، يعاد إلى المرسل.`;
    if (ctx.lang === "en")
      return `${ctx.brand}: parcel ${p.trackingNumber} was not collected at ${name} in time and goes back to the sender.`;
    return `${ctx.brand}: colis ${p.trackingNumber} non retiré à temps au relais ${name}, il est renvoyé à l'expéditeur.`;
  });
}

export function returnCodeText(ctx: SmsContext, p: { trackingNumber: string; code: string | null; expiresAt: string | null }): string {
  const until = p.expiresAt ? shortDate(p.expiresAt) : null;
  const code = p.code ?? "";
  if (ctx.lang === "ar")
    return `${ctx.brand}: لإرجاع الطرد ${p.trackingNumber} سلمه في أي نقطة${until ? ` قبل ${until}` : ""} مع رمز الإرجاع ${code}. مجانا.`;
  if (ctx.lang === "en")
    return toGsmLookAlikes(
      `${ctx.brand}: to return parcel ${p.trackingNumber}, drop it at any relay point${until ? ` by ${until}` : ""} with return code ${code}. Free.`
    );
  return toGsmLookAlikes(
    `${ctx.brand}: retour du colis ${p.trackingNumber}: déposez-le dans un point relais${until ? ` avant le ${until}` : ""} avec le code de retour ${code}. Gratuit.`
  );
}

export function redirectCodeText(ctx: SmsContext, p: { trackingNumber: string; code: string; validMinutes: number }): string {
  if (ctx.lang === "ar")
    return `${ctx.brand}: الرمز ${p.code} لتغيير نقطة استلام الطرد ${p.trackingNumber}. صالح ${p.validMinutes} دقيقة. لا تعطه لأحد.`;
  if (ctx.lang === "en")
    return toGsmLookAlikes(
      `${ctx.brand}: code ${p.code} to change the relay point of parcel ${p.trackingNumber}. Valid ${p.validMinutes} min. Give it to no one.`
    );
  return toGsmLookAlikes(
    `${ctx.brand}: Code ${p.code}: pour changer le point relais du colis ${p.trackingNumber}. Valable ${p.validMinutes} min. Ne le donnez à personne.`
  );
}

/** A new pick-up code, asked for by the recipient or the counter (issue 30): the old one no longer works. */
export function newPickupCodeText(ctx: SmsContext, p: { trackingNumber: string; pin: string }): string {
  const link = shortLink(ctx, p.trackingNumber);
  if (ctx.lang === "ar") return `${ctx.brand}: رمز الاستلام الجديد للطرد ${p.trackingNumber}: ${p.pin}. الرمز القديم لم يعد صالحا. ${link}`;
  if (ctx.lang === "en")
    return toGsmLookAlikes(
      `${ctx.brand}: new pick-up code for parcel ${p.trackingNumber}: ${p.pin}. The old code no longer works. ${link}`
    );
  return toGsmLookAlikes(
    `${ctx.brand}: nouveau code pour le colis ${p.trackingNumber}. Code de retrait: ${p.pin}. L'ancien ne marche plus. ${link}`
  );
}

/** "17:34": the time of day in Algiers (Latin digits). */
export function shortTime(isoInstant: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone: TIME_ZONE, hour: "2-digit", minute: "2-digit", hour12: false }).format(
    new Date(isoInstant)
  );
}

/**
 * Issue 43: a parcel handed over offline against the PIN checked on a phone, confirmed to its
 * recipient once the hand-over reaches us, with the link to say it was not them (the tracking page
 * with the parcel's key: sealed with the text, masked in the stored copy).
 */
export function handoverConfirmationText(
  ctx: SmsContext,
  p: { trackingNumber: string; relayName: string; handedOverAt: string; passKey: string }
): string {
  const link = shortLink(ctx, p.trackingNumber, p.passKey);
  const day = shortDate(p.handedOverAt);
  const time = shortTime(p.handedOverAt);
  return fitted(ctx, p.relayName, name => {
    if (ctx.lang === "ar") return `${ctx.brand}: سُلّم طردك ${p.trackingNumber} يوم ${day} على ${time} في ${name}. لست أنت؟ ${link}`;
    if (ctx.lang === "en") return `${ctx.brand}: parcel ${p.trackingNumber} handed over ${day} ${time} at ${name}. Not you? ${link}`;
    return `${ctx.brand}: colis ${p.trackingNumber} remis le ${day} à ${time} chez ${name}. Pas vous ? ${link}`;
  });
}
