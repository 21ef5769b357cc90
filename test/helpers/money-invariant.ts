import { PGlite } from "@electric-sql/pglite";
import { Client, QueryResultRow } from "pg";
import type { Queryable } from "../../lib/db/database";
import { checkCashInvariant } from "../../services/parcels/cash/cash-invariant.store";

export interface InvariantReport {
  accounts: number;
  visibleParcels: number;
  pending: number;
  refundPending: number;
  /** Returns whose fee the wallet has not acknowledged yet (the holding pass settles them). */
  returnFeePending: number;
  /** Return fees charged. */
  returnFees: number;
  /** Approved claims credited (claim_compensation entries). */
  claimCompensations: number;
  /** Customers' returns dropped off whose RETURN_SHIPMENT the wallet has not acknowledged yet (the returns pass settles them). */
  returnShipmentPending: number;
  /** RETURN_SHIPMENT charges. */
  returnShipments: number;
  violations: string[];
}

/**
 * DESIGN §3: for every organisation and mode, balance = top-ups − debits + refunds + COD credits − return fees + claim
 * compensations, and every
 * un-refunded debit has exactly one visible parcel (and every visible, uncancelled parcel was paid). A return fee is charged
 * once, for a parcel that went back (RETURN_PENDING), of the amount fixed on its return, to its own account; a balance is
 * below zero by return fees and return shipments only; and every return has its fee charged once nothing is pending. A customer's
 * return parcel (direction RETURN, issue 21) is not debited at creation: it is paid by one RETURN_SHIPMENT charge of its return's
 * fee, to its own account, once its return is not pending. A claim compensation is credited once, for an APPROVED claim of its
 * own account, of its compensation plus the parcel's price (unless refunded), and every approved claim is credited once nothing
 * is pending.
 */
