import type { KeyMode } from "../../../lib/api-keys";
import type { Database, Queryable } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import type { RemittanceRecord } from "../cod.store";
import { createRemittance, RemittanceDeps } from "../remittance";
import { handOffIdOf } from "./cash-custody";
import * as cash from "./cash.store";

/**
 * COD remittances proposed from the cash a hub confirmed (issue 45 B): one proposal per deposit,
 * organisation and mode, listing the parcels whose cash is in that deposit and whose COD is still
 * COLLECTED. Nobody types an amount: approving a proposal is createRemittance with its parcels, so
 * a parcel is paid once (cod_remittance_parcels' primary key, and the parcels locked and checked).
 */

export interface ProposedParcel {
  parcelId: string;
  trackingNumber: string;
  amountCentimes: number;
}

export interface Proposal {
  id: string;
  organizationId: string;
  mode: KeyMode;
  depositId: string;
  hubId: string;
  depositedAt: Date;
  parcels: ProposedParcel[];
  totalCentimes: number;
}

/** Stable for a deposit, organisation and mode: the same proposal whatever else changes. */
const proposalIdOf = (depositId: string, organizationId: string, mode: KeyMode) =>
  handOffIdOf(depositId, "proposal", `${organizationId}/${mode}`);

export async function proposalsOf(db: Queryable, organizationId: string): Promise<Proposal[]> {
  const proposals = new Map<string, Proposal>();
  for (const row of await cash.cashAtCarrier(db, organizationId)) {
    const id = proposalIdOf(row.deposit_id, organizationId, row.mode);
    const proposal =
      proposals.get(id) ??
      proposals
        .set(id, {
          id,
          organizationId,
          mode: row.mode,
          depositId: row.deposit_id,
          hubId: row.hub_id,
          depositedAt: row.confirmed_at,
          parcels: [],
          totalCentimes: 0
        })
        .get(id)!;
    proposal.parcels.push({ parcelId: row.parcel_id, trackingNumber: row.tracking_number, amountCentimes: Number(row.amount_centimes) });
    proposal.totalCentimes += Number(row.amount_centimes);
  }
  return [...proposals.values()];
}

/**
 * Approves a proposal as it stands now: its parcels still COLLECTED are remitted. Approving twice,
 * or at once, remits them once: the later finds nothing left (404, the proposal is gone) or is
 * refused by createRemittance's check (409 COD_NOT_REMITTABLE), never a second payment.
 */
export async function approveProposal(
  deps: RemittanceDeps & { db: Database },
  request: { organizationId: string; proposalId: string; reference: string; paidOn: string | null }
): Promise<RemittanceRecord> {
  const proposal = (await proposalsOf(deps.db, request.organizationId)).find(p => p.id === request.proposalId);
  if (!proposal) throw new AppError("REMITTANCE_PROPOSAL_NOT_FOUND", "No such proposal: its parcels are remitted, or it never was");
  return createRemittance(deps, {
    organizationId: request.organizationId,
    mode: proposal.mode,
    parcelIds: proposal.parcels.map(p => p.parcelId),
    reference: request.reference,
    paidOn: request.paidOn
  });
}
