import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ERROR_STATUS } from "../../../lib/errors";
import { ERROR_STATUS as SDK_ERROR_STATUS } from "../../../sdk/typescript/src/generated/error-codes";
import { documentText } from "../../helpers/api-documents";
import { ROOT } from "../../helpers/processes";

/**
 * The SDK's generated files are what `npm run sdk:generate` would write now: its types from the
 * partner document as the code builds it, its error codes from the server's table.
 */

const FIX = "run `npm run sdk:generate` and commit sdk/typescript/src/generated/";

test("the SDK's error codes are the server's", () => {
  expect({ codes: SDK_ERROR_STATUS, fix: FIX }).toEqual({ codes: ERROR_STATUS, fix: FIX });
});

test("the SDK's api.ts is what openapi-typescript generates from the partner document", () => {
  const script = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts["sdk:generate"] as string;
  const command = script
    .split("&&")
    .map(s => s.trim())
    .find(s => s.startsWith("openapi-typescript "))!;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sdk-"));
  try {
    const input = path.join(dir, "partner.json");
    const output = path.join(dir, "api.ts");
    fs.writeFileSync(input, documentText("partner"));
    const args = command
      .split(/\s+/)
      .slice(1)
      .map(a => (a.endsWith(".json") ? input : a.endsWith("api.ts") ? output : a));
    const cli = path.join(ROOT, "node_modules", "openapi-typescript", "bin", "cli.js");
    const run = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    expect(run.status).toBe(0);
    const committed = fs.readFileSync(path.join(ROOT, "sdk", "typescript", "src", "generated", "api.ts"), "utf8");
    expect({ upToDate: committed === fs.readFileSync(output, "utf8"), fix: FIX }).toEqual({ upToDate: true, fix: FIX });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
