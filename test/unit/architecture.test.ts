import fs from "node:fs";
import path from "node:path";
import { ALL_SERVICES } from "../../lib/config";
import { API_BASE_PATH } from "../../lib/endpoint";
import { ACTION_DEFINITIONS } from "../helpers/action-definitions";
import { ROOT } from "../helpers/processes";

/**
 * Issue 9: the layout docs/development/layout.md promises, held by the source itself. `lib/` is the pure layer;
 * every service has the same shape; SQL lives in stores; each route path is written once.
 * Issue 20: `lib/` holds only what is shared (a module one service uses lives in its folder), and
 * imports run downward only, with no cycle.
 */

const SOURCE_DIRS = ["lib", "services", "mixins", "middlewares", "bin", "types"];

function sourceFiles(dir: string): string[] {
  const full = path.join(ROOT, dir);
  return fs
    .readdirSync(full, { withFileTypes: true, recursive: true })
    .filter(e => e.isFile() && /\.(ts|mts|cts)$/.test(e.name))
    .map(e => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

const FILES = [...SOURCE_DIRS.flatMap(sourceFiles), ...fs.readdirSync(ROOT).filter(f => /\.ts$/.test(f) && !f.endsWith(".d.ts"))];
const text = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
/** The code without its comments (block comments, and lines that are a comment) and module specifiers. */
const code = (file: string) =>
  text(file)
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "")
    .replace(/(from\s*|import\s*\(\s*|require\s*\(\s*)["'][^"']+["']/g, "$1MODULE");

/** The relative modules a file imports (static, dynamic and `import type` alike). */
function relativeImports(file: string): string[] {
  const found = [...text(file).matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g)].map(m => m[1]);
  return found.map(target => path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), target)));
}

/** The source file a relative import names (`x.ts`, or `x/index.ts` for a folder); null for data (resources/*.json). */
function sourceFileOf(target: string): string | null {
  for (const candidate of [`${target}.ts`, path.join(target, "index.ts"), target]) {
    if (/\.ts$/.test(candidate) && fs.existsSync(path.join(ROOT, candidate))) return candidate;
  }
  return null;
}

/** Each file's imports of our own source files. */
const IMPORTS = new Map(FILES.map(file => [file, relativeImports(file).flatMap(target => sourceFileOf(target) ?? [])]));

/** The service a file under services/ belongs to (`services/x.service.ts` and `services/x/…`); null for the loader. */
function serviceOf(file: string): string | null {
  return /^services\/([^/.]+)(?:\/|\.service\.ts$)/.exec(file)?.[1] ?? null;
}

/** How high a file stands: it imports only from its own level or below. */
function levelOf(file: string): number {
  if (file.startsWith("lib/")) return 0;
  if (file.startsWith("mixins/") || file.startsWith("middlewares/") || file.startsWith("types/")) return 1;
  if (file.startsWith("services/")) return 2;
  return 3; // bin/ and the root (moleculer.config.ts): the runtime that starts the services.
}

/**
 * Who uses a module under lib/: the services, and `runtime` (bin/), `mixins`, `middlewares`,
 * through the lib modules, mixins and middlewares in between. The broker options
 * (moleculer.config.ts) are what every service runs under: what they import serves every service.
 */
function usersOf(module: string, seen = new Set<string>()): Set<string> {
  const users = new Set<string>();
  if (seen.has(module)) return users;
  seen.add(module);
  for (const [importer, targets] of IMPORTS) {
    if (!targets.includes(module)) continue;
    const layer = importer.split("/")[0];
    if (layer === "lib" || layer === "mixins" || layer === "middlewares") {
      if (layer !== "lib") users.add(layer);
      for (const user of usersOf(importer, seen)) users.add(user);
    } else if (layer === "services") {
      users.add(serviceOf(importer) ?? "runtime");
    } else if (layer === "bin") {
      users.add("runtime");
    } else if (importer === "moleculer.config.ts") {
      for (const name of [...ALL_SERVICES, "runtime"]) users.add(name);
    }
  }
  return users;
}

