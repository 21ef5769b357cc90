import fs from "node:fs";
import path from "node:path";
import { communesOf } from "../lib/communes";
import { loadConfig } from "../lib/config";
import { findWilaya, normaliseWilayaCode } from "../lib/wilayas";
import { backofficeClient, OperationCall } from "./backoffice-client";

const USAGE = `Usage: npm run backoffice -- <command> [arguments]

Commands:
  org:create <name>                         create an organisation
  org:get <orgId>                           show an organisation
  key:create <orgId> [--mode live|sandbox] [--scopes parcels:read,parcels:write,wallet:read] [--name N] [--rate-limit N]
                                            create an API key (the key is shown only now)
  key:list <orgId>                          list an organisation's keys (no secrets)
  key:revoke <orgId> <keyId>                revoke a key at once
  wallet:top-up <orgId> <amountDzd> [--mode live|sandbox]
                                            credit a wallet
  wallet:show <orgId> [--mode live|sandbox] balance and recent ledger entries
  webhook:set <orgId> <url> <secret>        set the organisation's default webhook endpoint and secret
  webhook:endpoints <orgId>                 list the organisation's webhook endpoints (no secrets)
  webhook:endpoint:add <orgId> <url> [--mode live|sandbox|both] [--events parcel.created,parcel.delivered]
                       [--description D] [--secret S] [--disabled]
                                            add an endpoint (its secret, generated unless given, is shown only now)
  webhook:endpoint:show <orgId> <endpointId>
  webhook:endpoint:update <orgId> <endpointId> [--url U] [--mode M] [--events a,b|all] [--description D]
                       [--enable|--disable]  change an endpoint
  webhook:endpoint:remove <orgId> <endpointId>
  webhook:rotate <orgId> <endpointId> [--secret S] [--overlap-hours 24]
                                            new secret; both sign during the overlap (0: the old one stops now)
  webhook:replay <orgId> <endpointId> <since> [--failed]
                                            send again every event since <since> (ISO date-time), or only the failed
  webhook:test <orgId> <endpointId>         send a ping event and show the answer
  webhook:deliveries <orgId> [--endpoint ID] [--status pending|delivered|failed|skipped] [--page N] [--size N]
                                            the delivery log, with each attempt's status, latency and error
  webhook:redeliver <deliveryId>            send a delivery again (same delivery id)
  webhook:notices <orgId>                   messages for the merchant (an endpoint disabled after 5 days of failures)
  parcel:move <parcelId> <STATUS> [--reason R] [--pin 123456]
                                            operator transition (CREATED → READY_FOR_PICKUP → …);
                                            DELIVERED of a live parcel takes the recipient's pick-up PIN
  parcel:pin-reset <parcelId>               a new pick-up PIN, sent to the recipient by SMS (unlocks)
  cod:remit <orgId> <reference> [--mode live|sandbox] [--parcels id,id] [--paid-on 2026-03-14]
                                            remit the collected COD (all of it, or these parcels)
  cod:settings <orgId>                      how the organisation's remitted COD is paid
  cod:payout <orgId> TRANSFER|WALLET        pay it out, or credit it to the wallet
  relay:list                                the relay-point directory
  relay:add <CODE> <name> <city> [--address A] [--commune C] [--wilaya W] [--inactive] [--capacity N] [--holding-days N]
                                            add or update a relay point (its commune, an ONS code, decides its wilaya)
  communes <wilaya>                         the communes of a wilaya (01 to 69) with their codes, for --commune (no server needed)
  relay:close <CODE> <from> <to> [--reason R]
                                            close a relay point from one day to another (YYYY-MM-DD, Algiers time):
                                            no new parcels, later deadlines on its shelf, merchants told
  relay:closures <CODE>                     its current and future closures
  relay:reopen <CODE> <closureId>           remove a closure
  relay:affected <CODE> [--page N] [--size N]
                                            parcels on their way to the relay point
  agent:create <CODE> [--name N]            create a relay agent key for the counter app (shown only now)
  agent:list <CODE>                         list a relay point's agent keys (no secrets)
  agent:revoke <CODE> <keyId>               revoke an agent key at once
  pairing:create <CODE> [--device-name N]   a one-time code (15 minutes) that pairs a phone's counter app
  claim:list [--status OPEN|APPROVED|REJECTED] [--page N] [--size N]
                                            claims of every organisation, newest first (OPEN: the queue to decide)
  claim:approve <claimId> <note> [--compensation DZD]
                                            approve: the wallet gets the compensation (default: the amount claimed) + the price
  claim:reject <claimId> <note>             reject, saying why (the merchant reads the note)

Where the running system is (before the command, or from the environment):
  --server <url>      its base URL; else BACKOFFICE_URL, else http://localhost:$PORT (PORT as npm start had it, default 3000)
  --data-dir <dir>    the DATA_DIR npm start used, for its back-office token; else DATA_DIR, else ./data
  BACKOFFICE_TOKEN    the token itself (a distributed system keeps none in a data dir)`;

