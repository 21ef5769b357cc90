import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import relayPointsShipped from "../../../resources/relay-points.json";
import { BackgroundLoop } from "../../../lib/background-loop";
import type { RelayPointEntry } from "../../../lib/relay-points";
import type { DbVars } from "../../../mixins/db.mixin";
import { seedRelayPoints } from "../relay-points.store";
import { RelayDirectory } from "./relay-directory";
import { attachRelayDirectory, detachRelayDirectory } from "./relay-lookups";

/**
 * Keeps this instance's in-memory relay directory (relay-directory.ts) current (decision 0038):
 * - after an action of this instance that changes relay points or closures, the directory is
 *   reloaded before the answer leaves (read your writes) and the change is broadcast;
 * - on that broadcast, every instance reloads (the sender too: one cheap counter read);
 * - the change counter (migration parcels/024) is read once a second and after a reconnect,
 *   for a broadcast that was lost (NATS cut, a node away, a change made in SQL).
 * So a change made on any instance is seen by every other within a broadcast's delay, and at
 * worst within RELAY_DIRECTORY_CHECK_MS plus one reload.
 */

/** How often each instance reads the change counter: the staleness bound when a broadcast is lost. */
export const RELAY_DIRECTORY_CHECK_MS = 1000;

/** Broadcast after every change of relay points, their settings or closures. */
export const RELAY_DIRECTORY_CHANGED = "parcels.relayDirectoryChanged";

/** The actions that change what the directory holds (a deactivation is an upsert with active: false). */
const CHANGING_ACTIONS = ["upsertRelayPoint", "addRelayClosure", "removeRelayClosure", "relayAnnounceClosure"] as const;

interface DirectoryVars extends DbVars {
  relayDirectory: RelayDirectory;
  relayDirectoryLoop: BackgroundLoop<boolean>;
}

type DirectoryThis = DirectoryVars & {
  broker: import("moleculer").ServiceBroker;
  logger: import("moleculer").Logger;
};

/** Reloads now (this instance answers its own change at once), then tells the others. */
async function announceChange(this: DirectoryThis): Promise<void> {
  await this.relayDirectoryLoop
    .runNow()
    .catch(err => this.logger.warn(`relay directory not reloaded after a change: ${(err as Error).message}`));
  await this.broker.broadcast(RELAY_DIRECTORY_CHANGED, { version: this.relayDirectory.version });
}

const afterChange = Object.fromEntries(
  CHANGING_ACTIONS.map(action => [
    action,
    async function (this: DirectoryThis, _ctx: unknown, result: unknown) {
      await announceChange.call(this);
      return result;
    }
  ])
);

const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, DirectoryVars>> = {
  hooks: { after: afterChange },

  events: {
    [RELAY_DIRECTORY_CHANGED](this: DirectoryThis) {
      void this.relayDirectoryLoop.kick();
    },
    // Back on the bus after a cut, or a node (re)joining: a broadcast may have been missed meanwhile.
    "$transporter.connected"(this: DirectoryThis) {
      void this.relayDirectoryLoop?.kick();
    },
    "$node.connected"(this: DirectoryThis) {
      void this.relayDirectoryLoop?.kick();
    }
  },

  async started(this: DirectoryThis) {
    if (!this.db)
      throw new Error("RelayDirectoryMixin must be listed before DbMixin: Moleculer runs the last-listed mixin's started first");
    // Seeded before the first load (the service seeds again later, finding nothing to do): on a
    // new database the directory is complete before the first create is taken.
    await seedRelayPoints(this.db, relayPointsShipped as RelayPointEntry[]);
    this.relayDirectory = new RelayDirectory(this.db);
    await this.relayDirectory.refresh();
    this.relayDirectoryLoop = new BackgroundLoop(
      () => this.relayDirectory.refresh(),
      RELAY_DIRECTORY_CHECK_MS,
      err => this.logger.warn("relay directory check failed:", err.message)
    );
    attachRelayDirectory(this.db, this.relayDirectory, () => this.relayDirectoryLoop.kick());
    this.relayDirectoryLoop.start();
  },

  async stopped(this: DirectoryThis) {
    await this.relayDirectoryLoop?.stop();
    if (this.db && this.relayDirectory) detachRelayDirectory(this.db, this.relayDirectory);
  }
};

/**
 * Listed FIRST in the parcels service's mixins, before DbMixin: Moleculer runs the mixins'
 * `started` last-listed first, and this one needs the database open.
 */
export const RelayDirectoryMixin = mixin as Partial<ServiceSchema>;
