import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { acquireDatabase, releaseDatabase } from "../lib/db/connection";
import { Database } from "../lib/db/database";
import { migrateSchema } from "../lib/db/migrate";
import { configOf } from "./config.mixin";
import { TrafficMixin } from "./traffic.mixin";

export interface DbVars {
  db: Database;
}

/**
 * Gives a service its own PostgreSQL schema: `this.db` is ready and `migrations/<schema>/` is
 * applied before the service is announced as started.
 */
export function DbMixin(options: { schema: string }): Partial<ServiceSchema> {
  const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, DbVars>> = {
    // `<service>.processTraffic` for the bench (mixins/traffic.mixin.ts), as ConfigMixin brings it.
    mixins: [TrafficMixin],
    async started() {
      const config = configOf(this.broker);
      this.db = await acquireDatabase(config, message => this.logger.warn(message));
      const ran = await migrateSchema(this.db, options.schema);
      if (ran.length > 0) this.logger.info(`schema ${options.schema}: applied ${ran.join(", ")}`);
    },
    async stopped() {
      if (this.db) await releaseDatabase(configOf(this.broker));
    }
  };
  return mixin as Partial<ServiceSchema>;
}
