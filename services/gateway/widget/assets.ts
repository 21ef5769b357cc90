import path from "node:path";
import { projectRoot } from "../../../lib/project-root";
import { readStaticFile } from "../http/static-files";

/**
 * The files of the checkout's relay-point picker (issue 28) that the gateway serves under
 * WIDGET_PATH to pages of any origin: the component that web/build.mjs bundles from web/picker/,
 * and Leaflet's ES module and stylesheet, which the component loads only when the shop gives it a
 * tile server (`tiles`). Read once and kept; compressed, with their ETag, by the root route
 * (gateway/http/static-files.ts).
 */

export const WIDGET_PATH = "/widget/v1";
export const PICKER_FILE = "relay-point-picker.js";
/** Leaflet's version is in its names: those URLs never change content, so they are cached for a year. */
export const LEAFLET_VERSION = "1.9.4";
export const LEAFLET_SCRIPT = `leaflet-${LEAFLET_VERSION}.esm.js`;
export const LEAFLET_STYLESHEET = `leaflet-${LEAFLET_VERSION}.css`;

export interface WidgetAsset {
  body: Buffer;
  type: string;
  headers: Record<string, string>;
}

const JS = "text/javascript; charset=utf-8";

/** Where each served name comes from, its type and how long a browser keeps it. */
const SOURCES: Record<string, { file: () => string; type: string; cacheControl: string }> = {
  // Not versioned in its name: a day, then revalidated with its ETag (a fix reaches shops within a day).
  [PICKER_FILE]: {
    file: () => path.join(projectRoot(), "dist", "web", "picker", PICKER_FILE),
    type: JS,
    cacheControl: "public, max-age=86400, stale-while-revalidate=604800"
  },
  [LEAFLET_SCRIPT]: {
    file: () => path.join(projectRoot(), "node_modules", "leaflet", "dist", "leaflet-src.esm.js"),
    type: JS,
    cacheControl: "public, max-age=31536000, immutable"
  },
  [LEAFLET_STYLESHEET]: {
    file: () => path.join(projectRoot(), "node_modules", "leaflet", "dist", "leaflet.css"),
    type: "text/css; charset=utf-8",
    cacheControl: "public, max-age=31536000, immutable"
  }
};

/** The asset served as `name`, or null for any other name (or a picker not built: run npm run build). */
export function widgetAsset(name: string): WidgetAsset | null {
  const source = Object.hasOwn(SOURCES, name) ? SOURCES[name] : undefined;
  const file = source ? readStaticFile(source.file()) : null;
  if (!source || !file) return null;
  return {
    body: file.body,
    type: source.type,
    headers: {
      "Cache-Control": source.cacheControl,
      "Last-Modified": file.lastModified,
      // A shop's page on another origin loads it as a module script: a CORS request.
      "Access-Control-Allow-Origin": "*",
      "Cross-Origin-Resource-Policy": "cross-origin",
      "X-Content-Type-Options": "nosniff"
    }
  };
}
