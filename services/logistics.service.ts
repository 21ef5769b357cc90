/**
 * The logistics service (issue 44): the first and middle mile. Owns hubs, couriers, merchants'
 * pickups and manifests, and the custody scans, in the `logistics` schema; its code is this file
 * and services/logistics/. Parcels keep their state machine: every status change a scan makes is
 * asked of `parcels.applyNetworkScans`, idempotent by scan id, so webhooks go out as for any change.
 * Others may call (types in logistics/logistics.contract.ts): `logistics.staffSubject` (auth, before
 * a staff key is made). Everything else is reached over HTTP through the gateway.
 *
 * This file is the table of contents: one mixin per concern.
 */
import type { ServiceSchema } from "moleculer";
import { detached } from "../lib/endpoint";
import { requireSecret } from "../lib/secrets";
import { ConfigMixin } from "../mixins/config.mixin";
import { DbMixin } from "../mixins/db.mixin";
import { LOGISTICS_DOCS } from "./logistics/logistics.params";
import type { LogisticsThis } from "./logistics/logistics-this";
import { PickupsMixin } from "./logistics/pickups/pickups.mixin";
import { NetworkBackofficeMixin } from "./logistics/network/backoffice.mixin";
import { StaffApisMixin } from "./logistics/network/staff-apis.mixin";
import { ManifestsMixin } from "./logistics/manifests/manifests.mixin";
import { PickupEventsMixin } from "./logistics/pickups/pickup-events.mixin";
import { RunsMixin } from "./logistics/runs/runs.mixin";
import { ReturnsLegMixin } from "./logistics/runs/returns.mixin";
import { ExceptionsMixin } from "./logistics/exceptions/exceptions.mixin";

const LogisticsService: ServiceSchema<{ openapi: typeof LOGISTICS_DOCS }, object, LogisticsThis> = {
  name: "logistics",
  mixins: [
    DbMixin({ schema: "logistics" }),
    ConfigMixin,
    PickupsMixin,
    NetworkBackofficeMixin,
    StaffApisMixin,
    ManifestsMixin,
    ExceptionsMixin,
    PickupEventsMixin,
    RunsMixin,
    ReturnsLegMixin
  ],
  settings: { openapi: detached(LOGISTICS_DOCS) },

  created(this: LogisticsThis) {
    this.encryptionKey = requireSecret(this.config, "encryptionKey");
  }
};

export default LogisticsService;
