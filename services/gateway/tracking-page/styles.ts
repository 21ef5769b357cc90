import { createHash } from "node:crypto";
import { Brand, DEFAULT_BRAND, logoOrigin } from "../../../lib/brand";
import { brandPalette } from "./brand-palette";

/**
 * The one stylesheet of the tracking pages, inlined and allowed by its hash: no file to serve,
 * no 'unsafe-inline', and no script at all. Mobile first (read on phones at the relay counter),
 * logical properties so that Arabic mirrors by itself, contrast at least 4.5:1 everywhere.
 */
export const STYLESHEET = `
:root{color-scheme:light;--ink:#1b1f24;--muted:#4a5560;--line:#cfd6dd;--bg:#f2f4f7;--card:#fff;--ok:#17602e;--ok-bg:#e6f3ea;--bad:#a11c1c;--bad-bg:#fdeeee;--cod:#3d2a00;--cod-bg:#fff3d1;--cod-line:#a86b00;--test:#312e81;--test-bg:#eef0ff}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--ink);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Arial,sans-serif;overflow-wrap:anywhere}
html[lang=ar] body{font-family:"Noto Naskh Arabic","Noto Sans Arabic","Segoe UI",Tahoma,"DejaVu Sans",system-ui,sans-serif;line-height:1.7}
a{color:var(--brand-text);text-underline-offset:.15em}
:focus-visible{outline:3px solid #c2410c;outline-offset:2px}
.skip{position:absolute;inset-inline-start:.5rem;top:-3rem;background:var(--card);color:var(--brand-text);padding:.5rem .75rem;border-radius:.4rem;z-index:1}
.skip:focus{top:.5rem}
.site{background:var(--brand);color:var(--brand-ink)}
.bar{max-width:42rem;margin:0 auto;padding:.6rem 1rem;display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.25rem 1rem}
.brand{color:var(--brand-ink);font-weight:700;font-size:1.1rem;text-decoration:none;padding:.3rem 0;display:inline-flex;align-items:center;gap:.5rem}
.brand img{display:block;height:2rem;width:auto;max-width:8rem;object-fit:contain}
.langs ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem}
.langs a{display:inline-block;color:var(--brand-ink);padding:.4rem .65rem;border-radius:.4rem;min-width:2.75rem;text-align:center}
.langs a[aria-current]{background:var(--brand-ink);color:var(--brand-pill);font-weight:700;text-decoration:none}
main{display:block;max-width:42rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;line-height:1.3;margin:.25rem 0 1rem}
h2{font-size:1.125rem;line-height:1.35;margin:0 0 .6rem}
p{margin:0 0 .6rem}
p:last-child{margin-bottom:0}
.card{background:var(--card);border:1px solid var(--line);border-radius:.75rem;padding:1rem;margin:0 0 1rem}
.tn{font-family:ui-monospace,"SFMono-Regular","DejaVu Sans Mono",Menlo,Consolas,monospace;letter-spacing:.04em;direction:ltr;unicode-bidi:isolate;white-space:nowrap}
h1 .tn{display:inline-block;font-size:1.2rem}
.status-title{font-size:1.35rem;font-weight:700;line-height:1.3;margin:0 0 .35rem}
.status.ok{border-color:#8cc59d;background:var(--ok-bg)}
.status.bad{border-color:#e3a5a5;background:var(--bad-bg)}
.cod{background:var(--cod-bg);border:2px solid var(--cod-line);color:var(--cod)}
.cod h2{margin-bottom:.2rem}
.amount{font-size:2.25rem;font-weight:800;line-height:1.2;margin:.1rem 0 .4rem;unicode-bidi:isolate}
.sandbox{background:var(--test-bg);border:2px dashed #4f46e5;color:var(--test);font-weight:600}
.place{font-weight:700;font-size:1.1rem;margin-bottom:.15rem}
.muted{color:var(--muted)}
.now{font-weight:700;margin:.75rem 0 .25rem}
.now.open{color:var(--ok)}
.now.closed{color:var(--bad)}
.hours{width:100%;border-collapse:collapse;margin:.25rem 0 .5rem}
.hours caption{text-align:start;font-weight:700;padding:.5rem 0 .25rem}
.hours th,.hours td{text-align:start;vertical-align:top;padding:.45rem 0;border-top:1px solid var(--line)}
.hours th{font-weight:600;padding-inline-end:1rem;width:48%}
.hours td span{display:block;white-space:nowrap}
.hours .today th,.hours .today td{font-weight:700}
.tag{display:inline-block;font-size:.8rem;font-weight:700;line-height:1.4;background:var(--brand);color:var(--brand-ink);border-radius:.3rem;padding:0 .4rem;margin-inline-start:.4rem}
.hours .off td{color:var(--bad)}
.timeline{list-style:none;margin:0;padding:0}
.timeline li{position:relative;margin-inline-start:.4rem;padding-inline-start:1.25rem;padding-bottom:1rem;border-inline-start:2px solid var(--line)}
.timeline li:last-child{border-inline-start-color:transparent;padding-bottom:0}
.timeline li::before{content:"";position:absolute;inset-inline-start:-.45rem;top:.3rem;width:.8rem;height:.8rem;border-radius:50%;background:#8a96a3;border:2px solid var(--card)}
.timeline li:first-child::before{background:var(--brand)}
.timeline li:first-child .event{font-weight:700}
.event{display:block}
.when{display:block;color:var(--muted);font-size:.95rem}
.field{display:flex;flex-direction:column;gap:.35rem;margin-bottom:1rem}
label{font-weight:700}
.hint{color:var(--muted);font-size:.95rem}
.error{color:var(--bad);font-weight:700}
input[type=text]{font:inherit;font-size:1.2rem;width:100%;padding:.7rem .8rem;border:2px solid #5d6874;border-radius:.5rem;background:#fff;color:var(--ink);direction:ltr;text-transform:uppercase;letter-spacing:.04em}
input[aria-invalid=true]{border-color:var(--bad)}
button{font:inherit;font-size:1.1rem;font-weight:700;width:100%;min-height:3rem;padding:.7rem 1.5rem;border:0;border-radius:.5rem;background:var(--brand);color:var(--brand-ink);cursor:pointer}
button:hover{background:var(--brand-hover)}
input.plain{text-transform:none;letter-spacing:normal;direction:auto}
select{font:inherit;font-size:1.1rem;width:100%;padding:.6rem .7rem;border:2px solid #5d6874;border-radius:.5rem;background:#fff;color:var(--ink)}
fieldset{border:0;margin:0 0 1rem;padding:0;min-width:0}
legend{font-weight:700;padding:0;margin-bottom:.35rem}
.choices{list-style:none;margin:0;padding:0}
.choices li{border-top:1px solid var(--line)}
.choices label{display:flex;gap:.75rem;align-items:flex-start;font-weight:400;padding:.6rem 0;cursor:pointer}
.choices input{width:1.25rem;height:1.25rem;margin:.2rem 0 0;flex:none}
.choices .place{font-size:1rem}
.note.ok{color:var(--ok);font-weight:700}
.pass figure{margin:.5rem auto 0;max-width:20rem;background:#fff}
.pass svg{display:block;width:100%;height:auto}
footer{max-width:42rem;margin:0 auto;padding:.5rem 1rem 2rem;color:var(--muted);font-size:.9rem}
@media (min-width:40rem){h1{font-size:1.875rem}main{padding:1.5rem 1rem}button{width:auto}.card{padding:1.25rem 1.5rem}}
`.trim();