/** Where the system runs, from the global options before the command, then the environment. */
const where: { server?: string; dataDir?: string } = {};

/** Takes `--server <url>` and `--data-dir <dir>` off the front of the arguments. */
function globalOptions(argv: string[]): string[] {
  const rest = [...argv];
  while (rest[0] === "--server" || rest[0] === "--data-dir") {
    const [flag, value] = rest.splice(0, 2);
    if (!value) throw new Error(`${flag} needs a value\n\n${USAGE}`);
    if (flag === "--server") where.server = value.replace(/\/+$/, "");
    else where.dataDir = value;
  }
  return rest;
}

function token(): string {
  if (process.env.BACKOFFICE_TOKEN) return process.env.BACKOFFICE_TOKEN;
  const dataDir = where.dataDir ?? loadConfig().dataDir;
  const file = path.join(dataDir, "secrets.json");
  if (fs.existsSync(file)) return (JSON.parse(fs.readFileSync(file, "utf8")) as { backofficeToken: string }).backofficeToken;
  throw new Error(
    `No back-office token: BACKOFFICE_TOKEN is not set and ${file} does not exist.\n` +
      "If npm start ran with another DATA_DIR, give it: npm run backoffice -- --data-dir <dir> <command> (or set DATA_DIR)."
  );
}

/** Flags that take no value. */
const SWITCHES = new Set(["inactive", "failed", "enable", "disable", "disabled"]);

function flags(args: string[]): { positional: string[]; options: Record<string, string> } {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith("--") && SWITCHES.has(args[i].slice(2))) options[args[i].slice(2)] = "true";
    else if (args[i].startsWith("--")) options[args[i].slice(2)] = args[++i] ?? "";
    else positional.push(args[i]);
  }
  return { positional, options };
}

function baseUrl(): string {
  return where.server ?? process.env.BACKOFFICE_URL ?? `http://localhost:${loadConfig().port}`;
}

/** A system that does not answer is said plainly, with how to point the CLI at the right one. */
function unreachable(url: string, err: unknown): Error {
  const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
  return new Error(
    `No relay-parcels answers at ${url} (${cause}).\n` +
      "Start it (npm start), or say where it runs: npm run backoffice -- --server http://localhost:<PORT> <command> (or set PORT or BACKOFFICE_URL)."
  );
}

/** `--events a,b` as a list, `--events all` as null (every type); absent: not given. */
function eventTypes(option: string | undefined): string[] | null | undefined {
  if (option === undefined) return undefined;
  return option === "all" ? null : option.split(",");
}

/** The fields of an endpoint the options give, and only those. */
function endpointSettings(o: Record<string, string>): Record<string, unknown> {
  const settings: Record<string, unknown> = { url: o.url, mode: o.mode, eventTypes: eventTypes(o.events), description: o.description };
  if ("enable" in o) settings.enabled = true;
  if ("disable" in o || "disabled" in o) settings.enabled = false;
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
}

const endpointOf = (p: string[]) => ({ params: { organizationId: p[0], endpointId: p[1] } });

/** Each command: the operation it calls, and how its arguments become the operation's parameters and body. */
type Command = { need: number; operation: string; build(positional: string[], options: Record<string, string>): OperationCall };