export async function checkMoneyInvariant(database: string | { pgliteDir: string }): Promise<InvariantReport> {
  const client = typeof database === "string" ? new Client({ connectionString: database }) : await PGlite.create(database.pgliteDir);
  if (client instanceof Client) await client.connect();
  const query = async (sql: string): Promise<{ rows: QueryResultRow[] }> =>
    client instanceof Client ? client.query(sql) : client.query<QueryResultRow>(sql);
  try {
    const violations: string[] = [];
    const { rows: accounts } = await query(`
      -- Debits and return fees (the ELSE) take money out.
      SELECT a.organization_id, a.mode, a.balance_centimes::bigint AS balance,
             coalesce(sum(CASE l.kind WHEN 'top_up' THEN l.amount_centimes WHEN 'refund' THEN l.amount_centimes
                                      WHEN 'cod_credit' THEN l.amount_centimes WHEN 'claim_compensation' THEN l.amount_centimes
                                      ELSE -l.amount_centimes END), 0)::bigint AS ledger
        FROM wallet.accounts a LEFT JOIN wallet.ledger l ON l.organization_id = a.organization_id AND l.mode = a.mode
       GROUP BY a.organization_id, a.mode, a.balance_centimes`);
    for (const a of accounts) {
      if (String(a.balance) !== String(a.ledger)) {
        violations.push(`${a.organization_id}/${a.mode}: balance ${a.balance} != ledger ${a.ledger}`);
      }
    }
    const { rows: unrefunded } = await query(`
      SELECT d.parcel_id, d.organization_id, d.mode FROM wallet.ledger d
       WHERE d.kind = 'debit'
         AND NOT EXISTS (SELECT 1 FROM wallet.ledger r WHERE r.parcel_id = d.parcel_id AND r.kind = 'refund')`);
    const { rows: visible } = await query(
      "SELECT id, organization_id, mode, status, direction FROM parcels.parcels WHERE status <> 'PENDING'"
    );
    const visibleById = new Map(visible.map(p => [p.id as string, p]));
    for (const d of unrefunded) {
      const parcel = visibleById.get(d.parcel_id);
      if (!parcel) violations.push(`debit of ${d.parcel_id} has no visible parcel`);
      else if (parcel.organization_id !== d.organization_id || parcel.mode !== d.mode) {
        violations.push(`debit of ${d.parcel_id} charged to the wrong account`);
      }
    }
    // Every visible parcel was paid at creation. Its price came back only through a cancel: a live
    // parcel whose debit was refunded is CANCELLED; a sandbox parcel (which the trigger may move
    // on from CANCELLED, staying refunded) was CANCELLED at some point of its history.
    const paid = new Set(unrefunded.map(d => d.parcel_id as string));
    const { rows: refunded } = await query(`
      SELECT d.parcel_id FROM wallet.ledger d
       WHERE d.kind = 'debit'
         AND EXISTS (SELECT 1 FROM wallet.ledger r WHERE r.parcel_id = d.parcel_id AND r.kind = 'refund')`);
    const refundedIds = new Set(refunded.map(r => r.parcel_id as string));
    const { rows: everCancelled } = await query("SELECT DISTINCT parcel_id FROM parcels.status_history WHERE to_status = 'CANCELLED'");
    const cancelledIds = new Set(everCancelled.map(r => r.parcel_id as string));
    for (const p of visible) {
      if (p.direction === "RETURN") continue;
      if (!paid.has(p.id) && !refundedIds.has(p.id)) {
        violations.push(`parcel ${p.id} (${p.status}) was never paid`);
      } else if (refundedIds.has(p.id)) {
        const cancelled = p.mode === "live" ? p.status === "CANCELLED" : cancelledIds.has(p.id);
        if (!cancelled) violations.push(`parcel ${p.id} (${p.mode}, ${p.status}) was refunded without being cancelled`);
      }
    }
    const { rows: fees } = await query(`
      SELECT l.parcel_id, l.organization_id, l.mode, l.amount_centimes::bigint AS amount, count(*) OVER (PARTITION BY l.parcel_id) AS n
        FROM wallet.ledger l WHERE l.kind = 'return_fee'`);
    const { rows: returned } = await query(`
      SELECT p.id, p.organization_id, p.mode, p.return_fee_centimes::bigint AS fee, p.return_fee_pending AS pending
        FROM parcels.parcels p WHERE EXISTS (SELECT 1 FROM parcels.status_history h WHERE h.parcel_id = p.id AND h.to_status = 'RETURN_PENDING')`);
    const returnedById = new Map(returned.map(p => [p.id as string, p]));
    const feeByParcel = new Map(fees.map(f => [f.parcel_id as string, f]));
    for (const f of fees) {
      const parcel = returnedById.get(f.parcel_id);
      if (Number(f.n) !== 1) violations.push(`parcel ${f.parcel_id} was charged ${f.n} return fees`);
      if (!parcel) violations.push(`return fee of ${f.parcel_id}, a parcel that never went back`);
      else if (parcel.organization_id !== f.organization_id || parcel.mode !== f.mode) {
        violations.push(`return fee of ${f.parcel_id} charged to the wrong account`);
      } else if (String(parcel.fee) !== String(f.amount)) {
        violations.push(`return fee of ${f.parcel_id}: ${f.amount} charged, ${parcel.fee} fixed on its return`);
      }
    }
    for (const p of returned) {
      if (p.fee === null) violations.push(`parcel ${p.id} went back without a return fee being fixed`);
      else if (!p.pending && Number(p.fee) > 0 && !feeByParcel.has(p.id)) violations.push(`parcel ${p.id}: return fee never charged`);
    }
    const { rows: shipments } = await query(`
      SELECT l.parcel_id, l.organization_id, l.mode, l.amount_centimes::bigint AS amount, count(*) OVER (PARTITION BY l.parcel_id) AS n
        FROM wallet.ledger l WHERE l.kind = 'return_shipment'`);
    const { rows: dropped } = await query(`
      SELECT r.return_parcel_id AS id, r.organization_id, r.mode, r.fee_centimes::bigint AS fee, r.fee_pending AS pending
        FROM parcels.returns r WHERE r.return_parcel_id IS NOT NULL`);
    const droppedByParcel = new Map(dropped.map(r => [r.id as string, r]));
    const shipmentByParcel = new Map(shipments.map(f => [f.parcel_id as string, f]));
    for (const f of shipments) {
      const r = droppedByParcel.get(f.parcel_id);
      if (Number(f.n) !== 1) violations.push(`return parcel ${f.parcel_id} was charged ${f.n} return shipments`);
      if (!r) violations.push(`return shipment of ${f.parcel_id}, which is no customer's return parcel`);
      else if (r.organization_id !== f.organization_id || r.mode !== f.mode) {
        violations.push(`return shipment of ${f.parcel_id} charged to the wrong account`);
      } else if (String(r.fee) !== String(f.amount)) {
        violations.push(`return shipment of ${f.parcel_id}: ${f.amount} charged, ${r.fee} fixed at its drop-off`);
      }
    }
    for (const p of visible.filter(v => v.direction === "RETURN")) {
      const r = droppedByParcel.get(p.id);
      if (!r) violations.push(`return parcel ${p.id} belongs to no dropped-off return`);
      else if (!r.pending && !shipmentByParcel.has(p.id)) violations.push(`return parcel ${p.id}: its shipment was never charged`);
    }
    const { rows: negative } = await query(
      `SELECT organization_id, mode, balance_centimes FROM wallet.accounts
        WHERE balance_centimes < -(return_fees_centimes + return_shipments_centimes)`
    );
    for (const a of negative)
      violations.push(`${a.organization_id}/${a.mode}: balance ${a.balance_centimes} below minus its return charges`);
    const { rows: credits } = await query(`
      SELECT l.claim_id, l.organization_id, l.mode, l.amount_centimes::bigint AS amount, c.status, c.organization_id AS claim_org,
             c.mode AS claim_mode, (c.compensation_centimes + CASE WHEN r.id IS NULL THEN p.price_centimes ELSE 0 END)::bigint AS owed
        FROM wallet.ledger l
        LEFT JOIN parcels.claims c ON c.id = l.claim_id
        LEFT JOIN parcels.parcels p ON p.id = c.parcel_id
        LEFT JOIN wallet.ledger r ON r.parcel_id = c.parcel_id AND r.kind = 'refund'
       WHERE l.kind = 'claim_compensation'`);
    for (const c of credits) {
      if (c.status !== "APPROVED") violations.push(`claim ${c.claim_id} credited without being approved`);
      else if (c.claim_org !== c.organization_id || c.claim_mode !== c.mode)
        violations.push(`claim ${c.claim_id} credited to the wrong account`);
      else if (String(c.amount) !== String(c.owed)) violations.push(`claim ${c.claim_id}: ${c.amount} credited, ${c.owed} owed`);
    }
    const credited = new Set(credits.map(c => c.claim_id as string));
    const { rows: approved } = await query("SELECT id FROM parcels.claims WHERE status = 'APPROVED' AND NOT credit_pending");
    for (const c of approved) if (!credited.has(c.id)) violations.push(`claim ${c.id} approved but never credited`);
    const [{ pending }] = (await query("SELECT count(*)::int AS pending FROM parcels.parcels WHERE status = 'PENDING'")).rows;
    const [{ refunds }] = (await query("SELECT count(*)::int AS refunds FROM parcels.parcels WHERE refund_pending")).rows;
    const feesPending = returned.filter(p => p.pending).length;
    // Issue 45 B: the cash of cash on delivery, till to remittance, to the centime (decision 0063).
    // Its statements take no parameters: the helper's query() serves both engines.
    const cash = await checkCashInvariant({
      query: async (sql: unknown) => (await query(sql as string)).rows,
      exec: async (sql: string) => void (await query(sql))
    } as Queryable);
    violations.push(...cash.violations.map(v => `cash: ${v}`));
    return {
      accounts: accounts.length,
      visibleParcels: visible.length,
      pending,
      refundPending: refunds,
      returnFeePending: feesPending,
      returnFees: fees.length,
      claimCompensations: credits.length,
      returnShipmentPending: dropped.filter(r => r.pending).length,
      returnShipments: shipments.length,
      violations
    };
  } finally {
    if (client instanceof Client) await client.end();
    else await client.close();
  }
}
