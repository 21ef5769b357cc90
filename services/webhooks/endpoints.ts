import { randomUUID } from "node:crypto";
import { call, Caller } from "../../lib/contract";
import { decryptField, encryptField } from "../../lib/crypto";
import { AppError } from "../../lib/errors";
import { assertPublicWebhookUrl } from "./ssrf";
import { generateWebhookSecret, rotateWebhookSecret, standardWebhooksSecretOf } from "./signing";
import { endpointView, WebhooksContext } from "./webhook-context";
import type {
  CreateEndpointParams,
  EndpointIdParams,
  EndpointView,
  EndpointWithSecret,
  RotateSecretParams,
  SetEndpointParams,
  UpdateEndpointParams
} from "./webhooks.params";
import * as store from "./webhooks.store";

/** The back-office's management of an organisation's webhook endpoints and their secrets. */

/** Enough for a shop, its ERP and a few tools; each endpoint multiplies every event's deliveries. */
export const MAX_ENDPOINTS_PER_ORGANIZATION = 20;

export const endpointNotFound = () => new AppError("WEBHOOK_ENDPOINT_NOT_FOUND", "Webhook endpoint not found");

async function viewOf(context: WebhooksContext, endpoint: store.Endpoint): Promise<EndpointView> {
  const secrets = await store.secretsOf(context.db, [endpoint.id]);
  return endpointView(endpoint, secrets.get(endpoint.id) ?? [], context.now());
}

function withSecret(view: EndpointView, secret: string): EndpointWithSecret {
  return { ...view, secret, standardWebhooksSecret: standardWebhooksSecretOf(secret) };
}

/** One endpoint of the organisation, or 404 (another organisation's endpoint is not found either). */
export async function endpointOrNotFound(
  context: WebhooksContext,
  { organizationId, endpointId }: EndpointIdParams
): Promise<store.Endpoint> {
  const endpoint = await store.findEndpoint(context.db, organizationId, endpointId);
  if (!endpoint) throw endpointNotFound();
  return endpoint;
}

/** The single-URL call of the back-office: the organisation's default endpoint, its URL and its one secret. */
export async function setDefaultEndpoint(context: WebhooksContext, caller: Caller, params: SetEndpointParams): Promise<{ url: string }> {
  const { organizationId, url, secret } = params;
  await assertPublicWebhookUrl(url, context.config.webhookAllowPrivate);
  await call(caller, "auth.getOrganization", { organizationId });
  await store.setDefaultEndpoint(context.db, {
    id: randomUUID(),
    organizationId,
    url,
    secretEnc: encryptField(secret, context.encryptionKey),
    now: context.now()
  });
  return { url };
}

export async function createEndpoint(context: WebhooksContext, caller: Caller, params: CreateEndpointParams): Promise<EndpointWithSecret> {
  const { organizationId, url } = params;
  await assertPublicWebhookUrl(url, context.config.webhookAllowPrivate);
  await call(caller, "auth.getOrganization", { organizationId });
  if ((await store.countEndpoints(context.db, organizationId)) >= MAX_ENDPOINTS_PER_ORGANIZATION) {
    throw new AppError("CONFLICT", `An organisation has at most ${MAX_ENDPOINTS_PER_ORGANIZATION} webhook endpoints`);
  }
  const secret = params.secret ?? generateWebhookSecret();
  const endpoint = await store.insertEndpoint(context.db, {
    id: randomUUID(),
    organizationId,
    url,
    description: params.description,
    mode: params.mode,
    eventTypes: params.eventTypes,
    enabled: params.enabled,
    secretEnc: encryptField(secret, context.encryptionKey),
    now: context.now()
  });
  return withSecret(await viewOf(context, endpoint), secret);
}

export async function listEndpoints(context: WebhooksContext, organizationId: string): Promise<EndpointView[]> {
  const endpoints = await store.listEndpoints(context.db, organizationId);
  const secrets = await store.secretsOf(
    context.db,
    endpoints.map(e => e.id)
  );
  return endpoints.map(e => endpointView(e, secrets.get(e.id) ?? [], context.now()));
}

export async function getEndpoint(context: WebhooksContext, params: EndpointIdParams): Promise<EndpointView> {
  return viewOf(context, await endpointOrNotFound(context, params));
}

/** Changes what was given, keeps the rest; `enabled: true` also forgets the failing streak. */
export async function updateEndpoint(context: WebhooksContext, params: UpdateEndpointParams): Promise<EndpointView> {
  if (params.url !== undefined) await assertPublicWebhookUrl(params.url, context.config.webhookAllowPrivate);
  const updated = await context.db.transaction(async tx => {
    const current = await store.findEndpoint(tx, params.organizationId, params.endpointId, { forUpdate: true });
    if (!current) throw endpointNotFound();
    return store.updateEndpoint(tx, current, {
      url: params.url ?? current.url,
      description: params.description === undefined ? current.description : params.description,
      mode: params.mode ?? current.mode,
      eventTypes: params.eventTypes === undefined ? current.eventTypes : params.eventTypes,
      enabled: params.enabled ?? current.disabledAt === null
    });
  });
  return viewOf(context, updated);
}

export async function deleteEndpoint(context: WebhooksContext, params: EndpointIdParams): Promise<void> {
  if (!(await store.deleteEndpoint(context.db, params.organizationId, params.endpointId))) throw endpointNotFound();
}

/**
 * A new secret for the endpoint (generated unless given). For `overlapSeconds` every delivery is
 * signed with it and with the previous ones, so that the merchant can deploy it without a single
 * delivery failing; then the previous ones expire (signing/rotation.ts).
 */
export async function rotateSecret(context: WebhooksContext, params: RotateSecretParams): Promise<EndpointWithSecret> {
  const secret = params.secret ?? generateWebhookSecret();
  const now = context.now();
  const endpoint = await context.db.transaction(async tx => {
    const current = await store.findEndpoint(tx, params.organizationId, params.endpointId, { forUpdate: true });
    if (!current) throw endpointNotFound();
    const stored = (await store.secretsOf(tx, [current.id])).get(current.id) ?? [];
    const decrypted = stored.map(s => ({
      secret: decryptField(s.secretEnc, context.encryptionKey),
      expiresAt: s.expiresAt,
      createdAt: s.createdAt
    }));
    const createdAt = new Map(decrypted.map(s => [s.secret, s.createdAt]));
    const next = rotateWebhookSecret(decrypted, secret, now, params.overlapSeconds * 1000);
    await store.replaceSecrets(
      tx,
      current.id,
      next.map(s => ({
        secretEnc: encryptField(s.secret, context.encryptionKey),
        createdAt: s.secret === secret ? now : (createdAt.get(s.secret) ?? now),
        expiresAt: s.expiresAt === null ? null : new Date(s.expiresAt)
      }))
    );
    return current;
  });
  return withSecret(await viewOf(context, endpoint), secret);
}
