import { randomUUID } from "node:crypto";
import { Joi } from "../lib/joi";
import type { Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../lib/action";
import type { AppConfig } from "../lib/config";
import { decryptField, encryptField } from "../lib/crypto";
import { AppError } from "../lib/errors";
import type { ParcelEvent } from "../lib/events";
import { delayAfterResponse } from "../lib/retry-schedule";
import { BackgroundLoop } from "../lib/background-loop";
import { configOf } from "../lib/runtime";
import { keyMode, queryInteger, uuid } from "../lib/schemas";
import { requireSecret } from "../lib/secrets";
import { assertPublicWebhookUrl } from "../lib/ssrf";
import { DbMixin, DbVars } from "../mixins/db.mixin";
import { sendWebhook } from "./webhooks/webhook-sender";
import * as store from "./webhooks/webhooks.store";

/**
 * Outgoing webhooks (SPEC §6, DESIGN §3): one endpoint per organisation, one delivery per parcel
 * event, and a worker that sends due deliveries with retries.
 *
 * Decisions:
 * - No active endpoint when the event arrives (none configured, or disabled after a 410): the
 *   delivery is stored as `skipped`, with the reason in `lastError`, and never sent by the worker.
 *   Events from before an endpoint existed are not replayed at the merchant's new URL by surprise;
 *   the back-office can still send any of them with a redelivery.
 * - Endpoint disabled between enqueue and send (a 410 on another delivery): the delivery becomes
 *   `skipped` at its next due time instead of calling a URL that said Gone; no attempt is counted.
 * - Ordering: a parcel's deliveries are sent one at a time, in enqueue order (the outbox relays in
 *   order): only the oldest pending delivery of a parcel can be claimed. A later event of a parcel
 *   waits while an earlier one is retried, until that one is delivered, failed or skipped.
 * - Several workers (processes) on one database: a claim (`FOR UPDATE SKIP LOCKED`) commits with a
 *   lease (time-out + `leaseMarginMs`) pushed onto `next_attempt_at` and a lease token; the result
 *   is recorded only under that token. A crashed worker's deliveries are due again after the
 *   lease, so at-least-once holds, with the same delivery id on any repeat.
 * - Retries: the published schedule of lib/retry-schedule (with jitter; Retry-After honoured on
 *   429/503), MAX_ATTEMPTS per round; a 410 fails the delivery at once and disables the endpoint.
 *   A redelivery starts a new round with the whole schedule, keeping the delivery id and log.
 * - Never logged: secrets, endpoint URLs, payloads (they carry parcel data).
 */

export interface WebhooksSettings extends ServiceSettingSchema {
  /** Multiplies every retry wait; 1 in production, tiny in tests. */
  retryDelayScale: number;
  /** Deliveries claimed at once by one worker. */
  batchSize: number;
  /** Batches one worker pass goes through at most before yielding to the next tick. */
  maxBatchesPerPass: number;
  /** HTTP attempts in flight at once in one worker. */
  concurrency: number;
  /** Added to the HTTP time-out to make the claim lease. */
  leaseMarginMs: number;
}

interface WebhooksVars extends DbVars {
  config: AppConfig;
  encryptionKey: string;
  worker: BackgroundLoop<number>;
}

interface WebhooksMethods {
  workerPass(): Promise<number>;
  sendBatch(batch: store.Delivery[]): Promise<number>;
  freshLabelUrls(parcelIds: string[]): Promise<Record<string, string>>;
  sendOne(delivery: store.Delivery, endpoint: store.Endpoint | undefined): Promise<number>;
}

type WebhooksThis = Service<WebhooksSettings> & WebhooksVars & WebhooksMethods;

// --- action parameters -------------------------------------------------------------------------

interface EnqueueParams {
  event: ParcelEvent;
}
const EnqueueSchema = Joi.object<EnqueueParams, true>({
  event: Joi.object({
    id: uuid().required(),
    type: Joi.string().pattern(/^parcel\.[a-z_]{1,40}$/).required(),
    createdAt: Joi.string().max(64).required(),
    organizationId: uuid().required(),
    mode: keyMode().required(),
    sandbox: Joi.boolean().required(),
    reason: Joi.string().max(2000).allow(null).required(),
    data: Joi.object({
      previousStatus: Joi.string().max(40).allow(null).required(),
      parcel: Joi.object({ id: uuid().required() }).unknown(true).required()
    })
      .unknown(true)
      .required()
  })
    .unknown(true)
    .required()
});

interface SetEndpointParams {
  organizationId: string;
  url: string;
  secret: string;
}
const SetEndpointSchema = Joi.object<SetEndpointParams, true>({
  organizationId: uuid().required(),
  url: Joi.string().max(2000).uri({ scheme: ["http", "https"] }).required(),
  secret: Joi.string().min(16).max(200).required()
});

interface ListDeliveriesParams {
  organizationId: string;
  status: store.DeliveryStatus | null;
  page: number;
  size: number;
}
const ListDeliveriesSchema = Joi.object<ListDeliveriesParams, true>({
  organizationId: uuid().required(),
  // `?status=&page=&size=` with empty values means "not given".
  status: Joi.string().valid(...store.DELIVERY_STATUSES).allow(null).empty("").default(null),
  page: queryInteger().min(0).max(1_000_000).empty("").default(0),
  size: queryInteger().min(1).max(100).empty("").default(20)
}).unknown(true);

interface IdParams {
  id: string;
}
const IdSchema = Joi.object<IdParams, true>({ id: uuid().required() });

// --- helpers -----------------------------------------------------------------------------------

/** Runs `work` over `items` with at most `limit` in flight. */
async function inPool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const item = items[next++];
      await work(item);
    }
  });
  await Promise.all(runners);
}

