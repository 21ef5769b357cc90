import { demoAccountLines } from "../demo";
import type { DemoOutcome } from "./demo-merchant";
import { API_BASE_PATH } from "../../lib/endpoint";
import { DOCS_PATH } from "../../services/gateway/openapi/docs-page";

export interface ClusterInfo {
  namespace: string;
  transporter: string;
  databaseUrl: string;
  publicBaseUrl: string;
  gatewayPorts: number[];
  backofficeToken: string;
  secretsFile: string;
  dataDir: string;
  processes: Array<{ name: string; pid: number; healthPort: number; metricsPort: number | null }>;
  demo: DemoOutcome | null;
  /** Where the banner's curl examples go, read from the served partner document (null: not found). */
  partnerPaths: { health: string | null; createParcel: string | null };
}

/** The first line a machine looks for: one JSON object after a fixed word. */
export const READY_WORD = "RELAY_CLUSTER_READY";

const withoutPassword = (url: string) => {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
};

function demoLines(info: ClusterInfo, base: string): string[] {
  const cli = `DATA_DIR=${info.dataDir} BACKOFFICE_URL=${base} npm run backoffice --`;
  if (!info.demo) return ["", `Create a merchant: ${cli} org:create "Ma Boutique"`];
  if ("existing" in info.demo) {
    return [
      "",
      `Demo organisation ${info.demo.existing}: its keys were printed when it was created.`,
      `More keys: ${cli} key:create ${info.demo.existing} --mode sandbox`
    ];
  }
  const { health, createParcel } = info.partnerPaths;
  return [
    ...demoAccountLines(info.demo.created, { health: health && base + health, createParcel: createParcel && base + createParcel }),
    `  (either gateway; the reference: ${base}${DOCS_PATH})`,
    "",
    `More merchants and keys: ${cli} org:create "Ma Boutique"`
  ];
}

export function clusterBanner(info: ClusterInfo): string {
  const gateways = info.gatewayPorts.map(port => `http://localhost:${port}`);
  const base = gateways[0];
  return [
    "",
    `relay-parcels cluster is running: ${info.processes.length} processes, namespace "${info.namespace}" on ${info.transporter}`,
    `  Gateways        ${gateways.join("  ")}`,
    `  Partner API     ${base}${API_BASE_PATH.partner}   (PUBLIC_BASE_URL ${info.publicBaseUrl})`,
    `  Back-office API ${base}${API_BASE_PATH.backoffice}`,
    `  Back-office token (Authorization: Bearer …): ${info.backofficeToken}`,
    `  Database        ${withoutPassword(info.databaseUrl)}`,
    `  Secrets         ${info.secretsFile} (kept across restarts)`,
    ...demoLines(info, base),
    "",
    "Ctrl-C stops every process.",
    ""
  ].join("\n");
}

/** One line for scripts and tests: where everything is, and the demo keys when just created. */
export function readyLine(info: ClusterInfo): string {
  const demo = info.demo === null ? null : "created" in info.demo ? info.demo.created : { organizationId: info.demo.existing };
  return `${READY_WORD} ${JSON.stringify({
    namespace: info.namespace,
    gateways: info.gatewayPorts.map(port => `http://127.0.0.1:${port}`),
    backofficeToken: info.backofficeToken,
    processes: info.processes,
    demo
  })}`;
}
