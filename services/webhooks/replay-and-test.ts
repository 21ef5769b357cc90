import { randomUUID } from "node:crypto";
import { AppError } from "../../lib/errors";
import { pingBodyOf } from "../../lib/events";
import { endpointOrNotFound } from "./endpoints";
import { signingSecrets, WebhooksContext } from "./webhook-context";
import { sendWebhook } from "./webhook-sender";
import type { EndpointIdParams, ReplayAnswer, ReplayParams, TestSendAnswer } from "./webhooks.params";
import * as store from "./webhooks.store";

/** Recovering from an outage (replay) and checking an endpoint (test-send), from the back-office. */

/** How much of a test answer's body is shown. */
export const TEST_RESPONSE_BYTES = 1024;

/**
 * Queues again every event of the endpoint since `since` (all, or only those not delivered); the
 * worker sends them at once, each with its original event id. A disabled endpoint must be enabled
 * first: its deliveries would only be skipped again.
 */
export async function replay(context: WebhooksContext, params: ReplayParams): Promise<ReplayAnswer> {
  const endpoint = await endpointOrNotFound(context, params);
  if (endpoint.disabledAt) {
    throw new AppError("WEBHOOK_ENDPOINT_DISABLED", "The webhook endpoint is disabled: enable it before replaying its events");
  }
  const since = new Date(params.since);
  const queued = await store.replay(context.db, { endpoint, since, only: params.only });
  return { endpointId: endpoint.id, since: since.toISOString(), only: params.only, queued };
}

/**
 * Sends one `ping` event to the endpoint now, signed like every delivery, and answers what came
 * back: status, time, the first bytes of the body. Works on a disabled endpoint too (to check it
 * before enabling it again); nothing is stored, retried or disabled.
 */
export async function testSend(context: WebhooksContext, params: EndpointIdParams): Promise<TestSendAnswer> {
  const endpoint = await endpointOrNotFound(context, params);
  const secrets = (await signingSecrets(context, [endpoint.id])).get(endpoint.id) ?? [];
  const now = context.now();
  const event = pingBodyOf({ id: randomUUID(), endpointId: endpoint.id, at: now, sandbox: endpoint.mode === "sandbox" });
  const deliveryId = randomUUID();
  const result = await sendWebhook({
    url: endpoint.url,
    body: JSON.stringify(event),
    eventType: event.type,
    deliveryId,
    secrets,
    now,
    timeoutMs: context.config.webhookTimeoutMs,
    allowPrivate: context.config.webhookAllowPrivate,
    responseBytes: TEST_RESPONSE_BYTES
  });
  context.logger.info(`webhook endpoint ${endpoint.id}: test event sent (${result.error ?? `HTTP ${result.statusCode}`})`);
  const code = result.statusCode;
  return {
    eventId: event.id,
    deliveryId,
    succeeded: code !== null && code >= 200 && code < 300,
    statusCode: code,
    latencyMs: Math.max(0, Math.round(result.durationMs)),
    responseBody: result.responseExcerpt ?? null,
    error: result.error
  };
}
