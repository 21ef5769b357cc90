/**
 * The notifications service. Owns the pick-up SMS (its outbox, retries and providers) in the
 * `notifications` schema; its code is this file and services/notifications/.
 * Others may call (types in notifications/notifications.contract.ts): `notifications.parcelEvent`
 * (parcels' outbox relay) and `notifications.sendPickupSms` (parcels, on a PIN reset).
 */
import type { Context, Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../lib/action";
import { BackgroundLoop } from "../lib/background-loop";
import { retentionLoop } from "../lib/retention";
import { eraseOldSms, pruneErasedSms } from "./notifications/retention.store";
import { call } from "../lib/contract";
import { decryptField, encryptField } from "../lib/crypto";
import { errorCodeOf } from "../lib/errors";
import { requestLogger } from "../lib/request-context";
import { mayMessageRecipient, parcelOf } from "../lib/events";
import pLimit from "p-limit";
import { countMetric, RELAY_METRICS } from "../lib/metrics";
import { MASKED_PIN } from "../lib/pickup-pin";
import { PASS_LINK_TOKEN_LENGTH } from "../lib/pass-link";

/** The stored copy's pass-link key: as long as a real one, so that the copy reads like the SMS sent. */
const MASKED_PASS_KEY = "*".repeat(PASS_LINK_TOKEN_LENGTH);
import { requireSecret } from "../lib/secrets";
import { ConfigMixin, ConfigVars } from "../mixins/config.mixin";
import { DbMixin, DbVars } from "../mixins/db.mixin";
import {
  AT_RELAY,
  PICKUP_EXPIRED_REASON,
  PICKUP_REMINDER,
  RETURN_CREATED,
  RETURN_PENDING,
  ParcelEventParams,
  ParcelEventSchema,
  ParcelEventsParams,
  ParcelEventsSchema,
  ParcelIdParams,
  ParcelIdSchema,
  SendPickupSmsParams,
  SendPickupSmsSchema,
  SendRedirectCodeParams,
  SendRedirectCodeSchema,
  SendHandoverConfirmationParams,
  SendHandoverConfirmationSchema
} from "./notifications/notifications.params";
import { composeRedirectCodeSms, maskedRedirectCodeSms } from "./notifications/code-sms";
import * as store from "./notifications/notifications.store";
import { insertCappedMessage, phoneDigest } from "./notifications/phone-cap";
import { carriesPickupPin, ComposedSmsKind, composeSms, ParcelSmsKind } from "./notifications/holding-sms";
import { notifyRetryDelayMs, RelayPointInfo, SMS_RETRY_DELAYS_MS, smsRetryDelayMs } from "./notifications/pickup-sms";
import { isReturnParcelEvent, returnCodeOf } from "./notifications/return-sms";
import { createSmsProvider, maskPhone, SmsProvider, SmsSendError } from "./notifications/sms-providers";
import { handoverConfirmationText, type SmsContext } from "./notifications/sms-texts";
import { DEFAULT_LANG, type Lang } from "../lib/languages";
import { normaliseRecipientPhone } from "../lib/recipient-phone";

export const RELAY_NOTIFIED_REASON = "pick-up SMS sent";
/** Recipients looked up at once (calls to parcels) while a hand-off's messages are composed. */
const COMPOSE_CONCURRENCY = 8;

export interface NotificationsSettings extends ServiceSettingSchema {
  /** Pause between two worker passes (a pass never overlaps the previous one). */
  workerIntervalMs: number;
  /** Messages claimed per pass. */
  batchSize: number;
  /** How long a claimed message stays away from other workers; longer than a send plus a call. */
  leaseMs: number;
  /** Waits between send attempts; its length + 1 is the number of attempts. */
  retryDelaysMs: readonly number[];
  /** First wait before asking parcels again for RELAY_NOTIFIED (then doubling, capped at 5 min). */
  notifyRetryBaseMs: number;
}

export interface WorkerPassResult {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
  notified: number;
  notifyRetried: number;
}

type Outcome = "sent+notified" | "sent" | "retried" | "failed" | "notified" | "notify-retried" | "lease-lost";

interface NotificationsVars extends DbVars, ConfigVars {
  provider: SmsProvider;
  encryptionKey: string;
  /** Passes never overlap in this process; kicked by each new message. */
  worker: BackgroundLoop<WorkerPassResult>;
  /** Issue 48: erases SMS numbers and texts PII_RETENTION_DAYS after they were written (retention.store.ts). */
  retention: BackgroundLoop<number>;
}

interface PickupRequest {
  eventId: string;
  organizationId: string;
  parcel: { id: string; trackingNumber: string; destinationRelayCode: string; codAmountDzd: number | null; pickupDeadline?: string | null };
  /** The pick-up SMS unless said otherwise. */
  kind?: ComposedSmsKind;
  /** The return code of a return_code SMS (sealed like the PIN), and its deadline. */
  secret?: string;
  deadline?: string;
}

/**
 * The SMS an event calls for, or null. Only AT_RELAY and reminders are checked in full
 * (notifications.params.ts): an expiry without its parcel is no SMS, and must not hold the
 * parcel's outbox queue either. A sandbox parcel's recipient is test data: no SMS to a possibly
 * real number, and no automatic RELAY_NOTIFIED the merchant did not trigger.
 */
function smsRequestOf(event: ParcelEventParams["event"]): PickupRequest | null {
  if (!mayMessageRecipient(event)) return null;
  // A customer's return parcel is collected by the merchant: no pick-up SMS (issue 21).
  if (event.type === AT_RELAY && isReturnParcelEvent(event)) return null;
  const returnCode = event.type === RETURN_CREATED ? returnCodeOf(event) : null;
  const kind: ParcelSmsKind | null = event.type === AT_RELAY ? "pickup" : returnCode !== null ? "return_code" : holdingSmsKindOf(event);
  const parcel = event.data ? parcelOf(event) : null;
  if (kind === null || !parcel?.id) return null;
  return {
    eventId: event.id,
    organizationId: event.organizationId,
    parcel,
    kind,
    secret: returnCode?.code,
    deadline: returnCode?.expiresAt
  };
}

/** The events that send the recipient an SMS of the holding period, and which. */
function holdingSmsKindOf(event: ParcelEventParams["event"]): ParcelSmsKind | null {
  if (event.type === PICKUP_REMINDER) return "pickup_reminder";
  if (event.type === RETURN_PENDING && event.reason === PICKUP_EXPIRED_REASON) return "pickup_expired";
  return null;
}

interface NotificationsMethods {
  queuePickupSms(ctx: Context, request: PickupRequest): Promise<{ smsQueued: boolean; messageId: string | null }>;
  queueSmsBatch(ctx: Context, requests: PickupRequest[]): Promise<{ queued: number }>;
  composeSms(ctx: Context, request: PickupRequest): Promise<store.NewSmsMessage | null>;
  storeSms(messages: store.NewSmsMessage[]): Promise<{ message: store.SmsMessage; created: boolean }[]>;
  addressed(ctx: Context, parcelId: string, phone: string, message: Omit<store.NewSmsMessage, "phoneEnc">): Promise<store.NewSmsMessage>;
  smsContext(lang: Lang | undefined): SmsContext;
  workerPass(): Promise<WorkerPassResult>;
  processClaimed(message: store.SmsMessage): Promise<Outcome>;
  sendClaimed(message: store.SmsMessage): Promise<Outcome>;
  notifyParcel(message: store.SmsMessage): Promise<"notified" | "notify-retried">;
}

type NotificationsThis = Service<NotificationsSettings> & NotificationsVars & NotificationsMethods;

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function publicView(message: store.SmsMessage, encryptionKey: string) {
  let to = "***";
  try {
    to = maskPhone(decryptField(message.phoneEnc, encryptionKey));
  } catch {
    // A row sealed with another key still lists; only its masked number is unknown.
  }
  return {
    id: message.id,
    eventId: message.eventId,
    parcelId: message.parcelId,
    organizationId: message.organizationId,
    to,
    body: message.body,
    provider: message.provider,
    status: message.status,
    attempts: message.attempts,
    nextAttemptAt: message.nextAttemptAt,
    lastError: message.lastError,
    providerMessageId: message.providerMessageId,
    sentAt: message.sentAt,
    notifiedAt: message.notifiedAt,
    createdAt: message.createdAt
  };
}

export type SmsMessageView = ReturnType<typeof publicView>;

/**
 * The pick-up SMS (DESIGN §3 "Live parcels"): on AT_RELAY, one message per event to the
 * recipient, sent by a worker with retries through the configured provider, and once sent the
 * parcel is moved to RELAY_NOTIFIED by `parcels`. Acknowledging an event only means the message
 * is stored; sending never holds up the outbox relay.
 */
const NotificationsService: ServiceSchema<NotificationsSettings, NotificationsMethods, NotificationsVars> = {
  name: "notifications",
  mixins: [DbMixin({ schema: "notifications" }), ConfigMixin],

  settings: {
    workerIntervalMs: 500,
    batchSize: 20,
    leaseMs: 60_000,
    retryDelaysMs: SMS_RETRY_DELAYS_MS,
    notifyRetryBaseMs: 5_000
  },

  actions: {
    /**
     * One parcel event (the outbox relay hands them over in batches, see parcelEvents); the answer is the acknowledgement.
     * Idempotent per event id. Throws (so the relay retries later) only when a peer it needs is
     * unavailable.
     */
    parcelEvent: defineAction<ParcelEventParams, NotificationsThis>({
      visibility: "public",
      schema: ParcelEventSchema,
      async handler(ctx): Promise<{ smsQueued: boolean; messageId: string | null }> {
        const request = smsRequestOf(ctx.params.event);
        return request ? this.queuePickupSms(ctx, request) : { smsQueued: false, messageId: null };
      }
    }),

    /**
     * The parcels outbox relay's hand-off: the events that may message a recipient (it leaves out
     * the others, see mayMessageRecipient), oldest first; the answer acknowledges them all.
     * Idempotent per event id.
     */
    parcelEvents: defineAction<ParcelEventsParams, NotificationsThis>({
      visibility: "public",
      schema: ParcelEventsSchema,
      handler(ctx): Promise<{ queued: number }> {
        const requests = ctx.params.events.map(smsRequestOf).filter((r): r is PickupRequest => r !== null);
        return this.queueSmsBatch(ctx, requests);
      }
    }),

    // call notifications.sendPickupSms --requestId <uuid> --organizationId <uuid> --parcel.id <uuid> ...
    sendPickupSms: defineAction<SendPickupSmsParams, NotificationsThis>({
      visibility: "public",
      schema: SendPickupSmsSchema,
      handler(ctx): Promise<{ smsQueued: boolean; messageId: string | null }> {
        const { requestId, organizationId, parcel } = ctx.params;
        // Called for a new PIN (a resend, an operator's reset): the SMS says the earlier code no longer works.
        return this.queuePickupSms(ctx, { eventId: requestId, organizationId, parcel, kind: "pickup_code_resend" });
      }
    }),

    // call notifications.sendRedirectCode --requestId <uuid> --organizationId <uuid> --parcelId <uuid> --trackingNumber RP… --code 123456 --validMinutes 10
    sendRedirectCode: defineAction<SendRedirectCodeParams, NotificationsThis>({
      visibility: "public",
      schema: SendRedirectCodeSchema,
      async handler(ctx): Promise<{ smsQueued: boolean }> {
        const { requestId, organizationId, parcelId, trackingNumber, code, validMinutes } = ctx.params;
        if (await store.findByEventId(this.db, requestId)) return { smsQueued: true };
        const contact = await recipientOf(ctx, parcelId);
        if (!contact?.phone) return { smsQueued: false };
        const sms = this.smsContext(contact.language);
        const message = await this.addressed(ctx, parcelId, contact.phone, {
          eventId: requestId,
          parcelId,
          organizationId,
          kind: "redirect_code",
          body: maskedRedirectCodeSms(sms, { trackingNumber, validMinutes }),
          bodyEnc: encryptField(composeRedirectCodeSms(sms, { trackingNumber, code, validMinutes }), this.encryptionKey),
          provider: this.provider.name
        });
        // Counted by the number as E.164, so that one phone typed two ways is one phone.
        const digest = phoneDigest(normaliseRecipientPhone(contact.phone).e164, this.encryptionKey);
        const stored = await insertCappedMessage(this.db, { ...message, phoneDigest: digest }, this.config.smsCodesPerPhonePerDay);
        if (!stored) {
          // Said to the operator, never to the visitor (the answer does not tell whether a number exists).
          this.logger.warn(`parcel ${parcelId}: redirect code not sent, its phone number had its daily quota of code SMS`);
          return { smsQueued: false };
        }
        if (stored.created) void this.worker.kick();
        return { smsQueued: stored.message.status !== "undeliverable" };
      }
    }),

    // call notifications.sendHandoverConfirmation --requestId <uuid> --organizationId <uuid> --parcelId <uuid> --trackingNumber RP… --relayCode DZ-… --handedOverAt 2026-12-06T10:00:00Z
    sendHandoverConfirmation: defineAction<SendHandoverConfirmationParams, NotificationsThis>({
      visibility: "public",
      schema: SendHandoverConfirmationSchema,
      async handler(ctx): Promise<{ smsQueued: boolean }> {
        const { requestId, organizationId, parcelId, trackingNumber, relayCode, handedOverAt } = ctx.params;
        if (await store.findByEventId(this.db, requestId)) return { smsQueued: true };
        const contact = await recipientOf(ctx, parcelId);
        if (!contact?.phone || !contact.passKey) return { smsQueued: false };
        const relay = await relayPointOf(ctx, relayCode);
        const sms = this.smsContext(contact.language);
        const text = (passKey: string) =>
          handoverConfirmationText(sms, { trackingNumber, relayName: relay.name ?? relay.code, handedOverAt, passKey });
        const message = await this.addressed(ctx, parcelId, contact.phone, {
          eventId: requestId,
          parcelId,
          organizationId,
          kind: "handover_confirmation",
          body: text(MASKED_PASS_KEY),
          bodyEnc: encryptField(text(contact.passKey), this.encryptionKey),
          provider: this.provider.name
        });
        const [stored] = await this.storeSms([message]);
        return { smsQueued: stored.message.status !== "undeliverable" };
      }
    }),

    // call notifications.runWorker
    runWorker: defineAction<unknown, NotificationsThis>({
      visibility: "public",
      handler(): Promise<WorkerPassResult> {
        return this.worker.runNow();
      }
    }),

    // call notifications.listMessages --parcelId <uuid>
    listMessages: defineAction<ParcelIdParams, NotificationsThis>({
      visibility: "public",
      schema: ParcelIdSchema,
      async handler(ctx): Promise<SmsMessageView[]> {
        const messages = await store.listByParcel(this.db, ctx.params.parcelId);
        return messages.map(m => publicView(m, this.encryptionKey));
      }
    })
  },

  methods: {
    /**
     * Stores one SMS (idempotent per eventId) and wakes the worker: the pick-up SMS, or a reminder
     * or expiry notice of the holding period. The PIN goes in the pick-up text as sent, which is
     * sealed; the stored plain copy has it masked.
     */
    async queuePickupSms(this: NotificationsThis, ctx: Context, request: PickupRequest) {
      const existing = await store.findByEventId(this.db, request.eventId);
      if (existing) return { smsQueued: true, messageId: existing.id };
      const message = await this.composeSms(ctx, request);
      if (!message) return { smsQueued: false, messageId: null };
      const [stored] = await this.storeSms([message]);
      return { smsQueued: true, messageId: stored.message.id };
    },

    /**
     * The outbox relay's hand-off: the SMS of every event that calls for one, stored with one
     * insert (idempotent per event id); events stored before are passed over without a call to
     * parcels.
     */
    async queueSmsBatch(this: NotificationsThis, ctx: Context, requests: PickupRequest[]) {
      const existing = await store.findByEventIds(
        this.db,
        requests.map(r => r.eventId)
      );
      const limit = pLimit(COMPOSE_CONCURRENCY);
      const composed = await Promise.all(requests.filter(r => !existing.has(r.eventId)).map(r => limit(() => this.composeSms(ctx, r))));
      const stored = await this.storeSms(composed.filter((m): m is store.NewSmsMessage => m !== null));
      return { queued: existing.size + stored.length };
    },

    /**
     * One message: the pick-up SMS, or a reminder or expiry notice of the holding period; null when
     * the recipient has no phone. The PIN goes in the pick-up text as sent, which is sealed; the
     * stored plain copy has it masked.
     */
    async composeSms(this: NotificationsThis, ctx: Context, request: PickupRequest): Promise<store.NewSmsMessage | null> {
      const parcel = request.parcel;
      const contact = await recipientOf(ctx, parcel.id);
      if (!contact || !contact.phone) {
        requestLogger(ctx, this.logger).warn(`parcel ${parcel.id} reached AT_RELAY but has no recipient phone: no pick-up SMS`);
        return null;
      }
      const relay = await relayPointOf(ctx, parcel.destinationRelayCode);
      const kind = request.kind ?? "pickup";
      const sms = this.smsContext(contact.language);
      const text = (pin: string | null, passKey: string | null) =>
        composeSms(
          kind,
          {
            trackingNumber: parcel.trackingNumber,
            relay,
            codAmountDzd: parcel.codAmountDzd,
            pin,
            pickupDeadline: request.deadline ?? parcel.pickupDeadline ?? null,
            passKey
          },
          sms
        );
      const pin = carriesPickupPin(kind) ? (contact.pickupPin ?? null) : (request.secret ?? null);
      // The link to the pickup pass opens it like the PIN does (issue 43): sealed with the text, masked in the stored copy.
      // A new code's SMS needs none: the first SMS's link shows the current pass.
      const passKey = kind === "pickup" && pin !== null ? (contact.passKey ?? null) : null;
      return this.addressed(ctx, parcel.id, contact.phone, {
        eventId: request.eventId,
        parcelId: parcel.id,
        organizationId: request.organizationId,
        kind,
        body: text(pin === null ? null : MASKED_PIN, passKey === null ? null : MASKED_PASS_KEY),
        bodyEnc: pin === null ? null : encryptField(text(pin, passKey), this.encryptionKey),
        provider: this.provider.name
      });
    },

    /**
     * The message addressed to the recipient's number as E.164 (issue 30). A number that cannot take
     * an SMS gets it recorded as undeliverable, never sent, and parcels writes
     * parcel.recipient_unreachable (once per parcel) before the message is stored: if parcels
     * cannot be reached, this throws and the event is handed over again later.
     */
    async addressed(
      this: NotificationsThis,
      ctx: Context,
      parcelId: string,
      phone: string,
      message: Omit<store.NewSmsMessage, "phoneEnc">
    ) {
      const number = normaliseRecipientPhone(phone);
      if (!number.mobile) {
        await call(ctx, "parcels.recipientUnreachable", { parcelId });
        requestLogger(ctx, this.logger).info(`${message.kind} SMS for parcel ${parcelId} not sent: ${maskPhone(phone)} cannot take SMS`);
      }
      return { ...message, phoneEnc: encryptField(number.e164, this.encryptionKey), undeliverable: !number.mobile };
    },

    smsContext(this: NotificationsThis, lang: Lang | undefined): SmsContext {
      return { lang: lang ?? DEFAULT_LANG, brand: this.config.brand.name, baseUrl: this.config.publicBaseUrl };
    },

    /** Stores messages (one insert) and wakes the worker when one is new. */
    async storeSms(this: NotificationsThis, messages: store.NewSmsMessage[]) {
      const stored = await store.insertMessages(this.db, messages);
      for (const { message, created } of stored) {
        if (created) this.logger.info(`${message.kind} SMS ${message.id} queued for parcel ${message.parcelId}`);
      }
      if (stored.some(s => s.created)) void this.worker.kick();
      return stored;
    },

    async workerPass(this: NotificationsThis): Promise<WorkerPassResult> {
      const result: WorkerPassResult = { claimed: 0, sent: 0, retried: 0, failed: 0, notified: 0, notifyRetried: 0 };
      const claimed = await store.claimDue(this.db, this.settings.batchSize, this.settings.leaseMs);
      result.claimed = claimed.length;
      const outcomes = await Promise.all(claimed.map(m => this.processClaimed(m)));
      for (const outcome of outcomes) {
        if (outcome === "sent+notified") {
          result.sent += 1;
          result.notified += 1;
        } else if (outcome === "sent") result.sent += 1;
        else if (outcome === "retried") result.retried += 1;
        else if (outcome === "failed") result.failed += 1;
        else if (outcome === "notified") result.notified += 1;
        else if (outcome === "notify-retried") result.notifyRetried += 1;
      }
      return result;
    },

    async processClaimed(this: NotificationsThis, message: store.SmsMessage): Promise<Outcome> {
      try {
        if (message.status === "sent" && !carriesPickupPin(message.kind)) {
          await store.markNotified(this.db, message, null);
          return "notified";
        }
        if (message.status === "sent") return await this.notifyParcel(message);
        return await this.sendClaimed(message);
      } catch (err) {
        // A database hiccup while recording the outcome: the lease brings the row back later.
        this.logger.warn(`SMS ${message.id}: could not record the outcome (${errorMessage(err)}); retried after the lease`);
        return "lease-lost";
      }
    },

    async sendClaimed(this: NotificationsThis, message: store.SmsMessage): Promise<Outcome> {
      const maxAttempts = this.settings.retryDelaysMs.length + 1;
      if (message.attempts > maxAttempts) {
        await store.markFailed(this.db, message, "out of attempts (a worker stopped during the last one)");
        return "failed";
      }
      let phone: string;
      let body: string;
      try {
        phone = decryptField(message.phoneEnc, this.encryptionKey);
        body = message.bodyEnc === null ? message.body : decryptField(message.bodyEnc, this.encryptionKey);
      } catch {
        await store.markFailed(this.db, message, "the phone number or text cannot be decrypted with the current ENCRYPTION_KEY");
        return "failed";
      }
      try {
        const sent = await this.provider.send({ id: message.id, to: phone, body }).catch(err => {
          countMetric(this.broker, RELAY_METRICS.smsFailed, { provider: this.provider.name });
          throw err;
        });
        countMetric(this.broker, RELAY_METRICS.smsSent, { provider: this.provider.name });
        if (!(await store.markSent(this.db, message, { provider: this.provider.name, providerMessageId: sent.providerMessageId }))) {
          return "lease-lost";
        }
      } catch (err) {
        const reason = err instanceof SmsSendError ? err.message : `SMS provider error: ${errorMessage(err)}`;
        const permanent = err instanceof SmsSendError && err.permanent;
        const delay = permanent ? null : smsRetryDelayMs(message.attempts, this.settings.retryDelaysMs);
        if (delay === null) {
          await store.markFailed(this.db, message, reason);
          this.logger.warn(`pick-up SMS ${message.id} (parcel ${message.parcelId}) failed after ${message.attempts} attempt(s): ${reason}`);
          return "failed";
        }
        await store.scheduleSendRetry(this.db, message, reason, delay);
        this.logger.info(`pick-up SMS ${message.id} attempt ${message.attempts} failed (${reason}); next try in ${delay} ms`);
        return "retried";
      }
      // Only an SMS with the pick-up PIN moves the parcel on; a notice owes it nothing once sent.
      if (!carriesPickupPin(message.kind)) {
        await store.markNotified(this.db, message, null);
        return "sent";
      }
      const notified = await this.notifyParcel(message);
      return notified === "notified" ? "sent+notified" : "sent";
    },

    /**
     * Asks parcels for AT_RELAY → RELAY_NOTIFIED until it answers. A parcel already past AT_RELAY
     * (delivered meanwhile, or moved by an operator) is an answer too: nothing more is owed.
     */
    async notifyParcel(this: NotificationsThis, message: store.SmsMessage): Promise<"notified" | "notify-retried"> {
      try {
        await call(this.broker, "parcels.markRelayNotified", { parcelId: message.parcelId, reason: RELAY_NOTIFIED_REASON });
        await store.markNotified(this.db, message, null);
        return "notified";
      } catch (err) {
        const code = errorCodeOf(err);
        if (code === "INVALID_TRANSITION" || code === "PARCEL_NOT_FOUND") {
          await store.markNotified(this.db, message, `parcel not moved to RELAY_NOTIFIED: ${errorMessage(err)}`);
          return "notified";
        }
        const delay = notifyRetryDelayMs(message.notifyAttempts, this.settings.notifyRetryBaseMs);
        await store.scheduleNotifyRetry(this.db, message, `parcels.markRelayNotified failed: ${errorMessage(err)}`, delay);
        this.logger.warn(
          `SMS ${message.id} sent but parcel ${message.parcelId} not yet RELAY_NOTIFIED (${errorMessage(err)}); next try in ${delay} ms`
        );
        return "notify-retried";
      }
    }
  },

  created() {
    this.worker = new BackgroundLoop(
      () => this.workerPass(),
      this.settings.workerIntervalMs,
      err => this.logger.warn(`SMS worker pass failed: ${errorMessage(err)}`)
    );
    this.retention = retentionLoop(
      async batch =>
        Math.max(
          await eraseOldSms(this.db, this.encryptionKey, this.config.piiRetentionDays, batch),
          await pruneErasedSms(this.db, this.config.smsLogRetentionDays, batch)
        ),
      err => this.logger.warn(`SMS erasure pass failed: ${errorMessage(err)}`)
    );
  },

  // Runs after DbMixin's started: the schema is migrated when the worker begins.
  started() {
    const config = this.config;
    this.encryptionKey = requireSecret(config, "encryptionKey");
    // Fails at start, not at the first SMS, when the key has the wrong shape.
    encryptField("check", this.encryptionKey);
    this.provider = createSmsProvider(config.sms, this.logger, config.dataDir);
    this.worker.start();
    this.retention.start();
  },

  // Runs before DbMixin's stopped: the pass in flight finishes while the database is still open.
  async stopped() {
    await Promise.all([this.worker.stop(), this.retention.stop()]);
  }
};

/** The recipient, or null when parcels says the parcel does not exist (nothing to notify). */
async function recipientOf(
  ctx: Context,
  parcelId: string
): Promise<{ name: string; phone: string; pickupPin?: string | null; language?: Lang; passKey?: string | null } | null> {
  try {
    return await call(ctx, "parcels.recipientContact", { parcelId });
  } catch (err) {
    if (errorCodeOf(err) === "PARCEL_NOT_FOUND") return null;
    throw err;
  }
}

/** A relay point missing from the directory still gets an SMS, with its code only. */
async function relayPointOf(ctx: Context, code: string): Promise<RelayPointInfo> {
  try {
    const point = await call(ctx, "parcels.relayPoint", { code });
    return {
      code: point.code ?? code,
      name: point.name ?? null,
      nameAr: point.nameAr ?? null,
      city: point.city ?? null,
      address: point.address ?? null
    };
  } catch (err) {
    const known = errorCodeOf(err);
    if (known === "RELAY_NOT_FOUND" || known === "NOT_FOUND") return { code, name: null, nameAr: null, city: null, address: null };
    throw err;
  }
}

export default NotificationsService;
