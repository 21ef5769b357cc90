/**
 * The webhooks service. Owns merchants' webhook endpoints and their secrets, the stored events
 * feed and the deliveries (signing in services/webhooks/signing/, the retry schedule, the SSRF
 * guard) in the `webhooks` schema; its code is this file and services/webhooks/.
 * Others may call (types in webhooks/webhooks.contract.ts): `webhooks.enqueueBatch` (parcels' outbox
 * relay) and `webhooks.enqueue` (one event). Everything else is reached over HTTP through the gateway.
 */
import type { Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../lib/action";
import { BackgroundLoop } from "../lib/background-loop";
import type { ServiceDocs } from "../lib/endpoint";
import { detached } from "../lib/endpoint";
import { AppError } from "../lib/errors";
import { EVENT_RETENTION_DAYS, type ParcelEvent } from "../lib/events";
import { pageOf } from "../lib/parcel-view";
import type { PartnerMeta } from "../lib/principal";
import { requireSecret } from "../lib/secrets";
import { ConfigMixin, ConfigVars } from "../mixins/config.mixin";
import { DbMixin, DbVars } from "../mixins/db.mixin";
import { workerPass, WorkerSettings } from "./webhooks/delivery-worker";
import * as endpoints from "./webhooks/endpoints";
import { getEvent, listEvents } from "./webhooks/events-feed";
import { replay, testSend } from "./webhooks/replay-and-test";
import type { WebhooksContext } from "./webhooks/webhook-context";
import {
  CreateEndpointParams,
  CreateEndpointSchema,
  DeliveryPageView,
  EndpointDetailsView,
  EndpointIdParams,
  EndpointIdSchema,
  EndpointListView,
  EndpointWithSecretView,
  EnqueueBatchParams,
  EnqueueBatchSchema,
  EnqueueParams,
  EnqueueSchema,
  EventIdParams,
  EventIdSchema,
  EventPageView,
  IdParams,
  IdSchema,
  IncomingParcelEvent,
  ListDeliveriesParams,
  ListDeliveriesSchema,
  ListEventsParams,
  ListEventsSchema,
  NoticeListView,
  OrganizationParams,
  OrganizationSchema,
  RedeliveryView,
  ReplayParams,
  ReplaySchema,
  ReplayView,
  RotateSecretParams,
  RotateSecretSchema,
  SetEndpointParams,
  SetEndpointSchema,
  SINCE_DOC,
  TestSendView,
  UpdateEndpointParams,
  UpdateEndpointSchema,
  WebhookEndpointView,
  WEBHOOKS_DOCS
} from "./webhooks/webhooks.params";
import { ANY_EVENT_SCHEMA } from "./webhooks/event-docs";
import * as store from "./webhooks/webhooks.store";

/**
 * Outgoing webhooks (SPEC §6, DESIGN §3) and the events feed: every parcel event is stored (kept
 * 30 days, listed by the events API) and delivered to each endpoint of its organisation that takes
 * it, by a worker that retries on the published schedule.
 *
 * Decisions:
 * - Endpoints: several per organisation, each with its URL, secrets, mode (live, sandbox, both),
 *   event types and description; the single-URL call sets the "default" one. An event goes to the
 *   endpoints that take it when it arrives; a disabled endpoint's delivery is stored as `skipped`
 *   and a replay sends it. An event no endpoint takes is stored all the same (events API, replay).
 * - Ordering: an endpoint gets a parcel's deliveries one at a time, in the order of the events;
 *   another endpoint's outage holds nothing back.
 * - Several workers on one database: a claim (`FOR UPDATE SKIP LOCKED`) commits with a lease
 *   (time-out + `leaseMarginMs`) and a lease token; the result is recorded only under that token.
 *   A crashed worker's deliveries are due again after the lease: at least once, same delivery id.
 * - Retries: webhooks/retry-schedule.ts (jitter, Retry-After honoured on 429/503), MAX_ATTEMPTS per round;
 *   410 fails the delivery and disables the endpoint; 5 days without a success disables it with a
 *   notice for the merchant. A redelivery or replay starts a new round, keeping the delivery id.
 * - Signing: every secret valid at the attempt signs it (rotation overlap), webhooks/signing/.
 * - Never logged: secrets, endpoint URLs, payloads (they carry parcel data).
 */

export interface WebhooksSettings extends ServiceSettingSchema, WorkerSettings {
  openapi: ServiceDocs;
}

interface WebhooksVars extends DbVars, ConfigVars {
  encryptionKey: string;
  worker: BackgroundLoop<number>;
  purge: BackgroundLoop<number>;
}

interface WebhooksMethods {
  /** The service's clock (see WebhooksContext.now); tests replace this method. */
  now(): Date;
  context(): WebhooksContext;
  record(events: IncomingParcelEvent[]): Promise<store.RecordedEvent[]>;
}

type WebhooksThis = Service<WebhooksSettings> & WebhooksVars & WebhooksMethods;

const ORGANIZATION_ENDPOINTS = "/organizations/:organizationId/webhook-endpoints";
const ONE_ENDPOINT = `${ORGANIZATION_ENDPOINTS}/:endpointId`;
const PURGE_INTERVAL_MS = 3600_000;

const WebhooksService: ServiceSchema<WebhooksSettings, WebhooksMethods, WebhooksVars> = {
  name: "webhooks",
  mixins: [DbMixin({ schema: "webhooks" }), ConfigMixin],

  settings: {
    openapi: detached(WEBHOOKS_DOCS),
    retryDelayScale: 1,
    // One claim and one record statement per batch: a larger batch spreads them over more POSTs
    // (measured with events already committed: 64 delivered about a third faster than 20).
    batchSize: 64,
    maxBatchesPerPass: 10,
    concurrency: 8,
    leaseMarginMs: 30_000
  },

  actions: {
    /**
     * Called by the outbox relay of `parcels` for every event: the return is its acknowledgement,
     * so it comes only after the event and its deliveries are committed. Idempotent per event id.
     */
    enqueue: defineAction<EnqueueParams, WebhooksThis>({
      visibility: "public",
      schema: EnqueueSchema,
      async handler(ctx) {
        const [recorded] = await this.record([ctx.params.event]);
        return recorded;
      }
    }),

    /**
     * The outbox relay's hand-off: a batch of events, oldest first, stored with their deliveries
     * in one transaction (see store.recordEvents); the answer is the acknowledgement of them all.
     * Idempotent per event id, so a batch handed over again after a crash adds nothing.
     */
    enqueueBatch: defineAction<EnqueueBatchParams, WebhooksThis>({
      visibility: "public",
      schema: EnqueueBatchSchema,
      async handler(ctx) {
        const recorded = await this.record(ctx.params.events);
        return {
          received: recorded.length,
          created: recorded.filter(r => r.created).length,
          deliveries: recorded.reduce((n, r) => n + (r.created ? r.deliveries.length : 0), 0)
        };
      }
    }),

    setEndpoint: defineAction<SetEndpointParams, WebhooksThis>({
      rest: "PUT /organizations/:organizationId/webhook",
      api: "backoffice",
      schema: SetEndpointSchema,
      endpoint: {
        operationId: "setWebhookEndpoint",
        summary: "Set the organisation's default webhook URL and secret",
        description:
          "Creates or updates the organisation's default endpoint (its mode, event types and description are kept) with this URL " +
          "and this secret, which replaces the previous ones at once (rotate the secret instead to change it without downtime). " +
          "Also enables the endpoint again. The URL must resolve to a public address unless private ones are allowed.",
        tag: "Webhooks",
        response: WebhookEndpointView,
        responseDescription: "Stored.",
        errors: ["ORGANIZATION_NOT_FOUND"],
        body: { name: "WebhookEndpointRequest", description: "The endpoint." }
      },
      async handler(ctx) {
        const answer = await endpoints.setDefaultEndpoint(this.context(), ctx, ctx.params);
        this.logger.info(`default webhook endpoint set for organization ${ctx.params.organizationId}`);
        return answer;
      }
    }),

    createEndpoint: defineAction<CreateEndpointParams, WebhooksThis>({
      rest: `POST ${ORGANIZATION_ENDPOINTS}`,
      api: "backoffice",
      schema: CreateEndpointSchema,
      endpoint: {
        operationId: "createWebhookEndpoint",
        summary: "Add a webhook endpoint",
        description:
          "An organisation may have several endpoints (at most 20), each receiving the events of its mode and types. Without a " +
          "`secret`, one is generated in the Standard Webhooks form (whsec_…). The secret is in this answer only.",
        tag: "Webhooks",
        status: 201,
        location: { action: "webhooks.getEndpoint", params: { organizationId: "response.organizationId", endpointId: "response.id" } },
        response: EndpointWithSecretView,
        responseDescription: "Created; its secret is shown now and never again.",
        errors: ["ORGANIZATION_NOT_FOUND", "CONFLICT"],
        body: { name: "WebhookEndpointCreateRequest", description: "The endpoint to add." }
      },
      async handler(ctx) {
        return endpoints.createEndpoint(this.context(), ctx, ctx.params);
      }
    }),

    listEndpoints: defineAction<OrganizationParams, WebhooksThis>({
      rest: `GET ${ORGANIZATION_ENDPOINTS}`,
      api: "backoffice",
      schema: OrganizationSchema,
      endpoint: {
        operationId: "listWebhookEndpoints",
        summary: "List the webhook endpoints",
        description: "Every endpoint of the organisation, oldest first, without secrets.",
        tag: "Webhooks",
        response: EndpointListView,
        responseDescription: "The endpoints."
      },
      async handler(ctx) {
        return endpoints.listEndpoints(this.context(), ctx.params.organizationId);
      }
    }),

    getEndpoint: defineAction<EndpointIdParams, WebhooksThis>({
      rest: `GET ${ONE_ENDPOINT}`,
      api: "backoffice",
      schema: EndpointIdSchema,
      endpoint: {
        operationId: "getWebhookEndpoint",
        summary: "Read a webhook endpoint",
        description: "The endpoint, its state and the dates of its secrets (never their values).",
        tag: "Webhooks",
        response: EndpointDetailsView,
        responseDescription: "The endpoint.",
        errors: ["WEBHOOK_ENDPOINT_NOT_FOUND"]
      },
      async handler(ctx) {
        return endpoints.getEndpoint(this.context(), ctx.params);
      }
    }),

    updateEndpoint: defineAction<UpdateEndpointParams, WebhooksThis>({
      rest: `PATCH ${ONE_ENDPOINT}`,
      api: "backoffice",
      schema: UpdateEndpointSchema,
      endpoint: {
        operationId: "updateWebhookEndpoint",
        summary: "Change a webhook endpoint",
        description:
          "Changes the fields given and keeps the others. `enabled: false` disables it (its events keep being stored for a replay); " +
          "`enabled: true` enables it again, with a fresh 5-day failing allowance.",
        tag: "Webhooks",
        response: EndpointDetailsView,
        responseDescription: "The endpoint as it now is.",
        errors: ["WEBHOOK_ENDPOINT_NOT_FOUND"],
        body: { name: "WebhookEndpointUpdateRequest", description: "The fields to change." }
      },
      async handler(ctx) {
        return endpoints.updateEndpoint(this.context(), ctx.params);
      }
    }),

    deleteEndpoint: defineAction<EndpointIdParams, WebhooksThis>({
      rest: `DELETE ${ONE_ENDPOINT}`,
      api: "backoffice",
      schema: EndpointIdSchema,
      endpoint: {
        operationId: "deleteWebhookEndpoint",
        summary: "Remove a webhook endpoint",
        description: "The endpoint, its secrets and its deliveries go; the events stay (events API, replays to other endpoints).",
        tag: "Webhooks",
        status: 204,
        responseDescription: "Removed.",
        errors: ["WEBHOOK_ENDPOINT_NOT_FOUND"]
      },
      async handler(ctx) {
        await endpoints.deleteEndpoint(this.context(), ctx.params);
        return null;
      }
    }),

    rotateSecret: defineAction<RotateSecretParams, WebhooksThis>({
      rest: `POST ${ONE_ENDPOINT}/rotate-secret`,
      api: "backoffice",
      schema: RotateSecretSchema,
      endpoint: {
        operationId: "rotateWebhookSecret",
        summary: "Rotate an endpoint's secret without downtime",
        description:
          "Gives the endpoint a new secret (generated unless given). For the overlap (24 h by default) every delivery is signed " +
          "with the new secret and the previous ones: webhook-signature carries one v1 entry per secret, X-Relay-Signature the " +
          "new one's. Deploy the new secret within the overlap; the previous ones then expire. An overlap of 0 revokes them at once.",
        tag: "Webhooks",
        response: EndpointWithSecretView,
        responseDescription: "Rotated; the new secret is shown now and never again.",
        errors: ["WEBHOOK_ENDPOINT_NOT_FOUND"],
        body: { name: "WebhookSecretRotationRequest", description: "The new secret and the overlap.", required: false }
      },
      async handler(ctx) {
        const answer = await endpoints.rotateSecret(this.context(), ctx.params);
        this.logger.info(`webhook endpoint ${ctx.params.endpointId}: secret rotated, overlap ${ctx.params.overlapSeconds} s`);
        return answer;
      }
    }),

    replay: defineAction<ReplayParams, WebhooksThis>({
      rest: `POST ${ONE_ENDPOINT}/replay`,
      api: "backoffice",
      schema: ReplaySchema,
      endpoint: {
        operationId: "replayWebhookEvents",
        summary: "Send an endpoint its events again",
        description:
          "After an outage or a lost database: every event the endpoint takes since `since` (all, or only the deliveries that failed " +
          "or were skipped) is sent again with its original event id, a parcel's in order. Events are kept 30 days. The endpoint " +
          "must be enabled.",
        tag: "Webhooks",
        status: 202,
        response: ReplayView,
        responseDescription: "Queued: the deliveries go out now.",
        errors: ["WEBHOOK_ENDPOINT_NOT_FOUND", "WEBHOOK_ENDPOINT_DISABLED"],
        fields: { since: SINCE_DOC },
        body: { name: "WebhookReplayRequest", description: "From when, and which events." }
      },
      async handler(ctx) {
        if (!SINCE_DOC.handler.check(ctx.params.since)) {
          throw new AppError("VALIDATION_FAILED", "The request is not valid", {
            details: [{ field: "since", message: "is not a date-time that exists" }]
          });
        }
        const answer = await replay(this.context(), ctx.params);
        void this.worker.kick();
        return answer;
      }
    }),

    testEndpoint: defineAction<EndpointIdParams, WebhooksThis>({
      rest: `POST ${ONE_ENDPOINT}/test`,
      api: "backoffice",
      schema: EndpointIdSchema,
      // The attempt may take the whole webhook time-out (up to 60 s).
      timeout: 70_000,
      endpoint: {
        operationId: "testWebhookEndpoint",
        summary: "Send a test event to an endpoint",
        description:
          "Sends one `ping` event now, signed like every delivery, and answers what came back: status, latency and the first 1024 " +
          "bytes of the body. Nothing is retried or recorded; a disabled endpoint can be tested before it is enabled again.",
        tag: "Webhooks",
        response: TestSendView,
        responseDescription: "What the endpoint answered (or why it did not).",
        errors: ["WEBHOOK_ENDPOINT_NOT_FOUND"]
      },
      async handler(ctx) {
        return testSend(this.context(), ctx.params);
      }
    }),

    listDeliveries: defineAction<ListDeliveriesParams, WebhooksThis>({
      rest: "GET /organizations/:organizationId/webhook-deliveries",
      api: "backoffice",
      schema: ListDeliveriesSchema,
      endpoint: {
        operationId: "listWebhookDeliveries",
        summary: "List webhook deliveries with their attempts",
        description:
          "What was sent to the organisation's endpoints, with each attempt's status code, latency and error, for support and redelivery.",
        tag: "Webhooks",
        response: DeliveryPageView,
        responseDescription: "A page of deliveries, newest first."
      },
      async handler(ctx) {
        const { page, size } = ctx.params;
        const { items, totalElements } = await store.listDeliveries(this.db, ctx.params);
        return pageOf(
          items.map(d => ({
            id: d.id,
            eventId: d.eventId,
            endpointId: d.endpointId,
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

    listNotices: defineAction<OrganizationParams, WebhooksThis>({
      rest: "GET /organizations/:organizationId/webhook-notices",
      api: "backoffice",
      schema: OrganizationSchema,
      endpoint: {
        operationId: "listWebhookNotices",
        summary: "List the notices written for the merchant",
        description:
          "Messages ready to be e-mailed to the merchant (an endpoint disabled after 5 days of failures), French then English, newest first (50 at most).",
        tag: "Webhooks",
        response: NoticeListView,
        responseDescription: "The notices."
      },
      async handler(ctx) {
        const notices = await store.listNotices(this.db, ctx.params.organizationId, 50);
        return notices.map(({ organizationId: _organizationId, ...notice }) => notice);
      }
    }),

    listEvents: defineAction<ListEventsParams, WebhooksThis, PartnerMeta>({
      rest: "GET /events",
      api: "partner",
      scope: "parcels:read",
      schema: ListEventsSchema,
      endpoint: {
        operationId: "listEvents",
        summary: "List events",
        description:
          `Every parcel event of your organisation for the last ${EVENT_RETENTION_DAYS} days, of the key's mode (live or sandbox), ` +
          "oldest first, each exactly the body that was (or would be) delivered by webhook (its labelUrl fresh). Page with " +
          "`after=next` until hasMore is false; keep `next` to ask later for what happened since. Rebuilding a parcel's state: " +
          "apply its events in `sequence` order.",
        tag: "Events",
        response: EventPageView,
        responseDescription: "A page of events."
      },
      async handler(ctx) {
        return listEvents(this.context(), ctx.meta.auth, ctx.params);
      }
    }),

    getEvent: defineAction<EventIdParams, WebhooksThis, PartnerMeta>({
      rest: "GET /events/:id",
      api: "partner",
      scope: "parcels:read",
      schema: EventIdSchema,
      endpoint: {
        operationId: "getEvent",
        summary: "Read an event",
        description: `One event of the last ${EVENT_RETENTION_DAYS} days, of your organisation and the key's mode, as it was (or would be) delivered.`,
        tag: "Events",
        response: ANY_EVENT_SCHEMA,
        responseDescription: "The event.",
        errors: ["EVENT_NOT_FOUND"]
      },
      async handler(ctx) {
        return getEvent(this.context(), ctx.meta.auth, ctx.params);
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
    now(): Date {
      return new Date();
    },

    /** Stores events handed over by parcels (older ones may lack occurredAt and sequence) and wakes the worker for the new deliveries. */
    async record(this: WebhooksThis, incoming: IncomingParcelEvent[]): Promise<store.RecordedEvent[]> {
      const events: ParcelEvent[] = incoming.map(event => ({
        ...event,
        occurredAt: event.occurredAt ?? event.createdAt,
        sequence: event.sequence ?? 0
      }));
      const recorded = await store.recordEvents(this.db, events);
      // Due now: a pass soon after keeps the first attempt close to the event.
      if (recorded.some(r => r.created && r.deliveries.some(d => d.status === "pending"))) void this.worker.kick();
      return recorded;
    },

    context(this: WebhooksThis): WebhooksContext {
      return {
        db: this.db,
        broker: this.broker,
        logger: this.logger,
        config: this.config,
        encryptionKey: this.encryptionKey,
        now: () => this.now()
      };
    }
  },

  created(this: WebhooksThis) {
    // A pass every WEBHOOK_WORKER_INTERVAL_MS, never two at once in this instance; also kicked by enqueue.
    this.worker = new BackgroundLoop(
      () => workerPass({ ...this.context(), settings: this.settings, stopping: () => this.worker.stopping }),
      this.config.webhookWorkerIntervalMs,
      err => this.logger.error(`webhook worker pass failed: ${err.message}`)
    );
    this.purge = new BackgroundLoop(
      () => store.purgeEvents(this.db, EVENT_RETENTION_DAYS),
      PURGE_INTERVAL_MS,
      err => this.logger.error(`event purge failed: ${err.message}`)
    );
  },

  started(this: WebhooksThis) {
    // Runs after the database mixin's started(): the schema is migrated.
    this.encryptionKey = requireSecret(this.config, "encryptionKey");
    this.worker.start();
    this.purge.start();
  },

  async stopped(this: WebhooksThis) {
    // Runs before the database mixin's stopped(): the passes in flight finish on an open pool.
    await Promise.all([this.worker.stop(), this.purge.stop()]);
  }
};

export default WebhooksService;
