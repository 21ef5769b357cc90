import path from "node:path";
import type { Context, ServiceSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import type { EndpointDocs } from "../../lib/endpoint";
import { AppError } from "../../lib/errors";
import { projectRoot } from "../../lib/project-root";
import { readStaticFile, StaticFile } from "./http/static-files";
import type { PageMeta } from "./tracking-page.mixin";

/**
 * The counter app of a relay point (web/counter/, bundled into dist/web/counter by
 * `npm run build`): its shell, bundle, service worker, manifest, icons and barcode decoder, on the
 * relay API's origin so that the app calls it without CORS. Files are read once; the folder holds
 * only what the build wrote, and a name outside it is 404. The first open of the app on a cheap
 * phone over a slow network pays for every byte: the root route sends them compressed.
 */
export const COUNTER_PATH = "/counter";

/**
 * No inline script or style, our origin only. 'wasm-unsafe-eval' lets the barcode decoder compile
 * its WebAssembly (it runs no JavaScript from strings); blob: is the camera's still frame.
 */
export const COUNTER_CONTENT_SECURITY_POLICY = [
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

const docs = (operationId: string, summary: string): EndpointDocs => ({
  operationId,
  summary,
  tag: "Counter app",
  responseDescription: summary,
  // A web app for shopkeepers, not an operation of the API: its contract is the app's browser test.
  hidden: true
});

const SHELL = "index.html";

/** A file the build wrote (compressed and validated by the root route, gateway/http/static-files.ts), or null. */
function counterFile(name: string): StaticFile | null {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$/.test(name) || !TYPES[path.extname(name)]) return null;
  return readStaticFile(path.join(projectRoot(), "dist", "web", "counter", name));
}

function serve(ctx: Context<unknown, HttpMeta>, name: string): Buffer {
  const file = counterFile(name);
  if (!file) throw new AppError("NOT_FOUND", "No such file");
  ctx.meta.$responseType = TYPES[path.extname(name)];
  ctx.meta.$responseHeaders = {
    // The service worker answers from its own cache; the network copy is checked on each update.
    "Cache-Control": "no-cache",
    "Last-Modified": file.lastModified,
    "X-Content-Type-Options": "nosniff",
    ...(name === SHELL
      ? { "Content-Security-Policy": COUNTER_CONTENT_SECURITY_POLICY, "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY" }
      : {}),
    // The worker's scope is /counter/, where it is served from.
    ...(name === "sw.js" ? { "Service-Worker-Allowed": `${COUNTER_PATH}/` } : {})
  };
  return file.body;
}

export const CounterAppMixin: Partial<ServiceSchema> = {
  actions: {
    counterAppRedirect: defineAction<unknown, unknown, HttpMeta>({
      rest: `GET ${COUNTER_PATH}`,
      api: "open",
      endpoint: docs("getCounterApp", "The counter app: its shell, inside the service worker's folder"),
      handler(ctx) {
        // /counter and /counter/ reach this one route; the shell has one address, inside the worker's
        // scope (a page at /counter would be outside /counter/). A fragment (#pair=CODE) survives the redirect.
        ctx.meta.$statusCode = 308;
        ctx.meta.$location = `${COUNTER_PATH}/${SHELL}`;
        return "";
      }
    }),

    counterAppFile: defineAction<Record<string, unknown>, unknown, HttpMeta>({
      rest: `GET ${COUNTER_PATH}/:file`,
      api: "open",
      endpoint: docs("getCounterAppFile", "A file of the counter app"),
      handler(ctx) {
        return serve(ctx, typeof ctx.params.file === "string" ? ctx.params.file : "");
      }
    })
  }
};
