import fs from "node:fs";
import path from "node:path";
import { backofficeClient } from "../backoffice-client";
import { DEMO_ORGANIZATION, DEMO_WALLETS, DemoAccount } from "../demo";
const MARKER = "cluster-demo.json";

interface Marker {
  organizationId: string;
  /** The database it lives in (no password): another database means another demo. */
  database: string;
  createdAt: string;
}

export type DemoOutcome = { created: DemoAccount } | { existing: string };

function databaseIdentity(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.hostname}:${url.port || 5432}${url.pathname}`;
}

/**
 * What embedded mode does on its first start, through the back-office API: a demo organisation
 * with funded wallets, a live and a sandbox key. Remembered in DATA_DIR, and made again only if
 * that organisation is not in this database.
 */
export async function ensureDemoMerchant(baseUrl: string, token: string, dataDir: string, databaseUrl: string): Promise<DemoOutcome> {
  const client = await backofficeClient(baseUrl, token);
  const markerFile = path.join(dataDir, MARKER);
  const database = databaseIdentity(databaseUrl);
  if (fs.existsSync(markerFile)) {
    const marker = JSON.parse(fs.readFileSync(markerFile, "utf8")) as Marker;
    if (
      marker.database === database &&
      (await client.call("getOrganization", { params: { organizationId: marker.organizationId } })).status === 200
    ) {
      return { existing: marker.organizationId };
    }
  }
  const succeeded = <T>(res: { status: number; body: T }, what: string): T => {
    if (res.status >= 300) throw new Error(`demo merchant: ${what} answered ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const org = succeeded(
    await client.call<{ id: string; name: string }>("createOrganization", { body: { name: DEMO_ORGANIZATION } }),
    "create organisation"
  );
  const key = async (mode: "live" | "sandbox") =>
    succeeded(
      await client.call<{ key: string }>("createApiKey", { params: { organizationId: org.id }, body: { mode, name: `demo ${mode} key` } }),
      `create ${mode} key`
    ).key;
  const liveKey = await key("live");
  const sandboxKey = await key("sandbox");
  for (const [mode, amountDzd] of DEMO_WALLETS) {
    succeeded(await client.call("topUpWallet", { params: { organizationId: org.id }, body: { mode, amountDzd } }), `top up ${mode} wallet`);
  }
  const marker: Marker = { organizationId: org.id, database, createdAt: new Date().toISOString() };
  fs.writeFileSync(markerFile, JSON.stringify(marker, null, 2) + "\n");
  return { created: { organizationId: org.id, organizationName: org.name, liveKey, sandboxKey } };
}
