// The shop's three pages, as plain HTML strings: product, checkout (with the relay-point picker),
// order status. Everything the customer typed is escaped.
import { deliveryState, PRODUCT } from "./catalogue.mjs";

/** @param {unknown} value */
export function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

const dzd = new Intl.NumberFormat("fr-DZ", { maximumFractionDigits: 2 });

const STYLE = `
  :root { font-family: system-ui, sans-serif; color: #1d2327; background: #faf7f2; }
  body { margin: 0 auto; max-width: 40rem; padding: 1rem; }
  header { display: flex; justify-content: space-between; align-items: baseline; border-bottom: 2px solid #b4532a; margin-bottom: 1rem; }
  header a { color: #b4532a; text-decoration: none; font-weight: 700; font-size: 1.25rem; }
  .price { font-size: 1.5rem; font-weight: 700; color: #b4532a; }
  .button, button { display: inline-block; background: #b4532a; color: #fff; border: 0; border-radius: .5rem; padding: .75rem 1.25rem; font-size: 1rem; text-decoration: none; cursor: pointer; }
  label { display: block; margin: .75rem 0 .25rem; font-weight: 600; }
  input { width: 100%; box-sizing: border-box; padding: .6rem; font-size: 1rem; border: 1px solid #8c8f94; border-radius: .4rem; }
  .error { background: #fcf0f1; border-left: 4px solid #d63638; padding: .5rem .75rem; }
  .state { font-size: 1.25rem; font-weight: 700; padding: .75rem; border-radius: .5rem; background: #edfaef; border-left: 4px solid #00a32a; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .4rem 1rem; }
  dt { color: #50575e; }
  dd { margin: 0; overflow-wrap: anywhere; }
  relay-point-picker { display: block; margin: .5rem 0 1rem; }
`;

/** @param {string} title @param {string} body @param {string} [head] */
function layout(title, body, head = "") {
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Atelier Nour</title>
<style>${STYLE}</style>
${head}
</head>
<body>
<header><a href="/">Atelier Nour</a><span>Livraison en point relais</span></header>
<main>
${body}
</main>
</body>
</html>`;
}

export function productPage() {
  return layout(
    PRODUCT.name,
    `<h1>${escapeHtml(PRODUCT.name)}</h1>
<p>${escapeHtml(PRODUCT.description)}</p>
<p class="price">${dzd.format(PRODUCT.priceDzd)} DZD</p>
<p>Payez à la livraison, en espèces, au point relais de votre choix.</p>
<a class="button" href="/checkout">Commander</a>`
  );
}

/**
 * @param {{ relayPublicUrl: string, error?: { title: string, lines: string[] }, values?: Record<string, string> }} params
 */
export function checkoutPage({ relayPublicUrl, error, values = {} }) {
  const picker = `${relayPublicUrl}/widget/v1/relay-point-picker.js`;
  return layout(
    "Commande",
    `<h1>Votre commande</h1>
<p>${escapeHtml(PRODUCT.name)} · <strong>${dzd.format(PRODUCT.priceDzd)} DZD</strong>, à payer au retrait.</p>
${error ? errorBlock(error) : ""}
<form method="post" action="/checkout">
  <label for="name">Nom et prénom</label>
  <input id="name" name="name" autocomplete="name" required maxlength="100" value="${escapeHtml(values.name ?? "")}">
  <label for="phone">Téléphone</label>
  <input id="phone" name="phone" type="tel" autocomplete="tel" required placeholder="0555 12 34 56" value="${escapeHtml(values.phone ?? "")}">
  <label id="relay-label">Point relais</label>
  <relay-point-picker name="relay_code" required wilaya="16" lang="fr" aria-labelledby="relay-label" value="${escapeHtml(values.relay_code ?? "")}"></relay-point-picker>
  <button type="submit">Confirmer la commande</button>
</form>`,
    `<script type="module" src="${escapeHtml(picker)}"></script>`
  );
}

/** @param {{ title: string, lines: string[] }} error */
function errorBlock({ title, lines }) {
  const list = lines.length ? `<ul>${lines.map(line => `<li>${escapeHtml(line)}</li>`).join("")}</ul>` : "";
  return `<div class="error" role="alert" id="order-error"><p>${escapeHtml(title)}</p>${list}</div>`;
}

/**
 * @param {{ order: import("./orders.mjs").Order, relayPublicUrl: string }} params
 */
export function orderPage({ order, relayPublicUrl }) {
  const ready = order.deliveryStatus === "AT_RELAY" || order.deliveryStatus === "RELAY_NOTIFIED";
  return layout(
    `Commande ${order.id}`,
    `<h1>Commande ${escapeHtml(order.id)}</h1>
<p class="state" id="delivery-state" data-status="${escapeHtml(order.deliveryStatus)}" data-ready="${ready}">${escapeHtml(deliveryState(order.deliveryStatus))}</p>
<dl>
  <dt>Article</dt><dd>${escapeHtml(PRODUCT.name)}</dd>
  <dt>À payer au retrait</dt><dd>${dzd.format(PRODUCT.priceDzd)} DZD</dd>
  <dt>Destinataire</dt><dd>${escapeHtml(order.customerName)}</dd>
  <dt>Point relais</dt><dd id="relay-code">${escapeHtml(order.relayCode)}</dd>
  <dt>N° de suivi</dt><dd><a id="tracking" href="${escapeHtml(`${relayPublicUrl}/track/${order.trackingNumber}`)}">${escapeHtml(order.trackingNumber)}</a></dd>
  <dt>Colis</dt><dd id="parcel-id">${escapeHtml(order.parcelId)}</dd>
</dl>
<p><a class="button" id="label" href="/orders/${encodeURIComponent(order.id)}/label">Étiquette du colis (PDF)</a></p>
<p><small>L'état se met à jour dès que le transporteur nous prévient (webhook). Rechargez la page.</small></p>`
  );
}

export function notFoundPage() {
  return layout("Introuvable", `<h1>Page introuvable</h1><p><a href="/">Retour à la boutique</a></p>`);
}
