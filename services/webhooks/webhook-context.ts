import type { Logger, ServiceBroker } from "moleculer";
import type { AppConfig } from "../../lib/config";
import { decryptField } from "../../lib/crypto";
import type { Database } from "../../lib/db/database";
import type { EndpointSecret } from "./signing";
import type { EndpointView } from "./webhooks.params";
import * as store from "./webhooks.store";

/** What the webhooks service's modules work with: its database, key, clock and configuration. */
export interface WebhooksContext {
  db: Database;
  broker: ServiceBroker;
  logger: Logger;
  config: AppConfig;
  encryptionKey: string;
  /** The service's clock: when attempts happen, when secrets expire, how long an endpoint has failed. Tests move it. */
  now: () => Date;
}

/** Each endpoint's secrets, decrypted, with their expiry (whether they still sign is judged at the attempt). */
export async function signingSecrets(context: WebhooksContext, endpointIds: string[]): Promise<Map<string, EndpointSecret[]>> {
  const stored = await store.secretsOf(context.db, endpointIds);
  return new Map(
    [...stored].map(([id, secrets]) => [
      id,
      secrets.map(s => ({ secret: decryptField(s.secretEnc, context.encryptionKey), expiresAt: s.expiresAt }))
    ])
  );
}

/** An endpoint as the back-office shows it: the secrets that still sign, by date only, never their values. */
export function endpointView(endpoint: store.Endpoint, secrets: store.StoredSecret[], now: Date): EndpointView {
  return {
    id: endpoint.id,
    organizationId: endpoint.organizationId,
    url: endpoint.url,
    description: endpoint.description,
    mode: endpoint.mode,
    eventTypes: endpoint.eventTypes,
    enabled: endpoint.disabledAt === null,
    isDefault: endpoint.isDefault,
    disabledAt: endpoint.disabledAt,
    disabledReason: endpoint.disabledReason,
    failingSince: endpoint.firstFailureAt,
    lastSuccessAt: endpoint.lastSuccessAt,
    secrets: secrets
      .filter(s => s.expiresAt === null || s.expiresAt.getTime() > now.getTime())
      .map(s => ({ createdAt: s.createdAt.toISOString(), expiresAt: s.expiresAt === null ? null : s.expiresAt.toISOString() })),
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt
  };
}
