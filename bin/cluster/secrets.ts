import type { AppConfig } from "../../lib/config";
import { loadConfig } from "../../lib/config";
import { resolveSecrets } from "../../lib/secrets";

/**
 * The secrets every process of the cluster shares: from the environment when given, otherwise
 * generated once into DATA_DIR/secrets.json (mode 0600) by the same code as embedded mode, so
 * that a restart reads the same data and `npm run backoffice` finds the token there.
 */
export function clusterSecrets(env: NodeJS.ProcessEnv, dataDir: string): AppConfig["secrets"] {
  const embeddedView = loadConfig({
    DATA_DIR: dataDir,
    BACKOFFICE_TOKEN: env.BACKOFFICE_TOKEN,
    ENCRYPTION_KEY: env.ENCRYPTION_KEY,
    LABEL_URL_SECRET: env.LABEL_URL_SECRET,
    PICKUP_PASS_SIGNING_KEY: env.PICKUP_PASS_SIGNING_KEY
  });
  return resolveSecrets(embeddedView).secrets;
}