const COMMANDS: Record<string, Command> = {
  "org:create": { need: 1, operation: "createOrganization", build: p => ({ body: { name: p.join(" ") } }) },
  "org:get": { need: 1, operation: "getOrganization", build: p => ({ params: { organizationId: p[0] } }) },
  "key:create": {
    need: 1,
    operation: "createApiKey",
    build: (p, o) => ({
      params: { organizationId: p[0] },
      body: {
        mode: o.mode ?? "live",
        ...(o.scopes ? { scopes: o.scopes.split(",") } : {}),
        ...(o.name ? { name: o.name } : {}),
        ...(o["rate-limit"] ? { rateLimitPerMinute: Number(o["rate-limit"]) } : {})
      }
    })
  },
  "key:list": { need: 1, operation: "listApiKeys", build: p => ({ params: { organizationId: p[0] } }) },
  "key:revoke": { need: 2, operation: "revokeApiKey", build: p => ({ params: { organizationId: p[0], keyId: p[1] } }) },
  "wallet:top-up": {
    need: 2,
    operation: "topUpWallet",
    build: (p, o) => ({ params: { organizationId: p[0] }, body: { amountDzd: Number(p[1]), mode: o.mode ?? "live" } })
  },
  "wallet:show": { need: 1, operation: "getWallet", build: (p, o) => ({ params: { organizationId: p[0], mode: o.mode ?? "live" } }) },
  "webhook:set": {
    need: 3,
    operation: "setWebhookEndpoint",
    build: p => ({ params: { organizationId: p[0] }, body: { url: p[1], secret: p[2] } })
  },
  "webhook:endpoints": { need: 1, operation: "listWebhookEndpoints", build: p => ({ params: { organizationId: p[0] } }) },
  "webhook:endpoint:add": {
    need: 2,
    operation: "createWebhookEndpoint",
    build: (p, o) => ({
      params: { organizationId: p[0] },
      body: { ...endpointSettings({ ...o, url: p[1] }), ...(o.secret ? { secret: o.secret } : {}) }
    })
  },
  "webhook:endpoint:show": { need: 2, operation: "getWebhookEndpoint", build: endpointOf },
  "webhook:endpoint:update": {
    need: 2,
    operation: "updateWebhookEndpoint",
    build: (p, o) => ({ ...endpointOf(p), body: endpointSettings(o) })
  },
  "webhook:endpoint:remove": { need: 2, operation: "deleteWebhookEndpoint", build: endpointOf },
  "webhook:rotate": {
    need: 2,
    operation: "rotateWebhookSecret",
    build: (p, o) => ({
      ...endpointOf(p),
      body: {
        ...(o.secret ? { secret: o.secret } : {}),
        ...(o["overlap-hours"] !== undefined ? { overlapSeconds: Math.round(Number(o["overlap-hours"]) * 3600) } : {})
      }
    })
  },
  "webhook:replay": {
    need: 3,
    operation: "replayWebhookEvents",
    build: (p, o) => ({ ...endpointOf(p), body: { since: p[2], only: "failed" in o ? "failed" : "all" } })
  },
  "webhook:test": { need: 2, operation: "testWebhookEndpoint", build: endpointOf },
  "webhook:deliveries": {
    need: 1,
    operation: "listWebhookDeliveries",
    build: (p, o) => ({ params: { organizationId: p[0], endpointId: o.endpoint, status: o.status, page: o.page, size: o.size } })
  },
  "webhook:redeliver": { need: 1, operation: "redeliverWebhook", build: p => ({ params: { id: p[0] } }) },
  "webhook:notices": { need: 1, operation: "listWebhookNotices", build: p => ({ params: { organizationId: p[0] } }) },
  "parcel:move": {
    need: 2,
    operation: "transitionParcel",
    build: (p, o) => ({ params: { id: p[0] }, body: { toStatus: p[1], reason: o.reason ?? null, ...(o.pin ? { pin: o.pin } : {}) } })
  },
  "parcel:pin-reset": { need: 1, operation: "resetPickupPin", build: p => ({ params: { id: p[0] } }) },
  "cod:remit": {
    need: 2,
    operation: "createCodRemittance",
    build: (p, o) => ({
      params: { organizationId: p[0] },
      body: {
        reference: p.slice(1).join(" "),
        mode: o.mode ?? "live",
        parcelIds: o.parcels ? o.parcels.split(",") : null,
        paidOn: o["paid-on"] ?? null
      }
    })
  },
  "cod:settings": { need: 1, operation: "getCodSettings", build: p => ({ params: { organizationId: p[0] } }) },
  "cod:payout": { need: 2, operation: "setCodSettings", build: p => ({ params: { organizationId: p[0] }, body: { payout: p[1] } }) },
  "relay:list": { need: 0, operation: "listRelayPoints", build: () => ({}) },
  "relay:add": {
    need: 3,
    operation: "upsertRelayPoint",
    build: ([code, name, city], o) => ({
      body: {
        code,
        name,
        city,
        address: o.address ?? null,
        commune: o.commune ?? null,
        wilaya: o.wilaya ?? null,
        active: !("inactive" in o),
        ...(o.capacity !== undefined ? { capacity: Number(o.capacity) } : {}),
        ...(o["holding-days"] !== undefined ? { holdingDays: Number(o["holding-days"]) } : {})
      }
    })
  },
  "relay:close": {
    need: 3,
    operation: "addRelayClosure",
    build: ([code, from, to], o) => ({ params: { code }, body: { from, to, reason: o.reason ?? null } })
  },
  "relay:closures": { need: 1, operation: "listRelayClosures", build: p => ({ params: { code: p[0] } }) },
  "relay:reopen": { need: 2, operation: "removeRelayClosure", build: p => ({ params: { code: p[0], id: p[1] } }) },
  "relay:affected": {
    need: 1,
    operation: "listRelayAffectedParcels",
    build: (p, o) => ({ params: { code: p[0], ...(o.page ? { page: o.page } : {}), ...(o.size ? { size: o.size } : {}) } })
  },
  "agent:create": { need: 1, operation: "createAgentKey", build: (p, o) => ({ params: { code: p[0] }, body: { name: o.name ?? null } }) },
  "agent:list": { need: 1, operation: "listAgentKeys", build: p => ({ params: { code: p[0] } }) },
  "pairing:create": {
    need: 1,
    operation: "createRelayPairingCode",
    build: (p, o) => ({ params: { code: p[0] }, body: { deviceName: o["device-name"] ?? null } })
  },
  "agent:revoke": { need: 2, operation: "revokeAgentKey", build: p => ({ params: { code: p[0], keyId: p[1] } }) },
  "claim:list": { need: 0, operation: "listAllClaims", build: (_p, o) => ({ params: { status: o.status, page: o.page, size: o.size } }) },
  "claim:approve": {
    need: 2,
    operation: "decideClaim",
    build: (p, o) => ({
      params: { id: p[0] },
      body: {
        approved: true,
        note: p.slice(1).join(" "),
        ...(o.compensation !== undefined ? { compensationDzd: Number(o.compensation) } : {})
      }
    })
  },
  "claim:reject": {
    need: 2,
    operation: "decideClaim",
    build: p => ({ params: { id: p[0] }, body: { approved: false, note: p.slice(1).join(" ") } })
  }
};

