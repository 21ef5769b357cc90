import { PGlite } from "@electric-sql/pglite";
import { Client, QueryResultRow } from "pg";

export interface InvariantReport {
  accounts: number;
  visibleParcels: number;
  pending: number;
  refundPending: number;
  violations: string[];
}

/**
 * DESIGN §3: for every organisation and mode, balance = top-ups − debits + refunds (+ COD remittances credited), and every
 * un-refunded debit has exactly one visible parcel (and every visible, uncancelled parcel was paid).
 */
export async function checkMoneyInvariant(database: string | { pgliteDir: string }): Promise<InvariantReport> {
  const client = typeof database === "string" ? new Client({ connectionString: database }) : await PGlite.create(database.pgliteDir);
  if (client instanceof Client) await client.connect();
  const query = async (sql: string): Promise<{ rows: QueryResultRow[] }> =>
    client instanceof Client ? client.query(sql) : client.query<QueryResultRow>(sql);
  try {
    const violations: string[] = [];
    const { rows: accounts } = await query(`
      SELECT a.organization_id, a.mode, a.balance_centimes::bigint AS balance,
             coalesce(sum(CASE l.kind WHEN 'top_up' THEN l.amount_centimes WHEN 'refund' THEN l.amount_centimes
                                      WHEN 'cod_credit' THEN l.amount_centimes
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
    const { rows: visible } = await query("SELECT id, organization_id, mode, status FROM parcels.parcels WHERE status <> 'PENDING'");
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
      if (!paid.has(p.id) && !refundedIds.has(p.id)) {
        violations.push(`parcel ${p.id} (${p.status}) was never paid`);
      } else if (refundedIds.has(p.id)) {
        const cancelled = p.mode === "live" ? p.status === "CANCELLED" : cancelledIds.has(p.id);
        if (!cancelled) violations.push(`parcel ${p.id} (${p.mode}, ${p.status}) was refunded without being cancelled`);
      }
    }
    const [{ pending }] = (await query("SELECT count(*)::int AS pending FROM parcels.parcels WHERE status = 'PENDING'")).rows;
    const [{ refunds }] = (await query("SELECT count(*)::int AS refunds FROM parcels.parcels WHERE refund_pending")).rows;
    return { accounts: accounts.length, visibleParcels: visible.length, pending, refundPending: refunds, violations };
  } finally {
    if (client instanceof Client) await client.end();
    else await client.close();
  }
}
