import type { AppConfig, ServiceName } from "../lib/config";
import { checkSecret, ConfigError } from "../lib/config-checks";

type SecretName = keyof AppConfig["secrets"];

/** The secrets each service cannot work without (the gateway signs no label: labels does). */
const SECRETS_OF: Record<ServiceName, SecretName[]> = {
  gateway: ["backofficeToken"],
  auth: [],
  wallet: [],
  parcels: ["encryptionKey", "pickupPassSigningKey"],
  labels: ["labelUrlSecret"],
  notifications: ["encryptionKey"],
  webhooks: ["encryptionKey"],
  // Couriers' phones and pickup contacts are sealed; manifests are signed URLs like labels.
  logistics: ["encryptionKey"]
};

const ENV_NAME: Record<SecretName, string> = {
  backofficeToken: "BACKOFFICE_TOKEN",
  encryptionKey: "ENCRYPTION_KEY",
  labelUrlSecret: "LABEL_URL_SECRET",
  pickupPassSigningKey: "PICKUP_PASS_SIGNING_KEY"
};

const RULE: Record<SecretName, "hex64" | "long"> = {
  backofficeToken: "long",
  encryptionKey: "hex64",
  labelUrlSecret: "long",
  pickupPassSigningKey: "hex64"
};

/**
 * What a process checks before its broker starts, once the secrets are resolved (embedded mode
 * fills them from DATA_DIR): each secret given has the right shape, and each secret one of its
 * services needs is there. Until now a parcels or webhooks pod with a bad ENCRYPTION_KEY started,
 * passed readiness and answered 500 to every request that needed the key.
 */
export function checkServiceConfig(config: AppConfig): void {
  for (const name of Object.keys(ENV_NAME) as SecretName[]) checkSecret(ENV_NAME[name], config.secrets[name], RULE[name]);
  for (const service of config.services) {
    for (const secret of SECRETS_OF[service]) {
      if (!config.secrets[secret]) {
        throw new ConfigError(`${ENV_NAME[secret]} is required by the ${service} service when DATABASE_URL is set (distributed mode)`);
      }
    }
  }
}
