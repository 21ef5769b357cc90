import type { ClaimEvidence, EvidenceMove, MovedBy } from "../../../lib/claim-view";
import { toDzd } from "../../../lib/money";
import { isParcelStatus, ParcelStatus } from "../../../lib/parcel-status";
import { isOnShelf } from "../holding-period";
import { eventSourceOf, HistoryRecord } from "../parcel-events";

/**
 * The evidence of a claim, from the network's own records (issue 22): the parcel's history with who
 * moved it and where, its last scan, a refusal at the counter, the hand-over, the declared value
 * and the insurance paid. Pure: the store reads the records, this shapes them.
 */

export interface EvidenceSource {
  parcel: {
    destinationRelayCode: string;
    declaredValueCentimes: number | null;
    priceCentimes: number;
    codAmountCentimes: number | null;
    codStatus: string | null;
  };
  history: HistoryRecord[];
  /** The cash the agent put in the till at the hand-over (parcels/007), null when none. */
  tillCentimes: number | null;
  insuranceCentimes: number;
  insuredValueCentimes: number;
}

const HOUR_MS = 3_600_000;
/** Statuses a relay point's counter gives a parcel: its arrival and its hand-over. */
const AT_THE_COUNTER: readonly string[] = ["AT_RELAY", "DELIVERED"];
/** COD statuses once the cash was taken at the hand-over. */
const CASH_TAKEN: readonly string[] = ["COLLECTED", "REMITTED"];

/** A change at the counter: an arrival, a hand-over, or a refusal (the shelf to RETURN_PENDING). */
function atTheCounter(line: HistoryRecord): boolean {
  return (
    AT_THE_COUNTER.includes(line.toStatus) || (line.toStatus === "RETURN_PENDING" && line.fromStatus !== null && isOnShelf(line.fromStatus))
  );
}

function moveOf(line: HistoryRecord & { toStatus: ParcelStatus }, relay: string): EvidenceMove {
  return {
    status: line.toStatus,
    previousStatus: line.fromStatus !== null && isParcelStatus(line.fromStatus) ? line.fromStatus : null,
    occurredAt: line.createdAt.toISOString(),
    reason: line.reason,
    by: eventSourceOf(line.actor) as MovedBy,
    relayCode: atTheCounter(line) || line.toStatus === "RELAY_NOTIFIED" ? relay : null
  };
}

export function buildEvidence(source: EvidenceSource, now: Date): ClaimEvidence {
  const relay = source.parcel.destinationRelayCode;
  const lines = source.history.filter((line): line is HistoryRecord & { toStatus: ParcelStatus } => isParcelStatus(line.toStatus));
  const moves = lines.map(line => moveOf(line, relay));
  // A scan is a courier's or a relay point's hand on the parcel (the sandbox trigger stands in for them).
  const scans = moves.filter(move => move.by === "operator" || move.by === "sandbox");
  const lastScan = scans.at(-1) ?? null;
  const refusal = moves.filter(m => m.status === "RETURN_PENDING" && m.relayCode !== null && m.by !== "system").at(-1) ?? null;
  const handover = moves.filter(m => m.status === "DELIVERED").at(-1) ?? null;
  const collected = source.tillCentimes ?? (CASH_TAKEN.includes(source.parcel.codStatus ?? "") ? source.parcel.codAmountCentimes : null);
  return {
    statusHistory: moves,
    lastScan: lastScan && {
      status: lastScan.status,
      occurredAt: lastScan.occurredAt,
      ageHours: Math.max(0, Math.floor((now.getTime() - Date.parse(lastScan.occurredAt)) / HOUR_MS)),
      relayCode: lastScan.relayCode
    },
    refusal: refusal && { reason: refusal.reason, occurredAt: refusal.occurredAt, relayCode: relay },
    handover: handover && {
      occurredAt: handover.occurredAt,
      relayCode: relay,
      codCollectedDzd: collected === null ? null : toDzd(collected)
    },
    declaredValueDzd: source.parcel.declaredValueCentimes === null ? null : toDzd(source.parcel.declaredValueCentimes),
    insuredValueDzd: toDzd(source.insuredValueCentimes),
    insurancePaidDzd: toDzd(source.insuranceCentimes),
    pricePaidDzd: toDzd(source.parcel.priceCentimes)
  };
}
