import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../../helpers/processes";

/**
 * Issue 29, acceptance 4: the package as a merchant installs it. It builds to ES modules and
 * CommonJS, both loaded through the package's exports map by a consumer; its declarations compile
 * in a strict consumer project; `npm pack` would publish dist/ and the package's own files only.
 */

const SDK = path.join(ROOT, "sdk", "typescript");
const TSC = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
let consumer: string;
/** The package as built by its script, in a folder of this test's own (build.mjs <dir>). */
let pkg: string;

function node(args: string[], cwd: string): string {
  return execFileSync(process.execPath, args, { cwd, encoding: "utf8" });
}

beforeAll(() => {
  // A consumer project with the SDK installed as npm would: node_modules/@relay-parcels/sdk.
  consumer = fs.mkdtempSync(path.join(os.tmpdir(), "relay-sdk-consumer-"));
  pkg = path.join(consumer, "built-sdk");
  node([path.join(SDK, "scripts", "build.mjs"), pkg], ROOT);
  fs.mkdirSync(path.join(consumer, "node_modules", "@relay-parcels"), { recursive: true });
  fs.symlinkSync(pkg, path.join(consumer, "node_modules", "@relay-parcels", "sdk"), "dir");
  fs.symlinkSync(path.join(ROOT, "node_modules", "@types"), path.join(consumer, "node_modules", "@types"), "dir");
  fs.writeFileSync(path.join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true }));
}, 120_000);

afterAll(() => {
  if (consumer) fs.rmSync(consumer, { recursive: true, force: true });
});

const PROBE = `
  const client = new sdk.RelayParcels({ apiKey: "rp_sandbox_x" });
  const headers = sdk.webhooks.testHeaders({ payload: '{"type":"parcel.at_relay"}', secret: "s" });
  console.log(JSON.stringify({
    client: typeof client.parcels.create,
    list: typeof client.parcels.list({})[Symbol.asyncIterator],
    timeout: new sdk.TimeoutError({ message: "m", code: "TIMEOUT" }) instanceof sdk.RelayError,
    verified: sdk.webhooks.verify('{"type":"parcel.at_relay"}', headers, "s").event.type,
    codes: sdk.ERROR_STATUS.IDEMPOTENCY_KEY_IN_USE
  }));`;
const EXPECTED = { client: "function", list: "function", timeout: true, verified: "parcel.at_relay", codes: 409 };

test("the ES module build is imported, and the CommonJS build required, through the exports map", () => {
  fs.writeFileSync(
    path.join(consumer, "esm.mjs"),
    `import * as sdk from "@relay-parcels/sdk";\nimport Default from "@relay-parcels/sdk";\n${PROBE}\nif (Default !== sdk.RelayParcels) throw new Error("default export");`
  );
  fs.writeFileSync(path.join(consumer, "cjs.cjs"), `const sdk = require("@relay-parcels/sdk");\n${PROBE}`);
  expect(JSON.parse(node(["esm.mjs"], consumer))).toEqual(EXPECTED);
  expect(JSON.parse(node(["cjs.cjs"], consumer))).toEqual(EXPECTED);
  // Two builds, not one re-exported by the other.
  expect(fs.readFileSync(path.join(pkg, "dist", "esm", "client.js"), "utf8")).toMatch(/^import /m);
  expect(fs.readFileSync(path.join(pkg, "dist", "cjs", "client.js"), "utf8")).toMatch(/require\(/);
});

test("the declarations compile in a strict consumer project, ESM and CommonJS, and catch a wrong call", () => {
  const source = (importLine: string) => `${importLine}
export async function ship(relay: RelayParcels): Promise<string> {
  const parcel = await relay.parcels.create({ recipientName: "Amina", recipientPhone: "+213 555 12 34 56", weightG: 1200, destinationRelayCode: "DZ-16-ALGER-CENTRE" });
  const status: ParcelStatus = parcel.status;
  const known = status === "AT_RELAY" ? "ready" : "other";
  for await (const p of relay.parcels.list({ status: "AT_RELAY" }, { maxItems: 10 })) void p.trackingNumber;
  try {
    await relay.parcels.get("x", { timeoutMs: 1000, maxRetries: 0 });
  } catch (err) {
    if (err instanceof RelayError) {
      const code: ErrorCode = err.code;
      void [code, err.status, err.requestId, err.details, err.idempotencyKey];
    }
  }
  // @ts-expect-error weightG is a number
  await relay.parcels.create({ recipientName: "A", recipientPhone: "0555", weightG: "1200", destinationRelayCode: "DZ-16-X" });
  return parcel.lastResponse.idempotencyKey + known;
}
`;
  fs.writeFileSync(
    path.join(consumer, "use.mts"),
    source(`import { RelayParcels, RelayError, type ErrorCode, type ParcelStatus } from "@relay-parcels/sdk";`)
  );
  fs.writeFileSync(
    path.join(consumer, "use.cts"),
    source(
      `import { RelayParcels, RelayError } from "@relay-parcels/sdk";\nimport type { ErrorCode, ParcelStatus } from "@relay-parcels/sdk";`
    )
  );
  fs.writeFileSync(
    path.join(consumer, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: "NodeNext",
        moduleResolution: "NodeNext",
        target: "ES2022",
        lib: ["ES2022"],
        types: ["node"],
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: false
      },
      files: ["use.mts", "use.cts"]
    })
  );
  // Throws (with the compiler's output) on any error, an unused @ts-expect-error included.
  expect(() => node([TSC, "-p", "tsconfig.json"], consumer)).not.toThrow();
});

test("npm pack publishes dist/ and the package's own files, nothing else", () => {
  const output = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: pkg, encoding: "utf8" });
  const [pack] = JSON.parse(output) as { name: string; files: { path: string }[] }[];
  expect(pack.name).toBe("@relay-parcels/sdk");
  const files = pack.files.map(f => f.path).sort();
  expect(files.filter(f => !f.startsWith("dist/") && !["package.json", "README.md", "LICENSE"].includes(f))).toEqual([]);
  expect(files).toEqual(
    expect.arrayContaining([
      "package.json",
      "README.md",
      "dist/esm/index.js",
      "dist/esm/index.d.ts",
      "dist/cjs/index.js",
      "dist/cjs/index.d.ts"
    ])
  );
  // No tests, no source maps (they would embed the sources), no TypeScript sources, no stray config.
  expect(files.filter(f => /\.(test|spec)\.|\.map$|(?<!\.d)\.ts$|tsconfig|\.env/.test(f))).toEqual([]);
  const manifest = JSON.parse(fs.readFileSync(path.join(SDK, "package.json"), "utf8"));
  expect(manifest.dependencies ?? {}).toEqual({});
  expect(manifest.engines.node).toBe(">=18");
});
