import fs from "node:fs";
import path from "node:path";
import { loadConfig } from "../lib/config";

const USAGE = `Usage: npm run backoffice -- <command> [arguments]

Commands:
  org:create <name>                         create an organisation
  org:get <orgId>                           show an organisation
  key:create <orgId> [--mode live|sandbox] [--scopes parcels:read,parcels:write] [--name N] [--rate-limit N]
                                            create an API key (the key is shown only now)
  key:list <orgId>                          list an organisation's keys (no secrets)
  key:revoke <orgId> <keyId>                revoke a key at once

Environment: BACKOFFICE_URL (default http://localhost:$PORT), BACKOFFICE_TOKEN
(default: the token kept in DATA_DIR by an embedded start).`;

function token(): string {
  if (process.env.BACKOFFICE_TOKEN) return process.env.BACKOFFICE_TOKEN;
  const file = path.join(loadConfig().dataDir, "secrets.json");
  if (fs.existsSync(file)) return (JSON.parse(fs.readFileSync(file, "utf8")) as { backofficeToken: string }).backofficeToken;
  throw new Error("BACKOFFICE_TOKEN is not set and no embedded secrets file was found");
}

function flags(args: string[]): { positional: string[]; options: Record<string, string> } {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith("--")) options[args[i].slice(2)] = args[++i] ?? "";
    else positional.push(args[i]);
  }
  return { positional, options };
}

async function request(method: string, route: string, body?: unknown): Promise<unknown> {
  const base = (process.env.BACKOFFICE_URL ?? `http://localhost:${loadConfig().port}`).replace(/\/+$/, "");
  const res = await fetch(`${base}/api/backoffice/v1${route}`, {
    method,
    headers: { Authorization: `Bearer ${token()}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body)
  });
  const text = await res.text();
  const parsed: unknown = text ? JSON.parse(text) : { status: res.status };
  if (!res.ok) {
    process.stderr.write(JSON.stringify(parsed, null, 2) + "\n");
    process.exit(1);
  }
  return parsed;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { positional, options } = flags(rest);
  const need = (n: number) => {
    if (positional.length < n) throw new Error(`${command} needs ${n} argument(s)\n\n${USAGE}`);
  };
  let result: unknown;
  switch (command) {
    case "org:create":
      need(1);
      result = await request("POST", "/organizations", { name: positional.join(" ") });
      break;
    case "org:get":
      need(1);
      result = await request("GET", `/organizations/${encodeURIComponent(positional[0])}`);
      break;
    case "key:create": {
      need(1);
      const body: Record<string, unknown> = { mode: options.mode ?? "live" };
      if (options.scopes) body.scopes = options.scopes.split(",");
      if (options.name) body.name = options.name;
      if (options["rate-limit"]) body.rateLimitPerMinute = Number(options["rate-limit"]);
      result = await request("POST", `/organizations/${encodeURIComponent(positional[0])}/api-keys`, body);
      break;
    }
    case "key:list":
      need(1);
      result = await request("GET", `/organizations/${encodeURIComponent(positional[0])}/api-keys`);
      break;
    case "key:revoke":
      need(2);
      result = await request(
        "DELETE",
        `/organizations/${encodeURIComponent(positional[0])}/api-keys/${encodeURIComponent(positional[1])}`
      );
      break;
    default:
      process.stdout.write(USAGE + "\n");
      process.exit(command ? 2 : 0);
  }
  process.stdout.write(JSON.stringify(result, null, 2) + "\n");
}

main(process.argv.slice(2)).catch(err => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
