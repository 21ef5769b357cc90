import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { canConnect, ServerName } from "./servers";

const ALL: ServerName[] = ["postgres", "redis", "nats"];
const ROOT = path.join(__dirname, "..", "..");

/**
 * Once per run: probes the local servers (under CI a missing one fails the run instead of
 * skipping), and generates the OpenAPI documents the way a gateway serves them (from the
 * endpoint declarations of every service), for the tests that check documents and responses.
 */
export default async function globalSetup(): Promise<void> {
  const up: ServerName[] = [];
  for (const name of ALL) if (await canConnect(name)) up.push(name);
  process.env.RELAY_TEST_SERVERS = up.join(",");
  const missing = ALL.filter(name => !up.includes(name));
  if (missing.length > 0 && process.env.CI === "true") {
    throw new Error(`CI=true but these servers are not reachable: ${missing.join(", ")}`);
  }
  const apiDocs = path.join(ROOT, "dist", "bin", "api-docs.js");
  if (!fs.existsSync(apiDocs)) throw new Error("dist/ is missing: run the tests with `npm test` (it builds first)");

  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built dist/, as `npm start` runs it
  const { apiDocuments, documentText } = require(apiDocs) as typeof import("../../bin/api-docs");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-api-docs-"));
  const documents = await apiDocuments();
  for (const [name, document] of Object.entries(documents)) fs.writeFileSync(path.join(dir, `${name}.json`), documentText(document));
  process.env.RELAY_API_DOCS_DIR = dir;
}