describe("lib/ is the pure layer", () => {
  test("it finds source files to check", () => {
    expect(FILES.filter(f => f.startsWith("lib/")).length).toBeGreaterThan(30);
    expect(FILES.filter(f => f.startsWith("services/")).length).toBeGreaterThan(30);
  });

  test("nothing under lib/ imports from services/, bin/, mixins/, middlewares/ or the root", () => {
    const crossings = FILES.filter(f => f.startsWith("lib/")).flatMap(file =>
      relativeImports(file)
        .filter(target => !target.startsWith("lib/") && !target.startsWith("resources/"))
        .map(target => `${file} → ${target}`)
    );
    expect(crossings).toEqual([]);
  });

  test("every module under lib/ is shared: by two services, or by bin/, mixins/ or middlewares/ and a service", () => {
    const services: readonly string[] = ALL_SERVICES;
    const notShared = FILES.filter(f => f.startsWith("lib/")).flatMap(module => {
      const users = [...usersOf(module)];
      const serviceCount = users.filter(user => services.includes(user)).length;
      const shared = serviceCount >= 2 || (serviceCount === 1 && users.length >= 2);
      return shared ? [] : [`${module} is used by ${users.join(", ") || "nothing"}: move it into its user's folder`];
    });
    expect(notShared).toEqual([]);
  });

  test("the check sees who uses a module (one service, several, or the runtime through a mixin)", () => {
    expect([...usersOf("services/parcels/relay-search.ts")]).toEqual(["parcels"]);
    expect(usersOf("lib/errors.ts").size).toBeGreaterThanOrEqual(ALL_SERVICES.length);
    expect([...usersOf("lib/db/connection.ts")]).toEqual(expect.arrayContaining(["mixins", "parcels", "webhooks"]));
  });
});

describe("imports run downward only, with no cycle", () => {
  test("runtime → services → mixins, middlewares, types → lib: nothing imports from a level above its own", () => {
    const upward = [...IMPORTS].flatMap(([file, targets]) =>
      targets.filter(target => levelOf(target) > levelOf(file)).map(target => `${file} → ${target}`)
    );
    expect(upward).toEqual([]);
  });

  test("a service imports another service's contract (types) and nothing else of it", () => {
    const sideways = [...IMPORTS].flatMap(([file, targets]) => {
      const own = serviceOf(file);
      if (file === "services/index.ts") return []; // the loader: it loads every service's module
      return targets
        .filter(target => levelOf(target) === 2 && levelOf(file) === 2 && serviceOf(target) !== own)
        .filter(target => !/^services\/([^/]+)\/\1\.contract\.ts$/.test(target))
        .map(target => `${file} → ${target}`);
    });
    expect(sideways).toEqual([]);
    // The check follows imports between service folders: the labels' inputs name the parcels' contract.
    expect(IMPORTS.get("services/labels/label-inputs.ts")).toContain("services/parcels/parcels.contract.ts");
  });

  test("no import cycle, type-only imports included", () => {
    const state = new Map<string, "open" | "done">();
    const cycles: string[] = [];
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(" → "));
        return;
      }
      state.set(file, "open");
      for (const target of IMPORTS.get(file) ?? []) visit(target, [...trail, file]);
      state.set(file, "done");
    };
    for (const file of IMPORTS.keys()) visit(file, []);
    expect(cycles).toEqual([]);
    expect([...IMPORTS.values()].flat().length).toBeGreaterThan(500);
  });
});

