/**
 * The parcels service. Owns parcels, their status history and events, the outbox, COD
 * remittances, the relay-point directory and its search, the tariff and tracking numbers, in the
 * `parcels` schema; its code is this file and services/parcels/.
 * Others may call (types in parcels/parcels.contract.ts): `parcels.labelData`,
 * `parcels.labelDataOf` (labels), `parcels.recipientContact`, `parcels.relayPoint`,
 * `parcels.markRelayNotified` (notifications), `parcels.trackingPage` (gateway's tracking page),
 * `parcels.applyNetworkScans`, `parcels.networkParcels`, `parcels.createdParcels` (logistics, issue 44);
 * bin/demo.ts uses `parcels.create`. Everything else is reached over HTTP through the gateway.
 *
 * This file is the table of contents: the service's mixins, one concern each, the few actions
 * other services call, and the start and stop of its background loops.
 */
import type { Context, ServiceSchema } from "moleculer";
import { RelayDirectoryMixin } from "./parcels/relay/relay-directory.mixin";
import { defineAction } from "../lib/action";
import { detached } from "../lib/endpoint";
import { BackgroundLoop } from "../lib/background-loop";
import { retentionLoop } from "../lib/retention";
import { compactHistory } from "./parcels/history-compaction.store";
import { erasePersonalData } from "./parcels/retention.store";
import { pruneExpiredKeys } from "./parcels/relay/relay-idempotency.store";
import { IDEMPOTENCY_HOURS } from "../lib/idempotency";
import { call } from "../lib/contract";
import { decryptField } from "../lib/crypto";
import { AppError, errorCodeOf } from "../lib/errors";
import type { ParcelEvent } from "../lib/events";
import type { PartnerMeta } from "../lib/principal";
import { requireSecret } from "../lib/secrets";
import { ConfigMixin } from "../mixins/config.mixin";
import { DbMixin } from "../mixins/db.mixin";
import { requestLogger } from "../lib/request-context";
import type { ParcelLabelData } from "./parcels/parcels.contract";
import { CodMixin } from "./parcels/cod.mixin";
import { CashMixin } from "./parcels/cash/cash.mixin";
import { RelayMixin } from "./parcels/relay/relay.mixin";
import { RELAY_DOCS_TAGS } from "./parcels/relay/relay.params";
import { HoldingMixin } from "./parcels/holding.mixin";
import { RedirectMixin } from "./parcels/redirect/redirect.mixin";
import { PinResendMixin } from "./parcels/pin-resend.mixin";
import { ClosuresMixin } from "./parcels/relay/closures.mixin";
import { PublicRelaySearchMixin } from "./parcels/relay/public-search.mixin";
import { OfflineMixin } from "./parcels/relay/offline.mixin";
import { PickupPassMixin } from "./parcels/pickup-pass/pickup-pass.mixin";
import { OfflineChecksMixin } from "./parcels/relay/offline-checks.mixin";
import { passLinkToken } from "../lib/pass-link";
import { ClaimsMixin } from "./parcels/claims/claims.mixin";
import { CLAIMS_DOCS_TAGS } from "./parcels/claims/claims.params";
import { ReturnsMixin } from "./parcels/returns/returns.mixin";
import { RETURNS_DOCS_TAGS } from "./parcels/returns/returns.params";
import { RecipientMixin } from "./parcels/recipient/recipient.mixin";
import { CreateMixin } from "./parcels/create/create.mixin";
import { ReadsMixin } from "./parcels/reads/reads.mixin";
import { StatusMixin } from "./parcels/status/status.mixin";
import { NetworkMixin } from "./parcels/network/network.mixin";
import { RecipientHintsMixin } from "./parcels/network/recipient-hints.mixin";
import { NetworkStepsMixin } from "./parcels/network/steps.mixin";
import { CustodyMixin } from "./parcels/custody/custody.mixin";
import { DeliveryMixin } from "./parcels/network/delivery.mixin";
import { CourierPassMixin } from "./parcels/relay/courier-pass.mixin";
import { RelayPointsMixin } from "./parcels/relay-points.mixin";
import { PublicTrackingMixin } from "./parcels/public-tracking.mixin";
import type { HandoverDeps } from "./parcels/handover";
import { normaliseStoredPhones } from "./parcels/recipient/phone-normalisation";
import { createGroups } from "./parcels/create-groups";
import { GroupSizes } from "./parcels/group-sizes";
import { RecipientSettingsCache } from "./parcels/recipient/recipient-settings-cache";
import { toLabelData } from "./parcels/label-data";
import { OutboxCursor } from "./parcels/outbox-cursor";
import { OUTBOX_BATCH, relayOutbox, releaseLease } from "./parcels/outbox-relay";
import {
  LabelDataOfParams,
  LabelDataOfSchema,
  ParcelIdParams,
  ParcelIdSchema,
  PARCELS_DOCS,
  RelayNotifiedParams,
  RelayNotifiedSchema,
  SweepParams,
  SweepSchema
} from "./parcels/parcels.params";
import * as store from "./parcels/parcels.store";
import { settlePendingAtStart, sweep } from "./parcels/sweeper";
import { measureOutboxLag } from "./parcels/outbox-lag";
import { PARCEL_NOT_FOUND, ParcelsMethods, ParcelsThis, ParcelsVars } from "./parcels/parcels-this";

