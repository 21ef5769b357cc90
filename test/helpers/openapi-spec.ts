import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./processes";

/**
 * Validates an OpenAPI document with @seriousme/openapi-schema-validator, a standard validator
 * against the official OpenAPI 3.x JSON Schemas. It is an ES module, so it runs as its own CLI.
 */
export function validateOpenApiDocument(document: unknown): { valid: boolean; errors?: unknown[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-"));
  const file = path.join(dir, "openapi.json");
  try {
    fs.writeFileSync(file, JSON.stringify(document));
    const cli = path.join(ROOT, "node_modules", "@seriousme", "openapi-schema-validator", "bin", "validate-api-cli.js");
    const run = spawnSync(process.execPath, [cli, file], { encoding: "utf8", timeout: 60_000 });
    if (run.error) throw run.error;
    const result = JSON.parse(run.stdout) as { valid: boolean; errors?: unknown[] };
    if (result.valid !== (run.status === 0)) throw new Error(`validator exit code ${run.status} disagrees with ${run.stdout}`);
    return result;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
