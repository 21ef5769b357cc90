import { DIRECTION_OF, Lang, LANGUAGES } from "../../../lib/languages";
import { Html, html, HtmlValue } from "./html";
import { MESSAGES } from "./messages";
import { brandedStyle } from "./styles";
import { Brand, DEFAULT_BRAND } from "../../../lib/brand";

export const TRACK_PATH = "/track";

/** `/track/RP123456785DZ`, with `?lang=` when the person picked a language. */
export function trackingPagePath(trackingNumber: string | null, lang?: Lang): string {
  const path = trackingNumber === null ? TRACK_PATH : `${TRACK_PATH}/${encodeURIComponent(trackingNumber)}`;
  return lang ? `${path}?lang=${lang}` : path;
}

/** `/track/RP123456785DZ?pass=KEY`: the page opened from the pick-up SMS, with the pickup pass (issue 43). */
export function passPagePath(trackingNumber: string, key: string, lang?: Lang): string {
  const path = `${TRACK_PATH}/${encodeURIComponent(trackingNumber)}?pass=${encodeURIComponent(key)}`;
  return lang ? `${path}&lang=${lang}` : path;
}

export interface LayoutInput {
  /** BRAND_NAME, BRAND_COLOR, BRAND_LOGO_URL (lib/brand.ts); the default brand when absent. */
  brand?: Brand;
  lang: Lang;
  /** The page's own title; the brand's name follows it. */
  title: string;
  /** The page's own path, which the language links point to (with their `?lang=`). */
  path: string;
  main: HtmlValue;
  /** Carried by the links inside the pages when the person picked the language (`?lang=`). */
  linkLang?: Lang;
}

function languageLinks(lang: Lang, path: string): Html {
  const links = LANGUAGES.map(other => {
    const name = MESSAGES[other].languageName;
    const href = `${path}${path.includes("?") ? "&" : "?"}lang=${other}`;
    return other === lang
      ? html`<li><a href="${href}" lang="${other}" hreflang="${other}" aria-current="true">${name}</a></li>`
      : html`<li><a href="${href}" lang="${other}" hreflang="${other}">${name}</a></li>`;
  });
  return html`<nav class="langs" aria-label="${MESSAGES[lang].languageNav}"><ul>${links}</ul></nav>`;
}

/** The brand at the top of every page: the logo (decorative: the name beside it says the same), then the name. */
function brandLink(brand: Brand, linkLang: Lang | undefined): Html {
  const logo = brand.logoUrl ? html`<img src="${brand.logoUrl}" alt="" height="32">` : "";
  return html`<a class="brand" href="${trackingPagePath(null, linkLang)}">${logo}<span>${brand.name}</span></a>`;
}

/** The shell every tracking page shares: landmarks, the brand, the language links, the hashed stylesheet. */
export function renderLayout({ brand = DEFAULT_BRAND, lang, title, path, main, linkLang }: LayoutInput): string {
  const m = MESSAGES[lang];
  return `<!doctype html>\n${html`<html lang="${lang}" dir="${DIRECTION_OF[lang]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${title} – ${brand.name}</title>
<link rel="icon" href="data:,">
<style>${new Html(brandedStyle(brand).css)}</style>
</head>
<body>
<a class="skip" href="#content">${m.skipToContent}</a>
<header class="site"><div class="bar">${brandLink(brand, linkLang)}${languageLinks(lang, path)}</div></header>
<main id="content">
${main}
</main>
<footer><p>${m.privacy}</p></footer>
</body>
</html>`}\n`;
}