/** Parcels, their status history and events, the relay directory and the create-parcel saga. */
const ParcelsService: ServiceSchema<{ openapi: typeof PARCELS_DOCS }, ParcelsMethods, ParcelsVars> = {
  name: "parcels",
  mixins: [
    // First: Moleculer starts mixins last-listed first, and the directory needs the database open.
    RelayDirectoryMixin,
    DbMixin({ schema: "parcels" }),
    ConfigMixin,
    CodMixin,
    CashMixin,
    RelayMixin,
    HoldingMixin,
    ClaimsMixin,
    ReturnsMixin,
    RedirectMixin,
    ClosuresMixin,
    PublicRelaySearchMixin,
    RecipientMixin,
    OfflineMixin,
    PickupPassMixin,
    OfflineChecksMixin,
    PinResendMixin,
    CreateMixin,
    ReadsMixin,
    StatusMixin,
    NetworkMixin,
    RecipientHintsMixin,
    NetworkStepsMixin,
    CustodyMixin,
    DeliveryMixin,
    CourierPassMixin,
    RelayPointsMixin,
    PublicTrackingMixin
  ],
  settings: {
    openapi: detached({ ...PARCELS_DOCS, tags: [...PARCELS_DOCS.tags, ...RELAY_DOCS_TAGS, ...CLAIMS_DOCS_TAGS, ...RETURNS_DOCS_TAGS] })
  },

  actions: {
    // For labels: what a label prints of a parcel, and nothing for the partner API.
    labelData: defineAction<ParcelIdParams, ParcelsThis>({
      visibility: "public",
      schema: ParcelIdSchema,
      async handler(ctx): Promise<ParcelLabelData> {
        const [record] = await store.labelRecords(this.db, [ctx.params.parcelId], null);
        if (!record) throw PARCEL_NOT_FOUND();
        const { parcelId: _id, ...label } = toLabelData(record);
        return label;
      }
    }),

    // call parcels.labelDataOf --parcelIds '["<uuid>"]'
    labelDataOf: defineAction<LabelDataOfParams, ParcelsThis>({
      visibility: "public",
      schema: LabelDataOfSchema,
      async handler(ctx) {
        const found = new Map(
          (await store.labelRecords(this.db, ctx.params.parcelIds, ctx.params.owner ?? null)).map(r => [r.parcel.id, toLabelData(r)])
        );
        return {
          labels: ctx.params.parcelIds.flatMap(id => found.get(id) ?? []),
          missing: ctx.params.parcelIds.filter(id => !found.has(id))
        };
      }
    }),

    recipientContact: defineAction<ParcelIdParams, ParcelsThis>({
      visibility: "public",
      schema: ParcelIdSchema,
      async handler(ctx) {
        const parcel = await store.findParcel(this.db, ctx.params.parcelId);
        if (!parcel) throw PARCEL_NOT_FOUND();
        return {
          name: decryptField(parcel.recipientNameEnc, this.encryptionKey),
          phone: decryptField(parcel.recipientPhoneEnc, this.encryptionKey),
          language: parcel.recipientLanguage,
          // Only for the pick-up SMS, which is the one place the PIN goes.
          pickupPin: parcel.pickupPinEnc === null ? null : decryptField(parcel.pickupPinEnc, this.encryptionKey),
          // The SMS link's key to the page with the pickup pass (issue 43); live parcels only have one.
          passKey: parcel.mode === "live" ? passLinkToken(parcel.trackingNumber, this.encryptionKey) : null
        };
      }
    }),

    markRelayNotified: defineAction<RelayNotifiedParams, ParcelsThis>({
      visibility: "public",
      schema: RelayNotifiedSchema,
      async handler(ctx) {
        try {
          await this.changeStatus(
            ctx.params.parcelId,
            current => {
              if (current.status !== "AT_RELAY") throw new AppError("INVALID_TRANSITION", "not at relay");
            },
            { to: "RELAY_NOTIFIED", reason: ctx.params.reason ?? "pick-up SMS sent", actor: "notifications" }
          );
          return { changed: true };
        } catch (err) {
          if (errorCodeOf(err) === "INVALID_TRANSITION") return { changed: false };
          throw err;
        }
      }
    }),

    // call parcels.relayOutbox
    relayOutbox: defineAction<unknown, ParcelsThis>({
      visibility: "public",
      async handler() {
        return { relayed: await this.runRelay() };
      }
    }),

    // For the bench (bench/report/group-sizes.ts): this instance's create groups by size.
    // call parcels.createGroupSizes
    createGroupSizes: defineAction<unknown, ParcelsThis>({
      visibility: "public",
      handler(): { flushes: Record<string, number> } {
        return { flushes: this.groupSizes.snapshot() };
      }
    }),

    // call parcels.sweep --olderThanSeconds 0
    sweep: defineAction<SweepParams, ParcelsThis>({
      visibility: "public",
      schema: SweepSchema,
      handler(ctx) {
        return sweep(
          { db: this.db, logger: this.logger, caller: this.broker },
          ctx.params.olderThanSeconds ?? this.config.pendingSweepAfterSeconds
        );
      }
    })
  },

  methods: {
    owner(ctx: Context<unknown, PartnerMeta>): store.Owner {
      return { organizationId: ctx.meta.auth.organizationId, mode: ctx.meta.auth.mode };
    },

    handoverDeps(this: ParcelsThis, ctx: Context): HandoverDeps {
      return { db: this.db, encryptionKey: this.encryptionKey, logger: requestLogger(ctx, this.logger), caller: ctx };
    },

    /**
     * Before the first create is taken (Moleculer registers the actions once `started` resolves),
     * every create a crash cut short is finished or compensated. Embedded, this process owns the
     * database alone, so every PENDING row is an orphan; distributed, a row younger than the
     * create's time limit (PENDING_SWEEP_AFTER_SECONDS) may be a sibling's create in flight.
     */
    async settleCrashedCreates(this: ParcelsThis): Promise<void> {
      await this.waitForServices(["wallet"]);
      const olderThanSeconds = this.config.embedded ? 0 : this.config.pendingSweepAfterSeconds;
      const settled = await settlePendingAtStart({ db: this.db, logger: this.logger, caller: this.broker }, olderThanSeconds);
      if (settled.finished + settled.discarded + settled.deferred > 0) {
        this.logger.info(
          `creates cut short by a stop: ${settled.finished} finished, ${settled.discarded} discarded, ${settled.deferred} left to the sweeper`
        );
      }
    },

    /** Wakes the outbox relay now (one pass at a time; see BackgroundLoop). */
    async runRelay(this: ParcelsThis): Promise<number> {
      return (await this.relayLoop.kick()) ?? 0;
    },

    /** After creates: a relay pass within OUTBOX_CREATE_DELAY_MS, shared by the creates of those milliseconds (decision 0045). */
    relaySoon(this: ParcelsThis): void {
      this.relayLoop.kickWithin(this.config.outboxCreateDelayMs);
    }
  },

  created(this: ParcelsThis) {
    this.encryptionKey = requireSecret(this.config, "encryptionKey");
    this.groupSizes = new GroupSizes(this.broker);
    this.recipientSettings = new RecipientSettingsCache(() => this.db);
    // One group end to end (decision 0037): its debits go to the wallet in one call, through the broker.
    this.createGroups = createGroups(
      () => this.db,
      { ...this.config.groupCommit, gatherMs: this.config.createGatherMs, onFlush: this.groupSizes.record },
      this.broker
    );
    // Reads start after the last event this instance handed over (decision 0041).
    const outboxCursor = new OutboxCursor();
    this.relayLoop = new BackgroundLoop(
      () =>
        relayOutbox({
          db: this.db,
          logger: this.logger,
          holder: this.broker.nodeID,
          handOver: (consumer, events: ParcelEvent[]) => call(this.broker, consumer, { events }),
          isAvailable: action => this.broker.registry.actions.isAvailable(action),
          caughtUp: () => this.relayLoop.caughtUp(),
          cursor: outboxCursor
        })
          // A full batch may have left more behind: another pass right after this one.
          .then(relayed => (relayed >= OUTBOX_BATCH && void this.relayLoop.kick(), relayed))
          .finally(() => measureOutboxLag(this.db, this.broker).catch(() => undefined)),
      this.config.outboxIntervalMs,
      err => this.logger.warn("outbox relay pass failed:", err.message)
    );
    this.sweepLoop = new BackgroundLoop(
      () => sweep({ db: this.db, logger: this.logger, caller: this.broker }, this.config.pendingSweepAfterSeconds),
      this.config.sweepIntervalMs,
      err => this.logger.warn("sweeper pass failed:", err.message)
    );
    this.retentionLoop = retentionLoop(
      // Personal data past its period, the histories past theirs and the relay API's expired
      // idempotency keys (bounded tables): another batch while any filled one.
      async batch =>
        Math.max(
          await erasePersonalData(this.db, this.encryptionKey, this.config.piiRetentionDays, batch),
          await compactHistory(this.db, this.config.historyCompactDays, batch),
          await pruneExpiredKeys(this.db, IDEMPOTENCY_HOURS, batch)
        ),
      err => this.logger.warn("personal data erasure pass failed:", err.message)
    );
  },

  async started(this: ParcelsThis) {
    // The shipped relay points are seeded by RelayDirectoryMixin's started, before its first load.
    await this.settleCrashedCreates();
    // Rows from before migration parcels/020 (decision 0036): in the background, so that a large table does not hold the start.
    void normaliseStoredPhones(this.db, this.encryptionKey, this.logger).catch(err =>
      this.logger.warn(`recipient phones not normalised at start (${(err as Error).message}); retried at the next start`)
    );
    this.relayLoop.start();
    this.sweepLoop.start();
    this.retentionLoop.start();
    // Started here, not in HoldingMixin: a mixin's started may run before the database is open.
    this.holdingLoop.start();
    this.returnsLoop.start();
    this.lossLoop.start();
  },

  async stopped(this: ParcelsThis) {
    await Promise.all([
      this.relayLoop.stop(),
      this.sweepLoop.stop(),
      this.retentionLoop.stop(),
      this.holdingLoop.stop(),
      this.returnsLoop.stop(),
      this.lossLoop.stop()
    ]);
    await releaseLease(this.db, this.broker.nodeID).catch(() => undefined);
    this.visibleCache = undefined;
  }
};

export default ParcelsService;