const NO_ENDPOINT = "no webhook endpoint configured for the organisation";
const disabledReason = (endpoint: store.Endpoint) =>
  `webhook endpoint disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}`;

const WebhooksService: ServiceSchema<WebhooksSettings, WebhooksMethods, WebhooksVars> = {
  name: "webhooks",
  mixins: [DbMixin({ schema: "webhooks" })],

  settings: {
    retryDelayScale: 1,
    batchSize: 20,
    maxBatchesPerPass: 10,
    concurrency: 8,
    leaseMarginMs: 30_000
  },

  actions: {
    /**
     * Called by the outbox relay of `parcels`: the return is its acknowledgement, so it comes only
     * after the delivery row is committed. Idempotent per event id.
     */
    enqueue: defineAction<EnqueueParams, WebhooksThis>({
      visibility: "public",
      schema: EnqueueSchema,
      async handler(ctx) {
        const { event } = ctx.params;
        const endpoint = await store.findEndpoint(this.db, event.organizationId);
        const skipReason = !endpoint ? NO_ENDPOINT : endpoint.disabledAt ? disabledReason(endpoint) : null;
        const result = await store.insertDelivery(this.db, { id: randomUUID(), event, skipReason });
        if (result.created && result.status === "pending") {
          // Due now: a pass soon after keeps the first attempt close to the event.
          void this.worker.kick();
        }
        return { id: result.id, status: result.status };
      }
    }),

    // Back-office PUT /organizations/{orgId}/webhook
    setEndpoint: defineAction<SetEndpointParams, WebhooksThis>({
      schema: SetEndpointSchema,
      async handler(ctx) {
        const { organizationId, url, secret } = ctx.params;
        await assertPublicWebhookUrl(url, this.config.webhookAllowPrivate);
        await ctx.call("auth.getOrganization", { organizationId });
        await store.upsertEndpoint(this.db, { organizationId, url, secretEnc: encryptField(secret, this.encryptionKey) });
        this.logger.info(`webhook endpoint set for organization ${organizationId}`);
        return { url };
      }
    }),

    // Back-office GET /organizations/{orgId}/webhook-deliveries?status=&page=&size=
    listDeliveries: defineAction<ListDeliveriesParams, WebhooksThis>({
      schema: ListDeliveriesSchema,
      async handler(ctx) {
        const { organizationId, status, page, size } = ctx.params;
        const { items, totalElements } = await store.listDeliveries(this.db, { organizationId, status, page, size });
        return {
          items: items.map(d => ({
            id: d.id,
            eventId: d.eventId,
            eventType: d.eventType,
            status: d.status,
            attempts: d.attempts,
            nextAttemptAt: d.nextAttemptAt,
            lastStatusCode: d.lastStatusCode,
            lastError: d.lastError,
            deliveredAt: d.deliveredAt,
            createdAt: d.createdAt,
            attemptLog: d.attemptLog
          })),
          page,
          size,
          totalElements,
          totalPages: Math.ceil(totalElements / size)
        };
      }
    }),

    // Back-office POST /webhook-deliveries/{id}/redeliver
    redeliver: defineAction<IdParams, WebhooksThis>({
      schema: IdSchema,
      async handler(ctx) {
        const found = await store.redeliver(this.db, ctx.params.id);
        if (!found) throw new AppError("NOT_FOUND", "Webhook delivery not found");
        void this.worker.kick();
        return { id: ctx.params.id, status: "pending" };
      }
    }),

    /** One worker pass now (tests, REPL); answers the number of HTTP attempts made. */
    runWorker: defineAction<unknown, WebhooksThis>({
      visibility: "public",
      async handler() {
        return this.worker.runNow();
      }
    })
  },

  methods: {
    async workerPass(this: WebhooksThis): Promise<number> {
      let attempts = 0;
      const leaseMs = this.config.webhookTimeoutMs + this.settings.leaseMarginMs;
      for (let i = 0; i < this.settings.maxBatchesPerPass && !this.worker.stopping; i++) {
        const batch = await store.claimDue(this.db, { limit: this.settings.batchSize, leaseMs });
        if (batch.length === 0) break;
        attempts += await this.sendBatch(batch);
      }
      return attempts;
    },

    async sendBatch(this: WebhooksThis, batch: store.Delivery[]): Promise<number> {
      const endpoints = await store.findEndpoints(this.db, [...new Set(batch.map(d => d.organizationId))]);
      const labelUrls = await this.freshLabelUrls(batch.map(d => d.payload.data.parcel.id));
      let attempts = 0;
      await inPool(batch, this.settings.concurrency, async delivery => {
        try {
          const parcel = delivery.payload.data.parcel;
          const event = { ...delivery.payload, data: { ...delivery.payload.data, parcel: { ...parcel, labelUrl: labelUrls[parcel.id] ?? null } } };
          attempts += await this.sendOne({ ...delivery, payload: event }, endpoints.get(delivery.organizationId));
        } catch (err) {
          // The lease runs out and the delivery is tried again: nothing is lost.
          this.logger.error(`webhook delivery ${delivery.id}: ${(err as Error).message}`);
        }
      });
      return attempts;
    },

    /**
     * The payload's parcel view gets a label URL valid from this attempt on (a stored one would
     * have expired by the later retries); null when the labels service cannot answer, as in the API.
     */
    async freshLabelUrls(this: WebhooksThis, parcelIds: string[]): Promise<Record<string, string>> {
      if (parcelIds.length === 0 || !this.broker.registry.actions.isAvailable("labels.signUrls")) return {};
      try {
        const res = await this.broker.call<{ labelUrls: Record<string, string> }, { parcelIds: string[] }>(
          "labels.signUrls",
          { parcelIds: [...new Set(parcelIds)] },
          { timeout: 2000 }
        );
        return res.labelUrls;
      } catch {
        return {};
      }
    },

    /** One attempt of one claimed delivery; answers 1 if an HTTP attempt was made, else 0. */
    async sendOne(this: WebhooksThis, delivery: store.Delivery, endpoint: store.Endpoint | undefined): Promise<number> {
      const claim = { id: delivery.id, leaseToken: delivery.leaseToken as string };
      if (!endpoint || endpoint.disabledAt) {
        // See the decisions above: no active endpoint at send time → skipped, nothing sent.
        await store.markSkipped(this.db, claim, endpoint ? disabledReason(endpoint) : NO_ENDPOINT);
        return 0;
      }
      const result = await sendWebhook({
        url: endpoint.url,
        secret: decryptField(endpoint.secretEnc, this.encryptionKey),
        deliveryId: delivery.id,
        event: delivery.payload,
        timeoutMs: this.config.webhookTimeoutMs,
        allowPrivate: this.config.webhookAllowPrivate
      });

      let outcome: store.AttemptOutcome;
      const code = result.statusCode;
      if (code !== null && code >= 200 && code < 300) {
        outcome = { status: "delivered" };
      } else if (code === 410) {
        outcome = { status: "failed" };
      } else {
        const attemptsInRound = delivery.attempts + 1 - delivery.roundStart;
        const delay = delayAfterResponse(attemptsInRound, code, result.retryAfter);
        outcome = delay === null ? { status: "failed" } : { status: "pending", delayMs: delay * this.settings.retryDelayScale };
      }

      const attemptNo = await store.recordAttempt(
        this.db,
        claim,
        { ...result, worker: this.broker.nodeID },
        outcome
      );
      const what = `webhook delivery ${delivery.id} (${delivery.eventType}, organization ${delivery.organizationId})`;
      if (attemptNo === null) {
        this.logger.warn(`${what}: lease lost before the answer was recorded; another worker retries it`);
        return 1;
      }
      if (code === 410) {
        await store.disableEndpoint(this.db, delivery.organizationId, `410 Gone answered to delivery ${delivery.id}`);
        this.logger.warn(`${what}: endpoint answered 410 Gone; endpoint disabled until it is set again`);
      } else if (outcome.status === "failed") {
        this.logger.warn(`${what}: failed after attempt ${attemptNo} (${result.error})`);
      } else if (outcome.status === "pending") {
        this.logger.info(`${what}: attempt ${attemptNo} unsuccessful (${result.error}), next in ${Math.round(outcome.delayMs / 1000)} s`);
      } else {
        this.logger.debug(`${what}: delivered on attempt ${attemptNo}`);
      }
      return 1;
    }
  },

  created(this: WebhooksThis) {
    // A pass every WEBHOOK_WORKER_INTERVAL_MS, never two at once in this instance; also kicked by enqueue.
    this.worker = new BackgroundLoop(
      () => this.workerPass(),
      configOf(this.broker).webhookWorkerIntervalMs,
      err => this.logger.error(`webhook worker pass failed: ${err.message}`)
    );
  },

  started(this: WebhooksThis) {
    // Runs after the database mixin's started(): the schema is migrated.
    this.config = configOf(this.broker);
    this.encryptionKey = requireSecret(this.config, "encryptionKey");
    this.worker.start();
  },

  async stopped(this: WebhooksThis) {
    // Runs before the database mixin's stopped(): the pass in flight finishes on an open pool.
    await this.worker.stop();
  }
};

export default WebhooksService;
