import fs from "node:fs";
import { buildBackofficeDocument, buildPartnerDocument } from "../lib/openapi";

/**
 * Prints (or writes) an OpenAPI document exactly as the gateway builds it, without starting
 * anything: `node dist/bin/api-docs.js partner|backoffice [--server-url URL] [--out FILE]`.
 * `npm run client:generate` uses it to refresh clients/typescript/.
 */

export const DEFAULT_SERVER_URL = "http://localhost:3000";

export function documentText(which: string, serverUrl = DEFAULT_SERVER_URL): string {
  const build = { partner: buildPartnerDocument, backoffice: buildBackofficeDocument }[which];
  if (!build) throw new Error(`unknown document "${which}" (partner or backoffice)`);
  return JSON.stringify(build({ serverUrl }), null, 2) + "\n";
}

function main(argv: string[]): void {
  const option = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const text = documentText(argv[0] ?? "partner", option("--server-url"));
  const out = option("--out");
  if (out) fs.writeFileSync(out, text);
  else process.stdout.write(text);
}

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
}
