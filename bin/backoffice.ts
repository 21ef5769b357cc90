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
  wallet:top-up <orgId> <amountDzd> [--mode live|sandbox]
                                            credit a wallet
  wallet:show <orgId> [--mode live|sandbox] balance and recent ledger entries
  webhook:set <orgId> <url> <secret>        set the organisation's webhook endpoint and secret
  webhook:deliveries <orgId> [--status pending|delivered|failed|skipped] [--page N] [--size N]
                                            the delivery log, with attempts
  webhook:redeliver <deliveryId>            send a delivery again (same delivery id)
  parcel:move <parcelId> <STATUS> [--reason R]
                                            operator transition (CREATED → READY_FOR_PICKUP → …)
  relay:list                                the relay-point directory
  relay:add <CODE> <name> <city> [--address A] [--wilaya W] [--inactive]
                                            add or update a relay point

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
    if (args[i] === "--inactive") options.inactive = "true";
    else if (args[i].startsWith("--")) options[args[i].slice(2)] = args[++i] ?? "";
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
    case "wallet:top-up":
      need(2);
      result = await request("POST", `/organizations/${encodeURIComponent(positional[0])}/wallet/top-ups`, {
        amountDzd: Number(positional[1]),
        mode: options.mode ?? "live"
      });
      break;
    case "wallet:show":
      need(1);
      result = await request("GET", `/organizations/${encodeURIComponent(positional[0])}/wallet?mode=${options.mode ?? "live"}`);
      break;
    case "webhook:set":
      need(3);
      result = await request("PUT", `/organizations/${encodeURIComponent(positional[0])}/webhook`, {
        url: positional[1],
        secret: positional[2]
      });
      break;
    case "webhook:deliveries": {
      need(1);
      const query = new URLSearchParams();
      for (const name of ["status", "page", "size"]) if (options[name]) query.set(name, options[name]);
      result = await request("GET", `/organizations/${encodeURIComponent(positional[0])}/webhook-deliveries?${query}`);
      break;
    }
    case "webhook:redeliver":
      need(1);
      result = await request("POST", `/webhook-deliveries/${encodeURIComponent(positional[0])}/redeliver`);
      break;
    case "parcel:move":
      need(2);
      result = await request("POST", `/parcels/${encodeURIComponent(positional[0])}/transitions`, {
        toStatus: positional[1],
        reason: options.reason ?? null
      });
      break;
    case "relay:list":
      result = await request("GET", "/relay-points");
      break;
    case "relay:add": {
      need(3);
      const [code, name, city] = positional;
      result = await request("POST", "/relay-points", {
        code,
        name,
        city,
        address: options.address ?? null,
        wilaya: options.wilaya ?? null,
        active: !("inactive" in options)
      });
      break;
    }
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