/** The brand's colours (brand-palette.ts) as the custom properties the stylesheet reads. */
function brandVariables(color: string): string {
  const p = brandPalette(color);
  const pill = p.ink === "#ffffff" ? p.text : p.brand;
  return `:root{--brand:${p.brand};--brand-ink:${p.ink};--brand-text:${p.text};--brand-hover:${p.hover};--brand-pill:${pill}}`;
}

export interface BrandedStyle {
  /** The page's one stylesheet: the brand's colours, then STYLESHEET. */
  css: string;
  /** Its CSP hash, 'sha256-…'. */
  hash: string;
  /** The page's Content-Security-Policy. */
  csp: string;
}

const styles = new Map<string, BrandedStyle>();

/**
 * The stylesheet and CSP of the pages under `brand`, computed once per brand (a process has one).
 * The colours are part of the one hashed stylesheet, so the CSP stays 'hash only', no
 * 'unsafe-inline'. The logo is allowed by origin: an https logo on another host adds exactly that
 * origin to img-src (and only to img-src); a path of this server needs nothing beyond 'self'.
 */
export function brandedStyle(brand: Pick<Brand, "color" | "logoUrl">): BrandedStyle {
  const key = `${brand.color} ${brand.logoUrl ?? ""}`;
  let style = styles.get(key);
  if (!style) {
    const css = `${brandVariables(brand.color)}\n${STYLESHEET}`;
    const hash = `sha256-${createHash("sha256").update(css, "utf8").digest("base64")}`;
    const logo = logoOrigin(brand);
    const csp = [
      "default-src 'none'",
      `style-src '${hash}'`,
      `img-src 'self' data:${logo ? ` ${logo}` : ""}`,
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'"
    ].join("; ");
    style = { css, hash, csp };
    styles.set(key, style);
  }
  return style;
}

/** The stylesheet's hash and the Content-Security-Policy of every tracking page under the default brand. */
export const STYLESHEET_HASH = brandedStyle(DEFAULT_BRAND).hash;
export const TRACKING_PAGE_CSP = brandedStyle(DEFAULT_BRAND).csp;