/** `communes 68`: "2820  Bou Saâda  بوسعادة  28001", one commune a line, read from the shipped list. */
function printCommunes(wilayaArgument: string | undefined): void {
  const code = normaliseWilayaCode(wilayaArgument ?? "");
  if (!code) throw new Error(`communes needs a wilaya number, 01 to 69\n\n${USAGE}`);
  const wilaya = findWilaya(code)!;
  const lines = communesOf(code).map(c => `${c.code}  ${c.name}  ${c.nameAr}  ${c.postalCode ?? "-"}`);
  process.stdout.write(`Wilaya ${code} ${wilaya.name} (${wilaya.nameAr}): ${lines.length} communes\n${lines.join("\n")}\n`);
}

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = globalOptions(argv);
  if (name === "communes") return printCommunes(rest[0]);
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    process.stdout.write(USAGE + "\n");
    process.exit(name ? 2 : 0);
  }
  const { positional, options } = flags(rest);
  if (positional.length < command.need) throw new Error(`${name} needs ${command.need} argument(s)\n\n${USAGE}`);
  const url = baseUrl();
  const auth = token();
  let result: Awaited<ReturnType<Awaited<ReturnType<typeof backofficeClient>>["call"]>>;
  try {
    const client = await backofficeClient(url, auth);
    result = await client.call(command.operation, command.build(positional, options));
  } catch (err) {
    if ((err as Error).name === "TypeError" && /fetch failed/.test((err as Error).message)) throw unreachable(url, err);
    throw err;
  }
  if (result.status >= 300) {
    process.stderr.write(JSON.stringify(result.body, null, 2) + "\n");
    process.exit(1);
  }
  process.stdout.write(JSON.stringify(result.body ?? { status: result.status }, null, 2) + "\n");
}

main(process.argv.slice(2)).catch(err => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
