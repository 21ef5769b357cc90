import { randomUUID } from "node:crypto";
import pLimit from "p-limit";
import { call } from "../../lib/contract";
import { ParcelEvent, parcelOf, webhookBodyOf, withFreshLabelUrl } from "../../lib/events";
import { countWebhookAttempt } from "../../lib/metrics";
import { delayAfterResponse, shouldDisableEndpoint } from "./retry-schedule";
import { endpointDisabledNotice, type EndpointSecret } from "./signing";
import { freshLabelUrls } from "../../mixins/label-urls";
import { signingSecrets, WebhooksContext } from "./webhook-context";
import { AttemptResult, sendWebhook } from "./webhook-sender";
import * as store from "./webhooks.store";

/**
 * The delivery worker: claims due deliveries, sends each one attempt, records the outcome, keeps
 * each endpoint's failing streak and disables an endpoint that answers 410 or has failed for 5
 * days (with a notice for the merchant). Never logged: secrets, URLs, payloads.
 */

export interface WorkerSettings {
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

export interface Worker extends WebhooksContext {
  settings: WorkerSettings;
  stopping: () => boolean;
}

const disabledReason = (endpoint: store.Endpoint) =>
  `webhook endpoint disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}`;
const FAILING_FOR_DAYS = "failing for 5 days";

/** One pass: batches of due deliveries until none is due (or the pass's bound); answers the HTTP attempts made. */
export async function workerPass(worker: Worker): Promise<number> {
  let attempts = 0;
  const leaseMs = worker.config.webhookTimeoutMs + worker.settings.leaseMarginMs;
  for (let i = 0; i < worker.settings.maxBatchesPerPass && !worker.stopping(); i++) {
    const batch = await store.claimDue(worker.db, { limit: worker.settings.batchSize, leaseMs });
    if (batch.length === 0) break;
    attempts += await sendBatch(worker, batch);
  }
  return attempts;
}

/** An attempt made, waiting to be recorded with the rest of its batch. */
interface Sent {
  delivery: store.ClaimedDelivery;
  endpoint: store.Endpoint;
  result: AttemptResult;
  outcome: store.AttemptOutcome;
}

/**
 * Sends a claimed batch (at most `concurrency` requests in flight), then records every outcome in
 * one statement and follows each endpoint's health once per batch. The payload's parcel view gets
 * a label URL valid from this attempt on (a stored one would have expired by the later retries);
 * null when the labels service cannot answer, as in the API.
 */
async function sendBatch(worker: Worker, batch: store.ClaimedDelivery[]): Promise<number> {
  const endpointIds = [...new Set(batch.map(d => d.endpointId))];
  const [endpoints, secrets, labelUrls] = await Promise.all([
    store.findEndpointsByIds(worker.db, endpointIds),
    signingSecrets(worker, endpointIds),
    freshLabelUrls(
      worker.broker,
      worker.broker,
      batch.flatMap(d => parcelOf(d.event)?.id ?? [])
    )
  ]);
  const limit = pLimit(worker.settings.concurrency);
  const sent = await Promise.all(
    batch.map(delivery =>
      limit(async (): Promise<Sent | null> => {
        try {
          const event: ParcelEvent = withFreshLabelUrl(delivery.event, labelUrls);
          return await sendOne(worker, { ...delivery, event }, endpoints.get(delivery.endpointId), secrets.get(delivery.endpointId) ?? []);
        } catch (err) {
          // The lease runs out and the delivery is tried again: nothing is lost.
          worker.logger.error(`webhook delivery ${delivery.id}: ${(err as Error).message}`);
          return null;
        }
      })
    )
  );
  const attempts = sent.filter((s): s is Sent => s !== null);
  if (attempts.length === 0) return 0;
  const numbers = await store.recordAttempts(
    worker.db,
    attempts.map(({ delivery, result, outcome }) => ({
      claim: { id: delivery.id, leaseToken: delivery.leaseToken as string },
      attempt: { ...result, worker: worker.broker.nodeID },
      outcome
    }))
  );
  for (const { delivery, endpoint, result, outcome } of attempts)
    logAttempt(worker, delivery, endpoint, result, outcome, numbers.get(delivery.id) ?? null);
  const recorded = attempts.filter(a => (numbers.get(a.delivery.id) ?? null) !== null);
  await Promise.all(
    [...groupBy(recorded, a => a.endpoint.id).values()].map(group =>
      followEndpointHealth(
        worker,
        group[0].endpoint,
        group.map(a => a.result)
      ).catch(err => worker.logger.error(`webhook endpoint ${group[0].endpoint.id}: ${(err as Error).message}`))
    )
  );
  return attempts.length;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** The delivery's state after an attempt, from the answer and the retry schedule. */
function outcomeOf(worker: Worker, delivery: store.Delivery, result: AttemptResult): store.AttemptOutcome {
  const code = result.statusCode;
  if (code !== null && code >= 200 && code < 300) return { status: "delivered" };
  if (code === 410) return { status: "failed" };
  const attemptsInRound = delivery.attempts + 1 - delivery.roundStart;
  const delay = delayAfterResponse(attemptsInRound, code, result.retryAfter, worker.now().getTime());
  return delay === null ? { status: "failed" } : { status: "pending", delayMs: delay * worker.settings.retryDelayScale };
}

/** One attempt of one claimed delivery: the attempt to record, or null when none was made (endpoint disabled or gone). */
async function sendOne(
  worker: Worker,
  delivery: store.ClaimedDelivery,
  endpoint: store.Endpoint | undefined,
  secrets: EndpointSecret[]
): Promise<Sent | null> {
  const claim = { id: delivery.id, leaseToken: delivery.leaseToken as string };
  if (!endpoint || endpoint.disabledAt) {
    // Disabled between enqueue and now: kept as skipped (a replay sends it), nothing sent.
    await store.markSkipped(worker.db, claim, endpoint ? disabledReason(endpoint) : "webhook endpoint deleted");
    return null;
  }
  const result = await sendWebhook({
    url: endpoint.url,
    body: JSON.stringify(webhookBodyOf(delivery.event)),
    eventType: delivery.eventType,
    deliveryId: delivery.id,
    secrets,
    now: worker.now(),
    timeoutMs: worker.config.webhookTimeoutMs,
    allowPrivate: worker.config.webhookAllowPrivate
  });
  countWebhookAttempt(worker.broker, result.statusCode);
  return { delivery, endpoint, result, outcome: outcomeOf(worker, delivery, result) };
}

function logAttempt(
  worker: Worker,
  delivery: store.Delivery,
  endpoint: store.Endpoint,
  result: AttemptResult,
  outcome: store.AttemptOutcome,
  attemptNo: number | null
): void {
  const what = `webhook delivery ${delivery.id} (${delivery.eventType}, endpoint ${endpoint.id})`;
  if (attemptNo === null) {
    worker.logger.warn(`${what}: lease lost before the answer was recorded; another worker retries it`);
  } else if (outcome.status === "failed") {
    worker.logger.warn(`${what}: failed after attempt ${attemptNo} (${result.error})`);
  } else if (outcome.status === "pending") {
    worker.logger.info(`${what}: attempt ${attemptNo} unsuccessful (${result.error}), next in ${Math.round(outcome.delayMs / 1000)} s`);
  } else {
    worker.logger.debug(`${what}: delivered on attempt ${attemptNo}`);
  }
}

/**
 * The endpoint's failing streak after a batch's attempts; 410 Gone disables it at once, 5 days of
 * failures disable it with a notice for the merchant (Standard Webhooks: tell them by another
 * channel). Its deliveries stay, for a replay once it is enabled again. The batch counts as its
 * latest success, then its earliest failure after that success: the streak that recording every
 * attempt one by one would leave, in two updates at most.
 */
async function followEndpointHealth(worker: Worker, endpoint: store.Endpoint, results: AttemptResult[]): Promise<void> {
  const succeededAt = (r: AttemptResult) => r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
  const successes = results.filter(succeededAt).map(r => r.startedAt.getTime());
  const lastSuccess = successes.length > 0 ? Math.max(...successes) : null;
  const failures = results.filter(r => !succeededAt(r) && (lastSuccess === null || r.startedAt.getTime() > lastSuccess));
  const firstFailure = failures.reduce<AttemptResult | null>((a, r) => (a === null || r.startedAt < a.startedAt ? r : a), null);
  let streak: Awaited<ReturnType<typeof store.recordEndpointOutcome>> = null;
  if (lastSuccess !== null) streak = await store.recordEndpointOutcome(worker.db, endpoint.id, true, new Date(lastSuccess));
  if (firstFailure) streak = await store.recordEndpointOutcome(worker.db, endpoint.id, false, firstFailure.startedAt);
  if (results.some(r => r.statusCode === 410)) {
    if (await store.disableEndpoint(worker.db, endpoint.id, "410 Gone answered")) {
      worker.logger.warn(`webhook endpoint ${endpoint.id}: answered 410 Gone; disabled until it is enabled again`);
    }
    return;
  }
  if (!firstFailure || !streak || !shouldDisableEndpoint(streak.firstFailureAt, streak.lastSuccessAt, worker.now())) return;
  if (!(await store.disableEndpoint(worker.db, endpoint.id, FAILING_FOR_DAYS))) return;
  worker.logger.warn(`webhook endpoint ${endpoint.id}: no success for 5 days; disabled, notice written`);
  const organizationName = await call(worker.broker, "auth.getOrganization", { organizationId: endpoint.organizationId }).then(
    org => org.name,
    () => ""
  );
  const notice = endpointDisabledNotice({
    organizationName,
    brandName: worker.config.brand.name,
    endpointUrl: endpoint.url,
    firstFailureAt: streak.firstFailureAt!,
    disabledAt: worker.now(),
    lastError: failures.reduce((a, r) => (r.startedAt > a.startedAt ? r : a)).error,
    undeliveredCount: await store.countUndelivered(worker.db, endpoint.id)
  });
  await store.insertNotice(worker.db, {
    id: randomUUID(),
    organizationId: endpoint.organizationId,
    endpointId: endpoint.id,
    kind: notice.kind,
    language: notice.language,
    subject: notice.subject,
    body: notice.text
  });
}
