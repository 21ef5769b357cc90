import { Client } from "pg";

export interface InvariantReport {
  accounts: number;
  visibleParcels: number;
  pending: number;
  refundPending: number;
  violations: string[];
}

/**
 * DESIGN §3: for every organisation and mode, balance = top-ups − debits + refunds, and every
 * un-refunded debit has exactly one visible parcel (and every visible, uncancelled parcel was paid).
 */
export async function checkMoneyInvariant(databaseUrl: string): Promise<InvariantReport> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const violations: string[] = [];
    const { rows: accounts } = await client.query(`
      SELECT a.organization_id, a.mode, a.balance_centimes::bigint AS balance,
             coalesce(sum(CASE l.kind WHEN 'top_up' THEN l.amount_centimes WHEN 'refund' THEN l.amount_centimes
                                      ELSE -l.amount_centimes END), 0)::bigint AS ledger
        FROM wallet.accounts a LEFT JOIN wallet.ledger l ON l.organization_id = a.organization_id AND l.mode = a.mode
       GROUP BY a.organization_id, a.mode, a.balance_centimes`);
    for (const a of accounts) {
      if (String(a.balance) !== String(a.ledger)) {
        violations.push(`${a.organization_id}/${a.mode}: balance ${a.balance} != ledger ${a.ledger}`);
      }
    }
    const { rows: unrefunded } = await client.query(`
      SELECT d.parcel_id, d.organization_id, d.mode FROM wallet.ledger d
       WHERE d.kind = 'debit'
         AND NOT EXISTS (SELECT 1 FROM wallet.ledger r WHERE r.parcel_id = d.parcel_id AND r.kind = 'refund')`);
    const { rows: visible } = await client.query(
      "SELECT id, organization_id, mode, status FROM parcels.parcels WHERE status <> 'PENDING'"
    );
    const visibleById = new Map(visible.map(p => [p.id as string, p]));
    for (const d of unrefunded) {
      const parcel = visibleById.get(d.parcel_id);
      if (!parcel) violations.push(`debit of ${d.parcel_id} has no visible parcel`);
      else if (parcel.organization_id !== d.organization_id || parcel.mode !== d.mode) {
        violations.push(`debit of ${d.parcel_id} charged to the wrong account`);
      }
    }
    const paid = new Set(unrefunded.map(d => d.parcel_id as string));
    for (const p of visible) {
      if (p.status !== "CANCELLED" && !paid.has(p.id)) violations.push(`parcel ${p.id} (${p.status}) was never paid`);
    }
    const [{ pending }] = (await client.query("SELECT count(*)::int AS pending FROM parcels.parcels WHERE status = 'PENDING'")).rows;
    const [{ refunds }] = (await client.query("SELECT count(*)::int AS refunds FROM parcels.parcels WHERE refund_pending")).rows;
    return { accounts: accounts.length, visibleParcels: visible.length, pending, refundPending: refunds, violations };
  } finally {
    await client.end();
  }
}
