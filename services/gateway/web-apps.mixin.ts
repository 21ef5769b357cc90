import path from "node:path";
import type { Context, ServiceSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import type { EndpointDocs } from "../../lib/endpoint";
import { AppError } from "../../lib/errors";
import { projectRoot } from "../../lib/project-root";
import { readStaticFile, StaticFile } from "./http/static-files";
import type { PageMeta } from "./tracking-page.mixin";

/**
 * The installable web apps, each bundled by `npm run build` from web/<app>/ into dist/web/<app>:
 * the counter app of a relay point at /counter (issue 27) and the courier's app at /courier
 * (issue 45 A). Each is its shell, bundle, service worker, manifest, icons and barcode decoder, on
 * the origin of the API it calls (no CORS). Files are read once; the folder holds only what the
 * build wrote, and a name outside it is 404. The first open on a cheap phone over a slow network
 * pays for every byte: the root route sends them compressed (decision 0049).
 */
export const COUNTER_PATH = "/counter";
export const COURIER_PATH = "/courier";

/**
 * No inline script or style, our origin only. 'wasm-unsafe-eval' lets the barcode decoder compile
 * its WebAssembly (it runs no JavaScript from strings); blob: is the camera's still frame.
 */
export const WEB_APP_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'"
].join("; ");
export const COUNTER_CONTENT_SECURITY_POLICY = WEB_APP_CONTENT_SECURITY_POLICY;

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".wasm": "application/wasm"
};

type HttpMeta = PageMeta;

const SHELL = "index.html";

/** A file the build wrote for this app (compressed and validated by the root route, gateway/http/static-files.ts), or null. */
function appFile(app: string, name: string): StaticFile | null {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$/.test(name) || !TYPES[path.extname(name)]) return null;
  return readStaticFile(path.join(projectRoot(), "dist", "web", app, name));
}

function serve(ctx: Context<unknown, HttpMeta>, appPath: string, name: string): Buffer {
  const file = appFile(appPath.slice(1), name);
  if (!file) throw new AppError("NOT_FOUND", "No such file");
  ctx.meta.$responseType = TYPES[path.extname(name)];
  ctx.meta.$responseHeaders = {
    // The service worker answers from its own cache; the network copy is checked on each update.
    "Cache-Control": "no-cache",
    "Last-Modified": file.lastModified,
    "X-Content-Type-Options": "nosniff",
    ...(name === SHELL
      ? { "Content-Security-Policy": WEB_APP_CONTENT_SECURITY_POLICY, "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY" }
      : {}),
    // The worker's scope is the app's folder, where it is served from.
    ...(name === "sw.js" ? { "Service-Worker-Allowed": `${appPath}/` } : {})
  };
  return file.body;
}

/** The two routes of one app: its folder's address redirected to the shell, and its files. */
function appActions(appPath: string, prefix: string, title: string, tag: string): ServiceSchema["actions"] {
  const docs = (operationId: string, summary: string): EndpointDocs => ({
    operationId,
    summary,
    tag,
    responseDescription: summary,
    // A web app for people, not an operation of the API: its contract is the app's browser test.
    hidden: true
  });
  return {
    [`${prefix}Redirect`]: defineAction<unknown, unknown, HttpMeta>({
      rest: `GET ${appPath}`,
      api: "open",
      endpoint: docs(`get${title}`, `The ${tag.toLowerCase()}: its shell, inside the service worker's folder`),
      handler(ctx) {
        // /app and /app/ reach this one route; the shell has one address, inside the worker's
        // scope (a page at /app would be outside /app/). A fragment (#pair=CODE) survives the redirect.
        ctx.meta.$statusCode = 308;
        ctx.meta.$location = `${appPath}/${SHELL}`;
        return "";
      }
    }),

    [`${prefix}File`]: defineAction<Record<string, unknown>, unknown, HttpMeta>({
      rest: `GET ${appPath}/:file`,
      api: "open",
      endpoint: docs(`get${title}File`, `A file of the ${tag.toLowerCase()}`),
      handler(ctx) {
        return serve(ctx, appPath, typeof ctx.params.file === "string" ? ctx.params.file : "");
      }
    })
  };
}

export const WebAppsMixin: Partial<ServiceSchema> = {
  actions: {
    ...appActions(COUNTER_PATH, "counterApp", "CounterApp", "Counter app"),
    ...appActions(COURIER_PATH, "courierApp", "CourierApp", "Courier app")
  }
};
