// Bundles the browser apps (the counter app, the courier app, the checkout picker) with esbuild into dist/web/<app>/.
// esbuild because it is one small binary with no plugins to configure: TypeScript in, one minified
// ES module out, in milliseconds. The gateway serves dist/web; nothing here runs on the server.
import { build } from "esbuild";
import { cpSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));
const out = join(root, "..", "dist", "web");

/**
 * One line per app: its entry points (relative to web/) and an optional folder of static files
 * (manifest, icons, HTML) copied as they are, and files of web/shared/ copied beside them
 * (`shared`: the apps' one stylesheet).
 * `after` is a module (relative to web/) whose default export runs once the app is built, with its
 * output folder (the counter app writes its service worker there, listing what it precaches).
 * @type {{ name: string, entryPoints: string[], staticDir?: string, shared?: string[], after?: string }[]}
 */
const apps = [
  // The checkout's relay-point picker: one self-contained module (no dynamic import of our own code,
  // so no chunk); the gateway serves it at /widget/v1/relay-point-picker.js.
  { name: "picker", entryPoints: ["picker/relay-point-picker.ts"] },
  { name: "counter", entryPoints: ["counter/main.ts"], staticDir: "counter/static", shared: ["app.css"], after: "counter/build-sw.mjs" },
  { name: "courier", entryPoints: ["courier/main.ts"], staticDir: "courier/static", shared: ["app.css"], after: "courier/build-sw.mjs" }
];

for (const app of apps) {
  const outdir = join(out, app.name);
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: app.entryPoints.map(entry => join(root, entry)),
    outdir,
    bundle: true,
    format: "esm",
    splitting: true,
    minify: true,
    target: ["es2022", "chrome100", "safari15"],
    legalComments: "none",
    loader: { ".css": "text" },
    logLevel: "warning"
  });
  if (app.staticDir && existsSync(join(root, app.staticDir))) {
    cpSync(join(root, app.staticDir), outdir, { recursive: true });
  }
  for (const name of app.shared ?? []) cpSync(join(root, "shared", name), join(outdir, name));
  if (app.after) {
    const { default: after } = await import(pathToFileURL(join(root, app.after)).href);
    await after(outdir);
  }
}
