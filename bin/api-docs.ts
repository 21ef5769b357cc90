import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { loadConfig } from "../lib/config";
import { call } from "../lib/contract";
import type { OpenApiDocument } from "../lib/openapi/types";
import { createSystem } from "./system";

/**
 * Prints (or writes) the OpenAPI documents exactly as a gateway serves them: it starts every
 * service in this process (an in-memory database, a gateway on a free port), asks the gateway,
 * and stops. `node dist/bin/api-docs.js partner|relay|backoffice|network [--server-url URL] [--out FILE]`, or
 * `all --out-dir DIR` for every one;
 * `npm run client:generate` uses it to refresh clients/.
 */

export const DEFAULT_SERVER_URL = "http://localhost:3000";

export type DocumentName = "partner" | "relay" | "backoffice" | "network";
const DOCUMENT_NAMES: readonly DocumentName[] = ["partner", "relay", "backoffice", "network"];

export async function apiDocuments(serverUrl = DEFAULT_SERVER_URL): Promise<Record<DocumentName, OpenApiDocument>> {
  const secret = () => randomBytes(32).toString("hex");
  const config = loadConfig({
    DATA_DIR: `memory://api-docs-${process.pid}`,
    PORT: "0",
    PUBLIC_BASE_URL: serverUrl,
    LOG_LEVEL: "error",
    BACKOFFICE_TOKEN: secret(),
    ENCRYPTION_KEY: secret(),
    LABEL_URL_SECRET: secret(),
    PICKUP_PASS_SIGNING_KEY: secret()
  });
  const broker = await createSystem(config, { logger: false });
  await broker.start();
  try {
    return {
      partner: await call(broker, "gateway.partnerApiDocs", {}),
      relay: await call(broker, "gateway.relayApiDocs", {}),
      backoffice: await call(broker, "gateway.backofficeApiDocs", {}),
      network: await call(broker, "gateway.networkApiDocs", {})
    };
  } finally {
    await broker.stop();
  }
}

export const documentText = (document: OpenApiDocument): string => JSON.stringify(document, null, 2) + "\n";

async function main(argv: string[]): Promise<void> {
  const option = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const which = argv[0] ?? "partner";
  const documents = await apiDocuments(option("--server-url"));
  if (which === "all") {
    // Every one, as <dir>/<name>.json (npm run lint:api).
    const dir = option("--out-dir") ?? ".";
    fs.mkdirSync(dir, { recursive: true });
    for (const name of DOCUMENT_NAMES) fs.writeFileSync(path.join(dir, `${name}.json`), documentText(documents[name]));
    return;
  }
  if (!(DOCUMENT_NAMES as readonly string[]).includes(which)) {
    throw new Error(`unknown document "${which}" (${DOCUMENT_NAMES.join(", ")} or all)`);
  }
  const text = documentText(documents[which as DocumentName]);
  const out = option("--out");
  if (out) fs.writeFileSync(out, text);
  else process.stdout.write(text);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch(err => {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  });
}
