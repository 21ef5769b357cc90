import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { AppConfig, ConfigError } from "./config";
import { ensurePrivateDir } from "./data-dir";

type SecretName = keyof AppConfig["secrets"];

const ENV_NAMES: Record<SecretName, string> = {
  backofficeToken: "BACKOFFICE_TOKEN",
  encryptionKey: "ENCRYPTION_KEY",
  labelUrlSecret: "LABEL_URL_SECRET",
  pickupPassSigningKey: "PICKUP_PASS_SIGNING_KEY"
};

function generate(): AppConfig["secrets"] {
  return {
    backofficeToken: `bo_${randomBytes(24).toString("base64url")}`,
    // 32 bytes for AES-256-GCM, hex so that it pastes cleanly into an environment variable.
    encryptionKey: randomBytes(32).toString("hex"),
    labelUrlSecret: randomBytes(32).toString("hex"),
    // The seed of the pickup passes' Ed25519 key (issue 43): 32 bytes, hex.
    pickupPassSigningKey: randomBytes(32).toString("hex")
  };
}

/**
 * A secret added after DATA_DIR's secrets.json was written (the pickup passes' key, issue 43): kept
 * in a file of its own, made once with `wx` like the first, so that two processes agree on it.
 */
function readOrCreateLaterSecret(dataDir: string, name: SecretName): string {
  const file = path.join(dataDir, `secret-${name}.txt`);
  try {
    fs.writeFileSync(file, generate()[name]!, { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return fs.readFileSync(file, "utf8").trim();
}

/**
 * Embedded mode keeps generated secrets in DATA_DIR so that a restart reads the same data.
 * Written with `wx` so that two processes starting at once agree on one set.
 */
function readOrCreateSecretsFile(dataDir: string): AppConfig["secrets"] {
  const file = path.join(dataDir, "secrets.json");
  ensurePrivateDir(dataDir);
  try {
    fs.writeFileSync(file, JSON.stringify(generate(), null, 2), { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return JSON.parse(fs.readFileSync(file, "utf8")) as AppConfig["secrets"];
}

/** Fills the secrets the environment did not give: from DATA_DIR when embedded, never otherwise. */
export function resolveSecrets(config: AppConfig): AppConfig {
  const given = config.secrets;
  const missing = (Object.keys(given) as SecretName[]).some(name => !given[name]);
  if (!missing || !config.embedded) return config;
  const stored = readOrCreateSecretsFile(config.dataDir);
  return {
    ...config,
    secrets: {
      backofficeToken: given.backofficeToken ?? stored.backofficeToken,
      encryptionKey: given.encryptionKey ?? stored.encryptionKey,
      labelUrlSecret: given.labelUrlSecret ?? stored.labelUrlSecret,
      pickupPassSigningKey:
        given.pickupPassSigningKey ?? stored.pickupPassSigningKey ?? readOrCreateLaterSecret(config.dataDir, "pickupPassSigningKey")
    }
  };
}

/** A secret a service cannot work without; outside embedded mode it must come from the environment. */
export function requireSecret(config: AppConfig, name: SecretName): string {
  const value = config.secrets[name];
  if (!value) {
    throw new ConfigError(`${ENV_NAMES[name]} is required when DATABASE_URL is set (distributed mode)`);
  }
  return value;
}
