import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { documentText } from "../helpers/api-documents";
import { ROOT } from "../helpers/processes";

/**
 * clients/typescript/ holds generated files: the partner document as a gateway builds it from the
 * endpoint declarations (generated for this run by the global setup), and the types
 * openapi-typescript makes of it. Both must be what `npm run client:generate` would
 * write now, with the same options (read from that script).
 */

const CLIENT_DIR = path.join(ROOT, "clients", "typescript");
const FIX = "run `npm run client:generate` and commit clients/typescript/";

test("partner-api.openapi.json is the document the code builds", () => {
  const committed = fs.readFileSync(path.join(CLIENT_DIR, "partner-api.openapi.json"), "utf8");
  expect({ upToDate: committed === documentText("partner"), fix: FIX }).toEqual({ upToDate: true, fix: FIX });
});

test("partner-api.d.ts is what openapi-typescript generates from it", () => {
  const script = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts["client:generate"] as string;
  const command = script
    .split("&&")
    .map(s => s.trim())
    .find(s => s.startsWith("openapi-typescript "))!;
  const args = command.split(/\s+/).slice(1);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "client-"));
  try {
    const input = path.join(dir, "partner-api.openapi.json");
    const output = path.join(dir, "partner-api.d.ts");
    fs.writeFileSync(input, documentText("partner"));
    const resolved = args.map(a => (a.endsWith(".openapi.json") ? input : a.endsWith(".d.ts") ? output : a));
    const cli = path.join(ROOT, "node_modules", "openapi-typescript", "bin", "cli.js");
    const run = spawnSync(process.execPath, [cli, ...resolved], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
    const committed = fs.readFileSync(path.join(CLIENT_DIR, "partner-api.d.ts"), "utf8");
    expect({ upToDate: committed === fs.readFileSync(output, "utf8"), fix: FIX }).toEqual({ upToDate: true, fix: FIX });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
