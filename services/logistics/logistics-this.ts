import type { Logger, ServiceBroker } from "moleculer";
import type { ConfigVars } from "../../mixins/config.mixin";
import type { DbVars } from "../../mixins/db.mixin";

/** What the logistics service's actions see as `this`, whichever mixin defines them. */
export interface LogisticsThis extends DbVars, ConfigVars {
  encryptionKey: string;
  logger: Logger;
  broker: ServiceBroker;
}
