import { randomUUID } from "node:crypto";
import pLimit from "p-limit";
import type { Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../lib/action";
import { BackgroundLoop } from "../lib/background-loop";
import { call } from "../lib/contract";
import { decryptField, encryptField } from "../lib/crypto";
import type { ServiceDocs } from "../lib/endpoint";
import { detached } from "../lib/endpoint";
import { AppError } from "../lib/errors";
import { pageOf } from "../lib/parcel-view";
import { delayAfterResponse } from "../lib/retry-schedule";
import { requireSecret } from "../lib/secrets";
import { assertPublicWebhookUrl } from "../lib/ssrf";
import { ConfigMixin, ConfigVars } from "../mixins/config.mixin";
import { DbMixin, DbVars } from "../mixins/db.mixin";
import { freshLabelUrls } from "../mixins/label-urls";
import { sendWebhook } from "./webhooks/webhook-sender";
import {
  DeliveryPageView,
  EnqueueParams,
  EnqueueSchema,
  IdParams,
  IdSchema,
  ListDeliveriesParams,
  ListDeliveriesSchema,
  RedeliveryView,
  SetEndpointParams,
  SetEndpointSchema,
  WebhookEndpointView,
  WEBHOOKS_DOCS
} from "./webhooks/webhooks.params";
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
  openapi: ServiceDocs;
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

interface WebhooksVars extends DbVars, ConfigVars {
  encryptionKey: string;
  worker: BackgroundLoop<number>;
}

interface WebhooksMethods {
  workerPass(): Promise<number>;
  sendBatch(batch: store.Delivery[]): Promise<number>;
  sendOne(delivery: store.Delivery, endpoint: store.Endpoint | undefined): Promise<number>;
}

type WebhooksThis = Service<WebhooksSettings> & WebhooksVars & WebhooksMethods;

const NO_ENDPOINT = "no webhook endpoint configured for the organisation";
const disabledReason = (endpoint: store.Endpoint) =>
  `webhook endpoint disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}`;

const WebhooksService: ServiceSchema<WebhooksSettings, WebhooksMethods, WebhooksVars> = {
  name: "webhooks",
  mixins: [DbMixin({ schema: "webhooks" }), ConfigMixin],

  settings: {
    openapi: detached(WEBHOOKS_DOCS),
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

    setEndpoint: defineAction<SetEndpointParams, WebhooksThis>({
      rest: "PUT /organizations/:organizationId/webhook",
      api: "backoffice",
      schema: SetEndpointSchema,
      endpoint: {
        operationId: "setWebhookEndpoint",
        summary: "Set the organisation's webhook URL and secret",
        description:
          "Also re-enables an endpoint disabled by a 410. The URL must resolve to a public address unless private ones are allowed.",
        tag: "Webhooks",
        response: WebhookEndpointView,
        responseDescription: "Stored.",
        errors: ["ORGANIZATION_NOT_FOUND"],
        body: { name: "WebhookEndpointRequest", description: "The endpoint." }
      },
      async handler(ctx) {
        const { organizationId, url, secret } = ctx.params;
        await assertPublicWebhookUrl(url, this.config.webhookAllowPrivate);
        await call(ctx, "auth.getOrganization", { organizationId });
        await store.upsertEndpoint(this.db, { organizationId, url, secretEnc: encryptField(secret, this.encryptionKey) });
        this.logger.info(`webhook endpoint set for organization ${organizationId}`);
        return { url };
      }
    }),

    listDeliveries: defineAction<ListDeliveriesParams, WebhooksThis>({
      rest: "GET /organizations/:organizationId/webhook-deliveries",
      api: "backoffice",
      schema: ListDeliveriesSchema,
      endpoint: {
        operationId: "listWebhookDeliveries",
        summary: "List webhook deliveries with their attempts",
        description: "What was sent to the organisation's endpoint, with each attempt's status code or error, for support and redelivery.",
        tag: "Webhooks",
        response: DeliveryPageView,
        responseDescription: "A page of deliveries, newest first."
      },
      async handler(ctx) {
        const { organizationId, status, page, size } = ctx.params;
        const { items, totalElements } = await store.listDeliveries(this.db, { organizationId, status, page, size });
        return pageOf(
          items.map(d => ({
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
          totalElements
        );
      }
    }),

    redeliver: defineAction<IdParams, WebhooksThis>({
      rest: "POST /webhook-deliveries/:id/redeliver",
      api: "backoffice",
      schema: IdSchema,
      endpoint: {
        operationId: "redeliverWebhook",
        summary: "Send a delivery again",
        description: "Starts a new round of the retry schedule, keeping the delivery id.",
        tag: "Webhooks",
        status: 202,
        response: RedeliveryView,
        responseDescription: "Scheduled.",
        errors: ["NOT_FOUND"]
      },
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

    /**
     * The payload's parcel view gets a label URL valid from this attempt on (a stored one would
     * have expired by the later retries); null when the labels service cannot answer, as in the API.
     */
    async sendBatch(this: WebhooksThis, batch: store.Delivery[]): Promise<number> {
      const endpoints = await store.findEndpoints(this.db, [...new Set(batch.map(d => d.organizationId))]);
      const labelUrls = await freshLabelUrls(
        this.broker,
        this.broker,
        batch.map(d => d.payload.data.parcel.id)
      );
      let attempts = 0;
      const limit = pLimit(this.settings.concurrency);
      await Promise.all(
        batch.map(delivery =>
          limit(async () => {
            try {
              const parcel = delivery.payload.data.parcel;
              const event = {
                ...delivery.payload,
                data: { ...delivery.payload.data, parcel: { ...parcel, labelUrl: labelUrls[parcel.id] ?? null } }
              };
              attempts += await this.sendOne({ ...delivery, payload: event }, endpoints.get(delivery.organizationId));
            } catch (err) {
              // The lease runs out and the delivery is tried again: nothing is lost.
              this.logger.error(`webhook delivery ${delivery.id}: ${(err as Error).message}`);
            }
          })
        )
      );
      return attempts;
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

      const attemptNo = await store.recordAttempt(this.db, claim, { ...result, worker: this.broker.nodeID }, outcome);
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
      this.config.webhookWorkerIntervalMs,
      err => this.logger.error(`webhook worker pass failed: ${err.message}`)
    );
  },

  started(this: WebhooksThis) {
    // Runs after the database mixin's started(): the schema is migrated.
    this.encryptionKey = requireSecret(this.config, "encryptionKey");
    this.worker.start();
  },

  async stopped(this: WebhooksThis) {
    // Runs before the database mixin's stopped(): the pass in flight finishes on an open pool.
    await this.worker.stop();
  }
};

export default WebhooksService;
