import type { Context, ServiceSchema } from "moleculer";
import relayDirectory from "../resources/relay-points.json";
import { defineAction } from "../lib/action";
import { decryptField } from "../lib/crypto";
import type { Database } from "../lib/db/database";
import { AppError } from "../lib/errors";
import { toDzd } from "../lib/money";
import { assertCancellable, assertOperatorTransition, isCancellable, isParcelStatus, ParcelStatus } from "../lib/parcel-status";
import type { ParcelPage, ParcelView } from "../lib/parcel-view";
import type { PartnerMeta } from "../lib/principal";
import { BackgroundLoop } from "../lib/background-loop";
import { configOf } from "../lib/runtime";
import { IDEMPOTENCY_KEY_PATTERN } from "../lib/schemas";
import { requireSecret } from "../lib/secrets";
import { DbMixin } from "../mixins/db.mixin";
import { createParcel, CreateParcelInput } from "./parcels/create-parcel";
import {
  CancelParams,
  CancelSchema,
  CreateSchema,
  IdParams,
  IdSchema,
  ListParams,
  ListSchema,
  NoParams,
  NoParamsSchema,
  ParcelIdParams,
  ParcelIdSchema,
  RelayCodeParams,
  RelayCodeSchema,
  RelayPointParams,
  RelayNotifiedParams,
  RelayNotifiedSchema,
  RelayPointSchema,
  SweepParams,
  SweepSchema,
  TrackingParams,
  TrackingSchema,
  TransitionParams,
  TransitionSchema
} from "./parcels/parcels.params";
import { toParcelView } from "./parcels/parcel-view";
import * as store from "./parcels/parcels.store";
import * as relays from "./parcels/relay-points.store";
import { applyStatusChange } from "./parcels/status-change";
import { relayOutbox, releaseLease } from "./parcels/outbox-relay";
import { sweep, SweepResult } from "./parcels/sweeper";

interface ParcelsVars {
  db: Database;
  encryptionKey: string;
  relayLoop: BackgroundLoop<number>;
  sweepLoop: BackgroundLoop<SweepResult>;
}

interface ParcelsMethods {
  owner(ctx: Context<unknown, PartnerMeta>): store.Owner;
  viewOf(ctx: Context, row: store.ParcelRow): Promise<ParcelView>;
  viewsOf(ctx: Context, rows: store.ParcelRow[]): Promise<ParcelView[]>;
  labelUrlsFor(ctx: Context, parcelIds: string[]): Promise<Record<string, string>>;
  visibleOrNotFound(ctx: Context<unknown, PartnerMeta>, id: string): Promise<store.ParcelRow>;
  changeStatus(id: string, decide: (row: store.ParcelRow) => void, change: Parameters<typeof applyStatusChange>[2]): Promise<{ before: store.ParcelRow; after: store.ParcelRow }>;
  refundCancelled(ctx: Context, row: store.ParcelRow): Promise<void>;
  runRelay(): Promise<number>;
}

type ParcelsThis = ParcelsVars & ParcelsMethods & { broker: import("moleculer").ServiceBroker; logger: import("moleculer").Logger };

const PARCEL_NOT_FOUND = () => new AppError("PARCEL_NOT_FOUND", "Parcel not found");
const LABEL_URL_TIMEOUT_MS = 1500;

