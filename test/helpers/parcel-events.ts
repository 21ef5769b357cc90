import { randomUUID } from "node:crypto";
import type { ParcelEvent } from "../../lib/events";

/** A parcel event as the parcels outbox hands it to webhooks.enqueue, for tests that feed the webhooks service directly. */
export function makeParcelEvent(
  organizationId: string,
  options: { parcelId?: string; type?: string; mode?: "live" | "sandbox"; sequence?: number } = {}
): ParcelEvent {
  const now = new Date().toISOString();
  const mode = options.mode ?? "live";
  return {
    id: randomUUID(),
    type: (options.type ?? "parcel.created") as ParcelEvent["type"],
    createdAt: now,
    occurredAt: now,
    sequence: options.sequence ?? 1,
    organizationId,
    mode,
    sandbox: mode === "sandbox",
    reason: mode === "sandbox" ? "testing the integration" : null,
    data: {
      previousStatus: null,
      parcel: {
        id: options.parcelId ?? randomUUID(),
        trackingNumber: "RP123456785DZ",
        status: "CREATED",
        destinationRelayCode: "DZ-ALG-0042",
        labelUrl: null,
        pricePaidDzd: 450,
        codAmountDzd: 2500,
        insuredValueDzd: 5000,
        codStatus: "PENDING",
        codCashAt: null,
        pickupDeadline: null,
        returnFeeDzd: null,
        direction: "OUTBOUND",
        returnOf: null,
        createdAt: now,
        updatedAt: now
      }
    }
  };
}

/** Probes until `done` holds, or fails after `timeoutMs` showing the last value. */
export async function waitFor<T>(probe: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value).slice(0, 1000)}`);
    await new Promise(resolve => setTimeout(resolve, 25));
  }
}

/**
 * Waits until a gateway routes the webhooks service's back-office calls: its readiness covers
 * auth, wallet and parcels, and the webhooks routes may come a moment later.
 */
export async function waitForWebhookRoutes(baseUrl: string, backofficeToken: string): Promise<void> {
  await waitFor(
    () =>
      fetch(`${baseUrl}/api/backoffice/v1/organizations/${randomUUID()}/webhook-deliveries`, {
        headers: { Authorization: `Bearer ${backofficeToken}` }
      }).then(r => r.status),
    status => status === 200
  );
}
