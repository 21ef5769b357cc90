import type { Queryable } from "../../../lib/db/database";

/**
 * The cash invariant of issue 45 B, to the centime, for every relay point, courier, hub and
 * organisation (decision 0063). Each equation is checked as the sums that make it:
 *   relay:        Σ cash hand-overs = Σ closings (expected) + cash in the till
 *   relay:        Σ closings        = Σ collected (agent confirmed) + closed and not yet collected
 *   courier:      Σ collected       = Σ deposited (hub confirmed) + aboard
 *   hub and org:  Σ deposited       = Σ remitted + awaiting remittance
 * and every confirmed hand-off whose counts disagree has its difference recorded. Returns what does
 * not hold, in words; empty when all does. Read-only: tests and operators run it on a live database.
 */

export interface CashTotals {
  handedOverCentimes: number;
  inTillsCentimes: number;
  closedCentimes: number;
  notCollectedCentimes: number;
  collectedCentimes: number;
  aboardCentimes: number;
  depositedCentimes: number;
  remittedCentimes: number;
  awaitingRemittanceCentimes: number;
}

const sumOf = async (db: Queryable, sql: string): Promise<number> => Number((await db.query<{ n: string | null }>(sql))[0]?.n ?? 0);

/** Rows of `sql` are violations: `what` says each in words. */
async function each(db: Queryable, sql: string, what: (row: Record<string, unknown>) => string): Promise<string[]> {
  return (await db.query<Record<string, unknown>>(sql)).map(what);
}

export async function checkCashInvariant(db: Queryable): Promise<{ totals: CashTotals; violations: string[] }> {
  const violations = (
    await Promise.all([
      // Relay: a closing's books are exactly the cash hand-overs it took (and an item is in one closing: a column).
      each(
        db,
        `SELECT k.id, k.relay_code, k.expected_centimes, coalesce(sum(i.amount_centimes) FILTER (WHERE i.tender = 'cash'), 0) AS items
           FROM parcels.relay_cash_closings k LEFT JOIN parcels.relay_cash_items i ON i.closing_id = k.id
          GROUP BY k.id HAVING k.expected_centimes <> coalesce(sum(i.amount_centimes) FILTER (WHERE i.tender = 'cash'), 0)`,
        r =>
          `relay ${r.relay_code as string}: closing ${r.id as string} expects ${r.expected_centimes as string} but took ${r.items as string}`
      ),
      // Relay → courier: a collection's books are its closings', and a closing is in one collection of its own relay.
      each(
        db,
        `SELECT c.id, c.relay_code, c.expected_centimes, coalesce(sum(k.expected_centimes), 0) AS closings,
                bool_and(k.relay_code = c.relay_code) AS same_relay
           FROM parcels.cash_collections c
           LEFT JOIN parcels.cash_collection_closings cc ON cc.collection_id = c.id
           LEFT JOIN parcels.relay_cash_closings k ON k.id = cc.closing_id
          GROUP BY c.id
         HAVING (c.cancelled_at IS NULL AND c.expected_centimes <> coalesce(sum(k.expected_centimes), 0))
             OR (c.cancelled_at IS NOT NULL AND count(k.id) > 0)
             OR NOT bool_and(k.relay_code = c.relay_code)`,
        r =>
          `relay ${r.relay_code as string}: collection ${r.id as string} carries ${r.expected_centimes as string}, its closings ${r.closings as string}`
      ),
      // Courier → hub: a deposit's books are its collections', each confirmed by an agent and of the same courier.
      each(
        db,
        `SELECT d.id, d.courier_id, d.expected_centimes, coalesce(sum(c.expected_centimes), 0) AS collections
           FROM parcels.cash_deposits d
           LEFT JOIN parcels.cash_deposit_collections dc ON dc.deposit_id = d.id
           LEFT JOIN parcels.cash_collections c ON c.id = dc.collection_id
          GROUP BY d.id
         HAVING d.expected_centimes <> coalesce(sum(c.expected_centimes), 0)
             OR bool_or(c.confirmed_at IS NULL OR c.courier_id <> d.courier_id)`,
        r =>
          `courier ${r.courier_id as string}: deposit ${r.id as string} carries ${r.expected_centimes as string}, its collections ${r.collections as string}`
      ),
      // Hub → organisation: a parcel whose cash a hub confirmed is COLLECTED and in no remittance, or REMITTED once for its amount.
      each(
        db,
        `SELECT p.id, p.organization_id, p.cod_status, i.amount_centimes, r.amount_centimes AS remitted
           FROM parcels.relay_cash_items i
           JOIN parcels.parcels p ON p.id = i.parcel_id
           JOIN parcels.cash_collection_closings cc ON cc.closing_id = i.closing_id
           JOIN parcels.cash_deposit_collections dc ON dc.collection_id = cc.collection_id
           JOIN parcels.cash_deposits d ON d.id = dc.deposit_id AND d.confirmed_at IS NOT NULL
           LEFT JOIN parcels.cod_remittance_parcels r ON r.parcel_id = p.id
          WHERE i.tender = 'cash'
            AND NOT ((p.cod_status = 'COLLECTED' AND r.parcel_id IS NULL)
                  OR (p.cod_status = 'REMITTED' AND r.amount_centimes = i.amount_centimes))`,
        r =>
          `organisation ${r.organization_id as string}: parcel ${r.id as string} deposited ${r.amount_centimes as string}, ` +
          `COD ${r.cod_status as string}, remitted ${String(r.remitted ?? "nothing")}`
      ),
      // Every confirmed hand-off whose counts disagree has its difference.
      each(
        db,
        `SELECT c.id FROM parcels.cash_collections c
          WHERE c.confirmed_at IS NOT NULL
            AND (c.courier_counted_centimes <> c.previous_count_centimes OR c.agent_counted_centimes <> c.previous_count_centimes)
            AND NOT EXISTS (SELECT 1 FROM parcels.cash_differences x WHERE x.hand_off_id = c.id)
         UNION ALL
         SELECT d.id FROM parcels.cash_deposits d
          WHERE d.confirmed_at IS NOT NULL
            AND (d.courier_counted_centimes <> d.previous_count_centimes OR d.hub_counted_centimes <> d.previous_count_centimes)
            AND NOT EXISTS (SELECT 1 FROM parcels.cash_differences x WHERE x.hand_off_id = d.id)`,
        r => `hand-off ${r.id as string}: counts disagree and no difference is recorded`
      )
    ])
  ).flat();
  const totals = await totalsOf(db);
  return { totals, violations: violations.concat(balanceViolations(totals)) };
}

