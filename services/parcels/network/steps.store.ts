import type { Queryable } from "../../../lib/db/database";

/** The SQL of parcels.network_steps (migration parcels/037, decision 0058). */

export type NetworkStepKind = "at_hub" | "missorted" | "to_relay";

export interface NetworkStep {
  kind: NetworkStepKind;
  /** Two digits, or null. */
  wilaya: string | null;
  occurredAt: Date;
}

/** The step, unless its id was recorded already (a repeat): then false. */
export async function insertStep(
  tx: Queryable,
  step: { id: string; parcelId: string; kind: NetworkStepKind; wilaya: string | null; occurredAt: Date }
): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO parcels.network_steps (id, parcel_id, kind, wilaya_code, occurred_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [step.id, step.parcelId, step.kind, step.wilaya === null ? null : Number(step.wilaya), step.occurredAt]
  );
  return rows.length > 0;
}

/** A parcel's steps, oldest first: one indexed read for the tracking page. */
export async function stepsOf(db: Queryable, parcelId: string): Promise<NetworkStep[]> {
  const rows = await db.query<{ kind: NetworkStepKind; wilaya_code: number | null; occurred_at: Date }>(
    "SELECT kind, wilaya_code, occurred_at FROM parcels.network_steps WHERE parcel_id = $1 ORDER BY occurred_at, created_at LIMIT 50",
    [parcelId]
  );
  return rows.map(r => ({
    kind: r.kind,
    wilaya: r.wilaya_code === null ? null : String(r.wilaya_code).padStart(2, "0"),
    occurredAt: r.occurred_at
  }));
}
