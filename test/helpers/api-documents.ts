import fs from "node:fs";
import path from "node:path";
import type { OpenApiDocument } from "../../lib/openapi/types";

/** The documents the global setup generated for this run (test/helpers/global-setup.ts). */
export function apiDocument(name: "partner" | "relay" | "backoffice"): OpenApiDocument {
  const dir = process.env.RELAY_API_DOCS_DIR;
  if (!dir) throw new Error("RELAY_API_DOCS_DIR is not set: run the tests through jest (its global setup generates the documents)");
  return JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), "utf8")) as OpenApiDocument;
}

export function documentText(name: "partner" | "relay" | "backoffice"): string {
  return fs.readFileSync(path.join(process.env.RELAY_API_DOCS_DIR ?? "", `${name}.json`), "utf8");
}