async function totalsOf(db: Queryable): Promise<CashTotals> {
  const confirmedDeposits = `parcels.cash_deposits d JOIN parcels.cash_deposit_collections dc ON dc.deposit_id = d.id
    JOIN parcels.cash_collection_closings cc ON cc.collection_id = dc.collection_id
    JOIN parcels.relay_cash_items i ON i.closing_id = cc.closing_id AND i.tender = 'cash'
    JOIN parcels.parcels p ON p.id = i.parcel_id`;
  const [handedOver, inTills, closed, notCollected, collected, aboard, deposited, remitted, awaiting] = await Promise.all([
    sumOf(db, "SELECT sum(amount_centimes) AS n FROM parcels.relay_cash_items WHERE tender = 'cash'"),
    sumOf(db, "SELECT sum(amount_centimes) AS n FROM parcels.relay_cash_items WHERE tender = 'cash' AND closing_id IS NULL"),
    sumOf(db, "SELECT sum(expected_centimes) AS n FROM parcels.relay_cash_closings"),
    sumOf(
      db,
      `SELECT sum(k.expected_centimes) AS n FROM parcels.relay_cash_closings k
         LEFT JOIN parcels.cash_collection_closings cc ON cc.closing_id = k.id
         LEFT JOIN parcels.cash_collections c ON c.id = cc.collection_id
        WHERE c.confirmed_at IS NULL`
    ),
    sumOf(db, "SELECT sum(expected_centimes) AS n FROM parcels.cash_collections WHERE confirmed_at IS NOT NULL"),
    sumOf(
      db,
      `SELECT sum(c.expected_centimes) AS n FROM parcels.cash_collections c
         LEFT JOIN parcels.cash_deposit_collections dc ON dc.collection_id = c.id
         LEFT JOIN parcels.cash_deposits d ON d.id = dc.deposit_id
        WHERE c.confirmed_at IS NOT NULL AND d.confirmed_at IS NULL`
    ),
    sumOf(db, "SELECT sum(expected_centimes) AS n FROM parcels.cash_deposits WHERE confirmed_at IS NOT NULL"),
    sumOf(
      db,
      `SELECT sum(i.amount_centimes) AS n FROM ${confirmedDeposits} WHERE d.confirmed_at IS NOT NULL AND p.cod_status = 'REMITTED'`
    ),
    sumOf(
      db,
      `SELECT sum(i.amount_centimes) AS n FROM ${confirmedDeposits} WHERE d.confirmed_at IS NOT NULL AND p.cod_status = 'COLLECTED'`
    )
  ]);
  return {
    handedOverCentimes: handedOver,
    inTillsCentimes: inTills,
    closedCentimes: closed,
    notCollectedCentimes: notCollected,
    collectedCentimes: collected,
    aboardCentimes: aboard,
    depositedCentimes: deposited,
    remittedCentimes: remitted,
    awaitingRemittanceCentimes: awaiting
  };
}

/** The four equations on the totals (the per-record checks above say which record, these that the sums close). */
function balanceViolations(t: CashTotals): string[] {
  const equations: [string, number, number][] = [
    ["hand-overs = closings + tills", t.handedOverCentimes, t.closedCentimes + t.inTillsCentimes],
    ["closings = collected + not collected", t.closedCentimes, t.collectedCentimes + t.notCollectedCentimes],
    ["collected = deposited + aboard", t.collectedCentimes, t.depositedCentimes + t.aboardCentimes],
    ["deposited = remitted + awaiting", t.depositedCentimes, t.remittedCentimes + t.awaitingRemittanceCentimes]
  ];
  return equations.filter(([, left, right]) => left !== right).map(([name, left, right]) => `${name}: ${left} ≠ ${right}`);
}
