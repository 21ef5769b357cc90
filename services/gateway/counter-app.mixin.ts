import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { Context, ServiceSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import type { EndpointDocs } from "../../lib/endpoint";
import { AppError } from "../../lib/errors";
import { projectRoot } from "../../lib/project-root";
import type { PageMeta } from "./tracking-page.mixin";

/**
 * The counter app of a relay point (web/counter/, bundled into dist/web/counter by
 * `npm run build`): its shell, bundle, service worker, manifest, icons and barcode decoder, on the
 * relay API's origin so that the app calls it without CORS. Files are read once; the folder holds
 * only what the build wrote, and a name outside it is 404.
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

/**
 * Sent gzipped to a browser that takes it: the first open of the app on a cheap phone over a slow
 * network pays for every byte of the bundle, the barcode decoder and its WebAssembly (PNG is
 * compressed already). Compressed once, at the first request, and kept with the file.
 */
const COMPRESSIBLE = new Set([".html", ".js", ".css", ".webmanifest", ".svg", ".wasm"]);
const gzipped = new Map<string, Buffer>();

function gzipOf(name: string, body: Buffer): Buffer {
  let packed = gzipped.get(name);
  if (!packed) gzipped.set(name, (packed = zlib.gzipSync(body, { level: 9 })));
  return packed;
}

const docs = (operationId: string, summary: string): EndpointDocs => ({
  operationId,
  summary,
  tag: "Counter app",
  responseDescription: summary,
  // A web app for shopkeepers, not an operation of the API: its contract is the app's browser test.
  hidden: true
});

const SHELL = "index.html";
const files = new Map<string, Buffer>();

function readFile(name: string): Buffer | null {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$/.test(name) || !TYPES[path.extname(name)]) return null;
  const cached = files.get(name);
  if (cached) return cached;
  try {
    const body = fs.readFileSync(path.join(projectRoot(), "dist", "web", "counter", name));
    files.set(name, body);
    return body;
  } catch {
    return null;
  }
}

function serve(ctx: Context<unknown, HttpMeta>, name: string): Buffer {
  const body = readFile(name);
  if (!body) throw new AppError("NOT_FOUND", "No such file");
  const compressible = COMPRESSIBLE.has(path.extname(name));
  const gzip = compressible && ctx.meta.client?.acceptsGzip === true;
  ctx.meta.$responseType = TYPES[path.extname(name)];
  ctx.meta.$responseHeaders = {
    ...(compressible ? { Vary: "Accept-Encoding" } : {}),
    ...(gzip ? { "Content-Encoding": "gzip" } : {}),
    // The service worker answers from its own cache; the network copy is checked on each update.
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    ...(name === SHELL
      ? { "Content-Security-Policy": COUNTER_CONTENT_SECURITY_POLICY, "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY" }
      : {}),
    // The worker's scope is /counter/, where it is served from.
    ...(name === "sw.js" ? { "Service-Worker-Allowed": `${COUNTER_PATH}/` } : {})
  };
  return gzip ? gzipOf(name, body) : body;
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