describe("one shape for every service", () => {
  const SQL = /\b(SELECT\s+[\w*(]|INSERT\s+INTO|UPDATE\s+[\w.]+\s+SET|DELETE\s+FROM)\b/;

  test.each(ALL_SERVICES.map(name => [name]))("%s: x.service.ts and x/x.params.ts; a contract when others call it", name => {
    expect(fs.existsSync(path.join(ROOT, "services", `${name}.service.ts`))).toBe(true);
    expect(fs.existsSync(path.join(ROOT, "services", name, `${name}.params.ts`))).toBe(true);
    const calledByOthers = FILES.some(
      file => !file.startsWith(`services/${name}`) && new RegExp(`["'\`]${name}\\.[a-zA-Z]+["'\`]`).test(text(file))
    );
    if (calledByOthers)
      expect({ name, contract: fs.existsSync(path.join(ROOT, "services", name, `${name}.contract.ts`)) }).toEqual({ name, contract: true });
  });

  test("SQL is written in the services' stores only", () => {
    const outside = FILES.filter(f => f.startsWith("services/") && !f.endsWith(".store.ts") && SQL.test(text(f)));
    expect(outside).toEqual([]);
    // The check would see SQL: the stores do have it.
    expect(FILES.filter(f => f.endsWith(".store.ts") && SQL.test(text(f))).length).toBeGreaterThanOrEqual(5);
  });
});

describe("each route path is written once", () => {
  // Ours: the actions that say which API they belong to (moleculer-web's own listAliases is not routed).
  const declared = [...ACTION_DEFINITIONS.entries()]
    .filter(([, a]) => typeof a.rest === "string" && a.api !== undefined)
    .map(([name, a]) => [name, (a.rest as string).split(" ")[1]] as const);

  /** The files where `literal` stands as a whole string or the whole tail of a template (not inside a longer path). */
  function filesWriting(literal: string, source: (file: string) => string = code): string[] {
    const escaped = literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const pattern = new RegExp(`(?<=["'\`}\\s])${escaped}(?=["'\`])`);
    return FILES.filter(file => pattern.test(source(file)));
  }

  /**
   * A route declaration ("POST /labels") names a path inside its own API: the partner API's
   * POST /labels is not the labels API's base path, though the two read the same.
   */
  const withoutRouteDeclarations = (file: string) => code(file).replace(/(["'`])(?:GET|POST|PUT|PATCH|DELETE) \/[^"'`]*\1/g, "");
  const BASE_PATHS: readonly string[] = Object.values(API_BASE_PATH);

  test("every route is declared", () => {
    expect(declared.length).toBeGreaterThanOrEqual(25);
    expect(declared.map(([, p]) => p)).toContain("/parcels/by-tracking/:trackingNumber");
  });

  test.each(Object.entries(API_BASE_PATH).filter(([, base]) => base !== "/"))(
    "the %s base path %s is written in one file",
    (_kind, base) => {
      expect(filesWriting(base, withoutRouteDeclarations)).toEqual(["lib/endpoint.ts"]);
    }
  );

  test("no declared path is written in two files (a path built from a constant is written nowhere)", () => {
    // Two APIs may each have a path that reads the same (the partner's and the relay API's GET
    // /parcels, under their own base paths): each of them is written once, so one file per API.
    const apisDeclaring = (routePath: string) =>
      new Set(
        [...ACTION_DEFINITIONS.values()].filter(a => typeof a.rest === "string" && a.rest.split(" ")[1] === routePath).map(a => a.api)
      ).size;
    // A path of parameters only (the labels' `/:file`) says nothing by itself: it is the tail of others.
    const counts = declared
      .filter(([, routePath]) => routePath.split("/").some(s => s && !s.startsWith(":")))
      .map(([name, routePath]) => ({
        name,
        routePath,
        apis: apisDeclaring(routePath),
        files: filesWriting(routePath).filter(file => !(file === "lib/endpoint.ts" && BASE_PATHS.includes(routePath)))
      }));
    expect(counts.filter(c => c.files.length > c.apis)).toEqual([]);
    expect(counts.filter(c => c.files.length === 1).length).toBeGreaterThanOrEqual(20);
  });

  test("each hyphenated segment (by-tracking, trigger-event…) is written in one file", () => {
    const segments = new Set(declared.flatMap(([, routePath]) => routePath.split("/").filter(s => s.includes("-") && !s.startsWith(":"))));
    expect(segments).toContain("by-tracking");
    const repeated = [...segments]
      .map(segment => ({ segment, files: FILES.filter(file => new RegExp(`/${segment}(?=[/"'\`?])`).test(code(file))) }))
      .filter(s => s.files.length !== 1);
    expect(repeated).toEqual([]);
  });
});
