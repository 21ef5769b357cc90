import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { RelayParcels } from "../../../sdk/typescript/src";
import { backoffice } from "../../helpers/http";
import { freePort, RunningProcess, startNode, waitForHttp } from "../../helpers/processes";

/** One merchant of the started system: its organisation and an SDK client per mode. */
export interface SdkMerchant {
  orgId: string;
  live: RelayParcels;
  sandbox: RelayParcels;
  liveKey: string;
  sandboxKey: string;
}

export const PARCEL = {
  recipientName: "Amina Benali",
  recipientPhone: "+213 555 12 34 56",
  weightG: 1200,
  destinationRelayCode: "DZ-16-ALGER-CENTRE",
  codAmountDzd: 1500
};

/**
 * The embedded system as `npm start` runs it (dist/bin/start.js in a child process, its own data
 * folder and port), webhooks to loopback allowed, started before the describe's tests.
 */
export function startedSystem(): {
  base: () => string;
  /** The back-office token. */
  token: () => string;
  bo: () => ReturnType<typeof backoffice>;
  merchant: (name: string, options?: { liveDzd?: number; sandboxDzd?: number; baseUrl?: string }) => Promise<SdkMerchant>;
} {
  let proc: RunningProcess;
  let base: string;
  let dataDir: string;
  const token = `bo_${randomBytes(12).toString("hex")}`;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-sdk-"));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    proc = await startNode({
      PORT: String(port),
      DATA_DIR: dataDir,
      BACKOFFICE_TOKEN: token,
      WEBHOOK_ALLOW_PRIVATE: "true",
      OUTBOX_INTERVAL_MS: "100"
    });
    await waitForHttp(`${base}/readyz`);
  }, 200_000);

  afterAll(async () => {
    await proc?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const bo = () => backoffice(base, token);
  return {
    base: () => base,
    token: () => token,
    bo,
    async merchant(name, options = {}) {
      const org = await bo().createOrganization(name);
      const liveKey = (await bo().createKey(org.id, { rateLimitPerMinute: 100_000 })).key;
      const sandboxKey = (await bo().createKey(org.id, { mode: "sandbox", rateLimitPerMinute: 100_000 })).key;
      if (options.liveDzd !== 0)
        await bo().call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: options.liveDzd ?? 20_000 });
      if (options.sandboxDzd !== 0) {
        await bo().call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: options.sandboxDzd ?? 20_000, mode: "sandbox" });
      }
      const baseUrl = options.baseUrl ?? base;
      return {
        orgId: org.id,
        liveKey,
        sandboxKey,
        live: new RelayParcels({ apiKey: liveKey, baseUrl }),
        sandbox: new RelayParcels({ apiKey: sandboxKey, baseUrl })
      };
    }
  };
}
