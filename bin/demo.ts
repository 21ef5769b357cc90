import fs from "node:fs";
import path from "node:path";
import type { ServiceBroker } from "moleculer";
import type { AppConfig } from "../lib/config";
import { call } from "../lib/contract";
import { API_BASE_PATH } from "../lib/endpoint";
import { projectRoot } from "../lib/project-root";
import { TRACK_PATH } from "../services/gateway/tracking-page/layout";
import { DOCS_PATH } from "../services/gateway/openapi/docs-page";

export interface DemoAccount {
  organizationId: string;
  organizationName: string;
  liveKey: string;
  sandboxKey: string;
  /** Issue 44: the demo network (one hub, one courier) and their staff keys, when logistics runs here. */
  network?: { hubCode: string; courierKey: string; hubKey: string };
}

/** Issue 44: one hub in Algiers and one courier, so that a parcel can be walked from the merchant to the shelf. */
async function seedNetwork(broker: ServiceBroker): Promise<DemoAccount["network"]> {
  const hub = await broker.call<{ id: string; code: string }, object>("logistics.createHub", {
    code: "HUB-16-BAB-EZZOUAR",
    wilaya: "16",
    name: "Centre de tri Bab Ezzouar",
    address: "Zone industrielle, Bab Ezzouar"
  });
  const courier = await broker.call<{ id: string }, object>("logistics.createCourier", {
    firstName: "Yacine",
    lastName: "Haddad",
    phone: "+213 661 23 45 67",
    homeHubId: hub.id
  });
  const courierKey = await call(broker, "auth.createStaffKey", { role: "courier", subjectId: courier.id, name: "demo courier phone" });
  const hubKey = await call(broker, "auth.createStaffKey", { role: "hub", subjectId: hub.id, name: "demo sort station" });
  return { hubCode: hub.code, courierKey: courierKey.key, hubKey: hubKey.key };
}

export const DEMO_ORGANIZATION = "Demo Merchant SARL";
/** What the demo wallets are funded with, in DZD. */
export const DEMO_WALLETS = [
  ["live", 50_000],
  ["sandbox", 100_000]
] as const;

/**
 * First embedded start only: a demo organisation with a live and a sandbox key. The marker file
 * holds no secret; the keys exist only in what this returns, to be printed once.
 */
export async function bootstrapDemo(broker: ServiceBroker, config: AppConfig): Promise<DemoAccount | null> {
  const marker = path.join(config.dataDir, "demo.json");
  if (fs.existsSync(marker)) return null;
  const org = await call(broker, "auth.createOrganization", { name: DEMO_ORGANIZATION });
  const createKey = (mode: "live" | "sandbox") =>
    call(broker, "auth.createApiKey", { organizationId: org.id, mode, name: `demo ${mode} key` });
  const live = await createKey("live");
  const sandbox = await createKey("sandbox");
  for (const [mode, amountDzd] of DEMO_WALLETS) await call(broker, "wallet.topUp", { organizationId: org.id, mode, amountDzd });
  const network = config.services.includes("logistics") ? await seedNetwork(broker) : undefined;
  fs.writeFileSync(marker, JSON.stringify({ organizationId: org.id, createdAt: new Date().toISOString() }, null, 2));
  return { organizationId: org.id, organizationName: org.name, liveKey: live.key, sandboxKey: sandbox.key, network };
}

/** The URL of the endpoint an action declares, read from the registry like the gateway reads it. */
export function endpointUrl(broker: ServiceBroker, base: string, actionName: string): string {
  const action = broker.registry.getActionList({}).find(a => a.name === actionName)?.action;
  if (!action?.endpoint || !action.api) throw new Error(`${actionName} declares no endpoint`);
  return base + API_BASE_PATH[action.api].replace(/\/$/, "") + action.endpoint.path;
}

/** The demo merchant's keys, shown once, with two calls to paste (to URLs that exist: null leaves one out). */
export function demoAccountLines(demo: DemoAccount, urls: { health: string | null; createParcel: string | null }): string[] {
  return [
    "",
    `Demo organisation "${demo.organizationName}" (${demo.organizationId}) — keys are shown only this once:`,
    `  live key:    ${demo.liveKey}`,
    `  sandbox key: ${demo.sandboxKey}`,
    "",
    `Wallets: ${DEMO_WALLETS.map(([mode, dzd]) => `${dzd.toLocaleString("fr-FR").replace(/\s/g, " ")} DZD ${mode}`).join(", ")}.`,
    ...(demo.network
      ? [
          `Network: hub ${demo.network.hubCode} and its courier (docs/operations/network.md) — shown only this once:`,
          `  courier key: ${demo.network.courierKey}`,
          `  hub key:     ${demo.network.hubKey}`
        ]
      : []),
    "",
    "Try it:",
    ...(urls.health ? [`  curl -s -H "Authorization: ApiKey ${demo.liveKey}" ${urls.health}`] : []),
    ...(urls.createParcel
      ? [
          `  curl -s -H "Authorization: ApiKey ${demo.sandboxKey}" -H "Content-Type: application/json" \\`,
          `    -d '{"recipientName":"Amina B.","recipientPhone":"+213 555 12 34 56","weightG":1200,"destinationRelayCode":"DZ-16-ALGER-CENTRE"}' \\`,
          `    ${urls.createParcel}`
        ]
      : [])
  ];
}

/** The package's version, as `npm start` runs it. */
function version(): string {
  return (JSON.parse(fs.readFileSync(path.join(projectRoot(), "package.json"), "utf8")) as { version: string }).version;
}

/** Where the embedded system answers: the APIs, the reference, the tracking page, the metrics. */
function urlLines(config: AppConfig): string[] {
  const base = config.publicBaseUrl;
  const metrics = config.metricsPort
    ? `http://localhost:${config.metricsPort}/metrics`
    : "off (METRICS_PORT=9100 npm start serves http://localhost:9100/metrics)";
  return [
    `  Partner API      ${base}${API_BASE_PATH.partner}`,
    `  API reference    ${base}${DOCS_PATH}`,
    `  Tracking page    ${base}${TRACK_PATH}`,
    `  Back-office API  ${base}${API_BASE_PATH.backoffice}`,
    `  Metrics          ${metrics}`,
    `  Back-office token (Authorization: Bearer …): ${config.secrets.backofficeToken}`
  ];
}

/** The SSRF guard's state, and the one line that opens it for a webhook receiver on this machine. */
export function webhookGuardLines(config: AppConfig): string[] {
  if (config.webhookAllowPrivate) {
    return [
      "",
      "Webhooks may go to private and loopback addresses (WEBHOOK_ALLOW_PRIVATE=true): for a local receiver, never in production."
    ];
  }
  return [
    "",
    "Webhooks to private and loopback addresses are refused (SSRF guard). To try a receiver on this machine, start with:",
    "  WEBHOOK_ALLOW_PRIVATE=true npm start"
  ];
}

export function demoBanner(config: AppConfig, demo: DemoAccount | null, broker: ServiceBroker): string {
  const base = config.publicBaseUrl;
  const lines = [
    "",
    `relay-parcels is running: version ${version()}, embedded mode (every service in this process, data in ${config.dataDir})`
  ];
  lines.push(...urlLines(config), ...webhookGuardLines(config));
  if (demo) {
    lines.push(
      ...demoAccountLines(demo, {
        health: endpointUrl(broker, base, "auth.health"),
        createParcel: endpointUrl(broker, base, "parcels.create")
      })
    );
  } else {
    lines.push("", "Demo keys were printed on the first start; create more with: npm run backoffice -- key:create <orgId>");
  }
  return lines.join("\n") + "\n";
}
