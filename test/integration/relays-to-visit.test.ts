import { randomUUID } from "node:crypto";
import type { Database } from "../../lib/db/database";
import * as custody from "../../services/parcels/cash/cash-custody";
import { relaysToVisitIn } from "../../services/parcels/network/network.store";
import { closeTill } from "../../services/parcels/relay/till";
import { migratedForSuite, openThrowAwayPglite, openThrowAwayPostgres, ThrowAwayDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Issue 45: the relay points of a wilaya a courier's run visits for their returns and cash alone
 * (`parcels.relaysToVisit`), read in SQL on both engines: each rule that keeps a point in, or out.
 */

const ORG = randomUUID();
let trackingSerial = 300_000_000;

async function relay(db: Database, wilaya: string): Promise<string> {
  const code = `DZ-${wilaya}-VISIT-${randomUUID().slice(0, 6).toUpperCase()}`;
  await db.query("INSERT INTO parcels.relay_points (code, name, city, wilaya) VALUES ($1, 'Visit test', 'Alger', $2)", [code, wilaya]);
  return code;
}

/** A return refused at `relayCode` an hour ago, of `mode`; `takenBy` a courier or a hub since, or nobody. */
async function returnAt(db: Database, relayCode: string, mode: "live" | "sandbox", takenBy: "courier" | "hub" | null = null) {
  await db.query(
    `INSERT INTO parcels.parcels (id, organization_id, mode, tracking_number, status, destination_relay_code, recipient_name_enc,
       recipient_phone_enc, weight_g, price_centimes, arrived_at, custody_holder, custody_since)
     VALUES ($1, $2, $3, $4, 'RETURN_PENDING', $5, 'x', 'x', 500, 50000, now() - interval '1 hour', $6, $7)`,
    [
      randomUUID(),
      ORG,
      mode,
      `RP${trackingSerial++}DZ`,
      relayCode,
      takenBy ?? "relay",
      takenBy ? new Date() : new Date(Date.now() - 3_600_000)
    ]
  );
}

const agentOf = (relayCode: string) => ({ keyId: randomUUID(), keyPrefix: "rp_agent_test", relayCode });

function relaysToVisit(open: () => Promise<ThrowAwayDatabase>) {
  const suite = migratedForSuite(open, "parcels");

  test("returns waiting and cash closed and not collected bring a relay point in; nothing else does", async () => {
    const { db } = suite;
    // A relay point with nothing waiting is among them: it never is listed.
    const [cash, live, pendingCollection, zero, sandbox, taken, collected] = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map(() => relay(db, "42"))
    );
    const abroad = await relay(db, "43");

    await closeTill(db, agentOf(cash), { countedDzd: 1500, denominations: null });
    await returnAt(db, live, "live");
    // A courier recorded a collection the agent has not confirmed: the cash is still at the counter.
    await closeTill(db, agentOf(pendingCollection), { countedDzd: 700, denominations: null });
    const courier = { keyId: randomUUID(), courierId: randomUUID(), hubId: randomUUID() };
    const collect = (relayCode: string) =>
      custody.recordCollection(db, courier, {
        id: randomUUID(),
        relayCode,
        denominations: { "500": 1 },
        closingIds: null,
        occurredAt: new Date()
      });
    await collect(pendingCollection);
    // Out: a closing that found nothing, a sandbox return, a return a courier took, cash collected and confirmed.
    await closeTill(db, agentOf(zero), { countedDzd: 0, denominations: null });
    await returnAt(db, sandbox, "sandbox");
    await returnAt(db, taken, "live", "courier");
    await closeTill(db, agentOf(collected), { countedDzd: 500, denominations: null });
    await custody.confirmCollection(db, agentOf(collected), (await collect(collected)).id, { "500": 1 });
    // Out: another wilaya's, whatever waits there.
    await closeTill(db, agentOf(abroad), { countedDzd: 900, denominations: null });
    await returnAt(db, abroad, "live");

    expect(await relaysToVisitIn(db, "42")).toEqual([cash, live, pendingCollection].sort());
    expect(await relaysToVisitIn(db, "43")).toEqual([abroad]);
    expect(await relaysToVisitIn(db, "44")).toEqual([]);
  });
}

describe("relay points to visit on PGlite", () => relaysToVisit(openThrowAwayPglite));
describeWithServers(["postgres"], "relay points to visit on the PostgreSQL server", () => relaysToVisit(openThrowAwayPostgres));
