import { Client } from "pg";
import { checkMoneyInvariant } from "../../test/helpers/money-invariant";
import type { ReceivedRequest } from "../../test/helpers/receivers";
import { relayViolations, webhookViolations } from "./deliveries";
import type { CreateRecord } from "./load";
import type { RelayRecord } from "./relay";

/** What must hold after the run (issue 46): each a name and its violations. */
export async function checkInvariants(
  databaseUrl: string,
  orgId: string,
  creates: CreateRecord[],
  /** The relay counter's operations and the endpoint's deliveries, when the run had them (the CI test has neither). */
  run?: { relay: RelayRecord[]; webhooks: ReceivedRequest[] }
): Promise<Array<[string, string[]]>> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows: parcels } = await db.query<{ id: string; key: string | null; status: string }>(
      "SELECT id, idempotency_key AS key, status FROM parcels.parcels WHERE organization_id = $1 AND mode = 'live'",
      [orgId]
    );
    const byId = new Map(parcels.map(p => [p.id, p]));
    const perKey = new Map<string, number>();
    for (const p of parcels) if (p.key) perKey.set(p.key, (perKey.get(p.key) ?? 0) + 1);

    const acknowledged = creates.filter(c => c.parcelId !== null);
    const lost = acknowledged.filter(c => !byId.has(c.parcelId!)).map(c => `201 ${c.parcelId} (key ${c.key}) not in the database`);
    const wrongKey = acknowledged
      .filter(c => byId.get(c.parcelId!)?.key !== c.key && byId.has(c.parcelId!))
      .map(c => `201 ${c.parcelId} under another key`);
    const doubled = [...perKey].filter(([, n]) => n > 1).map(([key, n]) => `key ${key}: ${n} parcels`);
    const retried = creates.filter(c => c.statuses.length > 1);
    const retriedTwice = retried
      .filter(c => (perKey.get(c.key) ?? 0) > 1)
      .map(c => `retried key ${c.key} made ${perKey.get(c.key)} parcels`);

    // Money (DESIGN §3), the project's own check: balance = movements per account, every un-refunded debit one visible parcel.
    const money = await checkMoneyInvariant(databaseUrl);
    const { rows: missingEvents } = await db.query<{ id: string }>(
      `SELECT p.id FROM parcels.parcels p WHERE p.organization_id = $1 AND p.mode = 'live' AND p.status NOT IN ('PENDING')
         AND NOT EXISTS (SELECT 1 FROM parcels.outbox o WHERE o.parcel_id = p.id)`,
      [orgId]
    );
    const { rows: undispatched } = await db.query<{ n: string }>(
      "SELECT COUNT(*)::text AS n FROM parcels.outbox WHERE organization_id = $1 AND dispatched_at IS NULL",
      [orgId]
    );
    return [
      ["every 201 exists, under its key", [...lost, ...wrongKey]],
      ["one parcel per Idempotency-Key (retried keys included)", [...doubled, ...retriedTwice]],
      ["money invariant, to the centime, every wallet", money.violations],
      ["every parcel's events in the outbox", missingEvents.map(m => `parcel ${m.id}`)],
      ["the outbox drained (every event dispatched)", undispatched[0].n === "0" ? [] : [`${undispatched[0].n} events not dispatched`]],
      ...(run
        ? ([
            ["every status change's webhook delivered once (one webhook-id per event)", await webhookViolations(db, orgId, run.webhooks)],
            ["no acknowledged arrival or hand-over missing", await relayViolations(db, run.relay)]
          ] as Array<[string, string[]]>)
        : [])
    ];
  } finally {
    await db.end();
  }
}