/** Parcels, their status history and events, the relay directory and the create-parcel saga. */
const ParcelsService: ServiceSchema<{}, ParcelsMethods, ParcelsVars> = {
  name: "parcels",
  mixins: [DbMixin({ schema: "parcels" })],

  actions: {
    // POST /api/partner/v1/parcels
    create: defineAction<CreateParcelInput, ParcelsThis, PartnerMeta & { idempotencyKey?: string }>({
      scope: "parcels:write",
      schema: CreateSchema,
      async handler(ctx) {
        const key = ctx.meta.idempotencyKey ?? null;
        if (key !== null && !IDEMPOTENCY_KEY_PATTERN.test(key)) {
          throw new AppError("VALIDATION_FAILED", "The request is not valid", {
            details: [{ field: "Idempotency-Key", message: "must be 1 to 255 visible ASCII characters" }]
          });
        }
        const row = await createParcel(
          { db: this.db, encryptionKey: this.encryptionKey, logger: this.logger, call: (a, p) => ctx.call(a, p) },
          this.owner(ctx),
          ctx.params,
          key
        );
        void this.runRelay();
        return this.viewOf(ctx, row);
      }
    }),

    // GET /api/partner/v1/parcels
    list: defineAction<ListParams, ParcelsThis, PartnerMeta>({
      scope: "parcels:read",
      schema: ListSchema,
      async handler(ctx): Promise<ParcelPage> {
        const { status, page, size } = ctx.params;
        const { rows, total } = await store.listVisible(this.db, this.owner(ctx), { status, page, size });
        return {
          items: await this.viewsOf(ctx, rows),
          page,
          size,
          totalElements: total,
          totalPages: Math.ceil(total / size)
        };
      }
    }),

    // GET /api/partner/v1/parcels/{id}
    get: defineAction<IdParams, ParcelsThis, PartnerMeta>({
      scope: "parcels:read",
      schema: IdSchema,
      async handler(ctx) {
        return this.viewOf(ctx, await this.visibleOrNotFound(ctx, ctx.params.id));
      }
    }),

    // GET /api/partner/v1/parcels/by-tracking/{trackingNumber}
    getByTracking: defineAction<TrackingParams, ParcelsThis, PartnerMeta>({
      scope: "parcels:read",
      schema: TrackingSchema,
      async handler(ctx) {
        const row = await store.findVisibleByTracking(this.db, this.owner(ctx), ctx.params.trackingNumber.trim().toUpperCase());
        if (!row) throw PARCEL_NOT_FOUND();
        return this.viewOf(ctx, row);
      }
    }),

    // POST /api/partner/v1/parcels/{id}/cancel
    cancel: defineAction<CancelParams, ParcelsThis, PartnerMeta>({
      scope: "parcels:write",
      schema: CancelSchema,
      async handler(ctx) {
        const row = await this.visibleOrNotFound(ctx, ctx.params.id);
        const { after } = await this.changeStatus(row.id, current => assertCancellable(current.status as ParcelStatus), {
          to: "CANCELLED",
          reason: ctx.params.reason || null,
          actor: "merchant",
          refundPending: true
        });
        await this.refundCancelled(ctx, after);
        return this.viewOf(ctx, after);
      }
    }),

    /**
     * POST /api/partner/v1/sandbox/parcels/{id}/trigger-event. Money follows the live rules where
     * they exist: a trigger to CANCELLED from a cancellable status refunds the sandbox wallet
     * exactly as a cancel does; no other trigger moves money (a refunded parcel stays refunded
     * whatever it is moved to next, and is never charged twice).
     */
    triggerSandboxEvent: defineAction<TransitionParams, ParcelsThis, PartnerMeta & { $statusCode?: number }>({
      scope: "parcels:write",
      schema: TransitionSchema,
      async handler(ctx) {
        if (ctx.meta.auth.mode !== "sandbox") {
          throw new AppError("SANDBOX_KEY_REQUIRED", "Only a sandbox key may trigger sandbox events");
        }
        const toStatus = ctx.params.toStatus;
        if (!isParcelStatus(toStatus)) {
          throw new AppError("INVALID_STATUS", `toStatus must be one of the 12 parcel statuses (got "${toStatus}")`, {
            details: [{ field: "toStatus", message: "unknown status" }]
          });
        }
        let refunds = false;
        const { before, after } = await this.changeStatus(
          ctx.params.id,
          current => {
            if (current.organization_id !== ctx.meta.auth.organizationId) {
              throw new AppError("FORBIDDEN", "This parcel belongs to another organisation");
            }
            if (current.mode !== "sandbox") throw new AppError("NOT_SANDBOX_PARCEL", "Only sandbox parcels can be moved by the trigger");
            refunds = toStatus === "CANCELLED" && isCancellable(current.status as ParcelStatus);
          },
          { to: toStatus, reason: ctx.params.reason || null, actor: "sandbox", refundPending: refunds }
        );
        if (refunds) await this.refundCancelled(ctx, after);
        ctx.meta.$statusCode = 202;
        return {
          parcelId: after.id,
          trackingNumber: after.tracking_number,
          previousStatus: before.status,
          newStatus: after.status,
          triggeredAt: after.updated_at.toISOString()
        };
      }
    }),

    // Back-office: POST /api/backoffice/v1/parcels/{id}/transitions
    transition: defineAction<TransitionParams, ParcelsThis>({
      schema: TransitionSchema,
      async handler(ctx) {
        const toStatus = ctx.params.toStatus;
        if (!isParcelStatus(toStatus)) {
          throw new AppError("INVALID_STATUS", `toStatus must be one of the 12 parcel statuses (got "${toStatus}")`);
        }
        const { after } = await this.changeStatus(
          ctx.params.id,
          current => assertOperatorTransition(current.status as ParcelStatus, toStatus),
          { to: toStatus, reason: ctx.params.reason || null, actor: "operator" }
        );
        return this.viewOf(ctx, after);
      }
    }),

    listRelayPoints: defineAction<NoParams, ParcelsThis>({
      schema: NoParamsSchema,
      async handler() {
        return relays.listRelayPoints(this.db);
      }
    }),

    upsertRelayPoint: defineAction<RelayPointParams, ParcelsThis>({
      schema: RelayPointSchema,
      async handler(ctx) {
        return relays.upsertRelayPoint(this.db, ctx.params);
      }
    }),

    // For labels and notifications: what they need of a parcel, and nothing for the partner API.
    labelData: defineAction<ParcelIdParams, ParcelsThis>({
      visibility: "public",
      schema: ParcelIdSchema,
      async handler(ctx) {
        const [row] = await this.db.query<store.ParcelRow>(
          "SELECT * FROM parcels.parcels WHERE id = $1 AND status <> 'PENDING'",
          [ctx.params.parcelId]
        );
        if (!row) throw PARCEL_NOT_FOUND();
        const relay = await relays.findRelayPoint(this.db, row.destination_relay_code);
        return {
          trackingNumber: row.tracking_number,
          relayCode: row.destination_relay_code,
          relayName: relay?.name ?? row.destination_relay_code,
          relayCity: relay?.city ?? null,
          weightG: row.weight_g,
          codAmountDzd: row.cod_amount_centimes === null ? null : toDzd(row.cod_amount_centimes),
          organizationId: row.organization_id,
          createdAt: row.created_at.toISOString(),
          sandbox: row.mode === "sandbox"
        };
      }
    }),

    recipientContact: defineAction<ParcelIdParams, ParcelsThis>({
      visibility: "public",
      schema: ParcelIdSchema,
      async handler(ctx) {
        const [row] = await this.db.query<store.ParcelRow>("SELECT * FROM parcels.parcels WHERE id = $1", [ctx.params.parcelId]);
        if (!row) throw PARCEL_NOT_FOUND();
        return {
          name: decryptField(row.recipient_name_enc, this.encryptionKey),
          phone: decryptField(row.recipient_phone_enc, this.encryptionKey)
        };
      }
    }),

    relayPoint: defineAction<RelayCodeParams, ParcelsThis>({
      visibility: "public",
      schema: RelayCodeSchema,
      async handler(ctx) {
        const relay = await relays.findRelayPoint(this.db, ctx.params.code);
        if (!relay) throw new AppError("RELAY_NOT_FOUND", `Relay point ${ctx.params.code} does not exist`);
        return relay;
      }
    }),

    /** AT_RELAY → RELAY_NOTIFIED once the pick-up SMS is sent; a no-op in any other state. */
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
          if ((err as AppError).type === "INVALID_TRANSITION") return { changed: false };
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

    // call parcels.sweep
    sweep: defineAction<SweepParams, ParcelsThis>({
      visibility: "public",
      schema: SweepSchema,
      async handler(ctx) {
        const config = configOf(this.broker);
        return sweep(
          { db: this.db, logger: this.logger, call: (a, p) => this.broker.call(a, p) },
          ctx.params.olderThanSeconds ?? config.pendingSweepAfterSeconds
        );
      }
    })
  },

  methods: {
    owner(ctx: Context<unknown, PartnerMeta>): store.Owner {
      return { organizationId: ctx.meta.auth.organizationId, mode: ctx.meta.auth.mode };
    },

    async visibleOrNotFound(ctx: Context<unknown, PartnerMeta>, id: string): Promise<store.ParcelRow> {
      const row = await store.findVisible(this.db, this.owner(ctx), id);
      if (!row) throw PARCEL_NOT_FOUND();
      return row;
    },

    /**
     * Locks the parcel, lets `decide` refuse the change (it throws), then applies it with its
     * history line and outbox event, all in one transaction.
     */
    async changeStatus(
      id: string,
      decide: (row: store.ParcelRow) => void,
      change: Parameters<typeof applyStatusChange>[2]
    ): Promise<{ before: store.ParcelRow; after: store.ParcelRow }> {
      return this.db.transaction(async tx => {
        const before = await store.lockParcel(tx, id);
        if (!before || before.status === "PENDING") throw PARCEL_NOT_FOUND();
        decide(before);
        const { row } = await applyStatusChange(tx, before, change);
        return { before, after: row };
      }).finally(() => void this.runRelay());
    },

    /** Gives a cancelled parcel's price back; if the wallet cannot answer now, the sweeper repeats it until it does. */
    async refundCancelled(ctx: Context, row: store.ParcelRow): Promise<void> {
      try {
        await ctx.call("wallet.refund", { parcelId: row.id, organizationId: row.organization_id, mode: row.mode, reason: "cancelled" });
        await store.clearRefundPending(this.db, row.id);
      } catch (err) {
        this.logger.warn(`parcel ${row.id}: refund deferred (${(err as Error).message})`);
      }
    },

    /** A fresh pre-signed label URL, or null when the labels service cannot answer right now (SPEC §2.1). */
    async viewOf(ctx: Context, row: store.ParcelRow): Promise<ParcelView> {
      return (await this.viewsOf(ctx, [row]))[0];
    },

    async viewsOf(ctx: Context, rows: store.ParcelRow[]): Promise<ParcelView[]> {
      if (rows.length === 0) return [];
      const urls = await this.labelUrlsFor(ctx, rows.map(r => r.id));
      return rows.map(row => toParcelView(row, urls[row.id] ?? null));
    },

    async labelUrlsFor(ctx: Context, parcelIds: string[]): Promise<Record<string, string>> {
      if (!this.broker.registry.actions.isAvailable("labels.signUrls")) return {};
      try {
        const signed = await ctx.call<{ labelUrls: Record<string, string> }, { parcelIds: string[] }>(
          "labels.signUrls",
          { parcelIds },
          { timeout: LABEL_URL_TIMEOUT_MS }
        );
        return signed.labelUrls;
      } catch {
        return {};
      }
    },

    /** Wakes the outbox relay now (one pass at a time; see BackgroundLoop). */
    async runRelay(): Promise<number> {
      return (await this.relayLoop.kick()) ?? 0;
    }
  },

  created() {
    const config = configOf(this.broker);
    this.encryptionKey = requireSecret(config, "encryptionKey");
    const deps = { logger: this.logger, call: <T>(action: string, params: object) => this.broker.call<T, object>(action, params) };
    this.relayLoop = new BackgroundLoop(
      () =>
        relayOutbox({
          ...deps,
          db: this.db,
          holder: this.broker.nodeID,
          isAvailable: action => this.broker.registry.actions.isAvailable(action)
        }),
      config.outboxIntervalMs,
      err => this.logger.warn("outbox relay pass failed:", err.message)
    );
    this.sweepLoop = new BackgroundLoop(
      () => sweep({ ...deps, db: this.db }, config.pendingSweepAfterSeconds),
      config.sweepIntervalMs,
      err => this.logger.warn("sweeper pass failed:", err.message)
    );
  },

  async started() {
    await relays.seedRelayPoints(this.db, relayDirectory as relays.RelayPoint[]);
    this.relayLoop.start();
    this.sweepLoop.start();
  },

  async stopped() {
    await Promise.all([this.relayLoop.stop(), this.sweepLoop.stop()]);
    await releaseLease(this.db, this.broker.nodeID).catch(() => undefined);
  }
};

export default ParcelsService;
