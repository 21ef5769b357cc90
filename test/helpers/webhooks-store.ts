import { randomUUID } from "node:crypto";
import type { Database } from "../../lib/db/database";
import * as store from "../../services/webhooks/webhooks.store";

/** An enabled endpoint taking every event of the organisation, written straight into the store; answers its id. */
export async function addTestEndpoint(db: Database, organizationId: string, url = "http://127.0.0.1:9/"): Promise<string> {
  const id = randomUUID();
  await store.insertEndpoint(db, {
    id,
    organizationId,
    url,
    description: null,
    mode: "both",
    eventTypes: null,
    enabled: true,
    secretEnc: "v1:x",
    now: new Date()
  });
  return id;
}

/** Every stored live event of the organisation, in feed order. */
export async function storedFeed(db: Database, organizationId: string): Promise<store.StoredEvent[]> {
  return store.listEvents(db, { organizationId, mode: "live", after: null, type: null, parcelId: null, limit: 1000, retentionDays: 30 });
}
