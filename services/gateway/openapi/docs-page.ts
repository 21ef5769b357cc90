import path from "node:path";
import { keptBody, readStaticFile } from "../http/static-files";

/**
 * The human reference at /docs: Swagger UI from the swagger-ui-dist package, served by the gateway
 * itself (no CDN), rendering /v3/api-docs/partner, /v3/api-docs/relay as /docs?api=relay, and the
 * back-office document (behind the back-office token, asked for on the page) as /docs?api=backoffice;
 * a bar at the top links the three. The page's Content-Security-Policy allows our
 * own origin only, so a browser would refuse any outside load if one ever crept in.
 */

export const DOCS_PATH = "/docs";
export const PARTNER_DOCUMENT_PATH = "/v3/api-docs/partner";
export const BACKOFFICE_DOCUMENT_PATH = "/v3/api-docs/backoffice";
export const RELAY_DOCUMENT_PATH = "/v3/api-docs/relay";
/** Issue 44: the courier and hub APIs. */
export const NETWORK_DOCUMENT_PATH = "/v3/api-docs/network";

export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'"
].join("; ");

export function docsPageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Relay Parcels — Partner API reference</title>
  <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <nav aria-label="API documents" style="font-family:sans-serif;padding:8px 20px;background:#1b1b1b;display:flex;gap:20px;flex-wrap:wrap;align-items:center">
    <a href="${DOCS_PATH}" style="color:#fff">Partner API</a>
    <a href="${DOCS_PATH}?api=relay" style="color:#fff">Relay API (counter app)</a>
    <a href="${DOCS_PATH}?api=network" style="color:#fff">Courier and hub APIs</a>
    <a href="${DOCS_PATH}?api=backoffice" style="color:#fff">Back-office API</a>
  </nav>
  <noscript>This reference needs JavaScript. The raw OpenAPI documents are at <a href="${PARTNER_DOCUMENT_PATH}">${PARTNER_DOCUMENT_PATH}</a>, <a href="${RELAY_DOCUMENT_PATH}">${RELAY_DOCUMENT_PATH}</a>, <a href="${NETWORK_DOCUMENT_PATH}">${NETWORK_DOCUMENT_PATH}</a> and ${BACKOFFICE_DOCUMENT_PATH} (with the back-office token).</noscript>
  <form id="backoffice-token" hidden style="font-family:sans-serif;padding:12px 20px">
    <label for="bo-token">Back-office token (sent as Authorization: Bearer, kept in this tab only)</label>
    <input id="bo-token" type="password" autocomplete="off" size="40">
    <button type="submit">Show</button>
  </form>
  <div id="swagger-ui"></div>
  <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;
}

/**
 * "Try it out" sends its requests to this page's own origin. The document names PUBLIC_BASE_URL as
 * its server, but a page opened under another name of the same gateway (127.0.0.1 for localhost,
 * a port-forward) would otherwise be refused by the page's own connect-src 'self'.
 */
const INIT_SCRIPT = `const sameOrigin = request => {
  const url = new URL(request.url, window.location.href);
  if (url.origin !== window.location.origin) request.url = window.location.origin + url.pathname + url.search;
  return request;
};
const api = new URLSearchParams(window.location.search).get("api");
for (const link of document.querySelectorAll("nav a")) {
  const linked = new URL(link.href).searchParams.get("api");
  if (linked === api || (!linked && api !== "relay" && api !== "network" && api !== "backoffice")) link.setAttribute("aria-current", "page");
}
const documents = { relay: ${JSON.stringify(RELAY_DOCUMENT_PATH)}, network: ${JSON.stringify(NETWORK_DOCUMENT_PATH)}, backoffice: ${JSON.stringify(BACKOFFICE_DOCUMENT_PATH)} };
// The back-office document needs the operator's token: asked for here, sent with every request of this tab.
const withToken = request => {
  const token = sessionStorage.getItem("backofficeToken");
  if (api === "backoffice" && token) request.headers.Authorization = "Bearer " + token;
  return sameOrigin(request);
};
if (api === "backoffice" && !sessionStorage.getItem("backofficeToken")) {
  const form = document.getElementById("backoffice-token");
  form.hidden = false;
  form.addEventListener("submit", event => {
    event.preventDefault();
    sessionStorage.setItem("backofficeToken", document.getElementById("bo-token").value.trim());
    window.location.reload();
  });
} else window.ui = SwaggerUIBundle({
  url: documents[api] ?? ${JSON.stringify(PARTNER_DOCUMENT_PATH)},
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
  validatorUrl: null,
  docExpansion: "list",
  defaultModelsExpandDepth: 1,
  displayRequestDuration: true,
  persistAuthorization: false,
  requestInterceptor: withToken
});
`;

/** The files /docs/<name> may serve, and their types; nothing else of the package is reachable. */
const ASSETS: Record<string, { type: string; file?: string; text?: string }> = {
  "swagger-ui.css": { type: "text/css; charset=utf-8", file: "swagger-ui.css" },
  "swagger-ui-bundle.js": { type: "text/javascript; charset=utf-8", file: "swagger-ui-bundle.js" },
  "favicon-32x32.png": { type: "image/png", file: "favicon-32x32.png" },
  "favicon-16x16.png": { type: "image/png", file: "favicon-16x16.png" },
  "init.js": { type: "text/javascript; charset=utf-8", text: INIT_SCRIPT }
};

const inline = new Map<string, Buffer>();

function swaggerUiDir(): string {
  return path.dirname(require.resolve("swagger-ui-dist/package.json"));
}

/** The asset's bytes, content type and date, or null for a name that is not served. */
export function docsAsset(name: string): { body: Buffer; type: string; lastModified: string | null } | null {
  if (!Object.prototype.hasOwnProperty.call(ASSETS, name)) return null;
  const asset = ASSETS[name];
  if (asset.text !== undefined) {
    let body = inline.get(name);
    if (!body) inline.set(name, (body = keptBody(asset.text)));
    return { body, type: asset.type, lastModified: null };
  }
  const file = readStaticFile(path.join(swaggerUiDir(), asset.file!));
  return file ? { body: file.body, type: asset.type, lastModified: file.lastModified } : null;
}
