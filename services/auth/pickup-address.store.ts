import type { Queryable } from "../../lib/db/database";
import type { PickupAddress } from "../../lib/pickup-address";

/** The SQL of auth.pickup_addresses (migration auth/006). */

export async function findPickupAddress(db: Queryable, organizationId: string): Promise<PickupAddress | null> {
  const [row] = await db.query<{ address: PickupAddress | string }>(
    "SELECT address FROM auth.pickup_addresses WHERE organization_id = $1",
    [organizationId]
  );
  if (!row) return null;
  return typeof row.address === "string" ? (JSON.parse(row.address) as PickupAddress) : row.address;
}

/** Stores (or replaces) the address; the last write wins, as for any setting. */
export async function storePickupAddress(db: Queryable, organizationId: string, address: PickupAddress): Promise<void> {
  await db.query(
    `INSERT INTO auth.pickup_addresses (organization_id, address) VALUES ($1, $2::jsonb)
     ON CONFLICT (organization_id) DO UPDATE SET address = EXCLUDED.address, updated_at = now()`,
    [organizationId, JSON.stringify(address)]
  );
}
