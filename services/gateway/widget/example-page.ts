import escapeHtml from "escape-html";
import { PICKER_FILE, WIDGET_PATH } from "./assets";

/**
 * `/widget/v1/example`: a shop's checkout as a merchant would write it, with the picker embedded
 * in one line. The form submits to this same page (GET), which shows what the shop's server got:
 * the relay code the customer chose, under the field's name.
 */

export const EXAMPLE_PATH = `${WIDGET_PATH}/example`;

const LANGS = ["fr", "ar", "en"] as const;
type Lang = (typeof LANGS)[number];

const TEXT: Record<Lang, { title: string; name: string; phone: string; relay: string; submit: string; received: string }> = {
  fr: {
    title: "Boutique exemple — livraison en point relais",
    name: "Nom complet",
    phone: "Téléphone",
    relay: "Point relais de livraison",
    submit: "Valider la commande",
    received: "Le serveur de la boutique a reçu"
  },
  ar: {
    title: "متجر تجريبي — التوصيل إلى نقطة استلام",
    name: "الاسم الكامل",
    phone: "الهاتف",
    relay: "نقطة الاستلام",
    submit: "تأكيد الطلب",
    received: "استلم خادم المتجر"
  },
  en: {
    title: "Example shop — delivery to a relay point",
    name: "Full name",
    phone: "Phone",
    relay: "Relay point for delivery",
    submit: "Place the order",
    received: "The shop's server received"
  }
};

export const EXAMPLE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  // Map tiles come from the tile server the page names (none here).
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'"
].join("; ");

function langOf(value: unknown): Lang {
  return LANGS.find(l => l === value) ?? "fr";
}

export function examplePageHtml(query: Record<string, unknown>): string {
  const lang = langOf(query.lang);
  const t = TEXT[lang];
  const chosen = typeof query.relay_code === "string" ? query.relay_code : null;
  const switcher = LANGS.map(
    l => `<a href="${EXAMPLE_PATH}?lang=${l}"${l === lang ? ' aria-current="page"' : ""}>${l.toUpperCase()}</a>`
  ).join(" · ");
  const received =
    chosen === null ? "" : `<p class="received" role="status">${t.received}: <code>relay_code=${escapeHtml(chosen)}</code></p>`;
  return `<!doctype html>
<html lang="${lang}" dir="${lang === "ar" ? "rtl" : "ltr"}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${t.title}</title>
  <script type="module" src="${WIDGET_PATH}/${PICKER_FILE}"></script>
  <style>
    body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 44rem; padding: 1rem; color: #1c1c1c; }
    label { display: block; margin: .75rem 0 .25rem; font-weight: 600; }
    input { font: inherit; padding: .5rem; width: 100%; box-sizing: border-box; }
    button { font: inherit; margin-top: 1rem; padding: .6rem 1.2rem; background: #0b5d3b; color: #fff; border: 0; border-radius: .4rem; }
    relay-point-picker { margin-top: .25rem; --rpp-accent: #0b5d3b; }
    .received { background: #e8f5ee; padding: .75rem; border-radius: .4rem; }
  </style>
</head>
<body>
  <nav>${switcher}</nav>
  <h1>${t.title}</h1>
  ${received}
  <form method="get" action="${EXAMPLE_PATH}">
    <input type="hidden" name="lang" value="${lang}">
    <label for="name">${t.name}</label>
    <input id="name" name="name" autocomplete="name">
    <label for="phone">${t.phone}</label>
    <input id="phone" name="phone" type="tel" autocomplete="tel">
    <label id="relay-label">${t.relay}</label>
    <relay-point-picker name="relay_code" lang="${lang}" wilaya="16" required aria-labelledby="relay-label"></relay-point-picker>
    <button type="submit">${t.submit}</button>
  </form>
</body>
</html>
`;
}
