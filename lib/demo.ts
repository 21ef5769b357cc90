import fs from "node:fs";
import path from "node:path";
import type { ServiceBroker } from "moleculer";
import type { AppConfig } from "./config";

export interface DemoAccount {
  organizationId: string;
  organizationName: string;
  liveKey: string;
  sandboxKey: string;
}

interface CreatedKey {
  key: string;
}

const DEMO_ORGANIZATION = "Demo Merchant SARL";

/**
 * First embedded start only: a demo organisation with a live and a sandbox key. The marker file
 * holds no secret; the keys exist only in what this returns, to be printed once.
 */
export async function bootstrapDemo(broker: ServiceBroker, config: AppConfig): Promise<DemoAccount | null> {
  const marker = path.join(config.dataDir, "demo.json");
  if (fs.existsSync(marker)) return null;
  const org = await broker.call<{ id: string; name: string }, { name: string }>("auth.createOrganization", {
    name: DEMO_ORGANIZATION
  });
  const createKey = (mode: "live" | "sandbox") =>
    broker.call<CreatedKey, object>("auth.createApiKey", { organizationId: org.id, mode, name: `demo ${mode} key` });
  const live = await createKey("live");
  const sandbox = await createKey("sandbox");
  for (const [mode, amountDzd] of [["live", 50_000], ["sandbox", 100_000]] as const) {
    await broker.call("wallet.topUp", { organizationId: org.id, mode, amountDzd });
  }
  fs.writeFileSync(marker, JSON.stringify({ organizationId: org.id, createdAt: new Date().toISOString() }, null, 2));
  return { organizationId: org.id, organizationName: org.name, liveKey: live.key, sandboxKey: sandbox.key };
}

export function demoBanner(config: AppConfig, demo: DemoAccount | null): string {
  const base = config.publicBaseUrl;
  const lines = [
    "",
    "relay-parcels is running (embedded mode)",
    `  Partner API     ${base}/api/partner/v1`,
    `  Back-office API ${base}/api/backoffice/v1`,
    `  Back-office token (Authorization: Bearer …): ${config.secrets.backofficeToken}`
  ];
  if (demo) {
    lines.push(
      "",
      `Demo organisation "${demo.organizationName}" (${demo.organizationId}) — keys are shown only this once:`,
      `  live key:    ${demo.liveKey}`,
      `  sandbox key: ${demo.sandboxKey}`,
      "",
      "Wallets: 50 000 DZD live, 100 000 DZD sandbox.",
      "",
      "Try it:",
      `  curl -s -H "Authorization: ApiKey ${demo.liveKey}" ${base}/api/partner/v1/health`,
      `  curl -s -H "Authorization: ApiKey ${demo.sandboxKey}" -H "Content-Type: application/json" \\`,
      `    -d '{"recipientName":"Amina B.","recipientPhone":"+213 555 12 34 56","weightG":1200,"destinationRelayCode":"DZ-16-ALGER-CENTRE"}' \\`,
      `    ${base}/api/partner/v1/parcels`
    );
  } else {
    lines.push("", "Demo keys were printed on the first start; create more with: npm run backoffice -- key:create <orgId>");
  }
  return lines.join("\n") + "\n";
}
