import type { AgentPrincipal } from "../../../lib/agent-keys";
import type { Queryable } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import { pinVersionOf } from "./offline-verifier";
import type { HandoverParams } from "./relay.params";
import type { ShelfParcel } from "./relay.store";

/**
 * A hand-over the phone recorded offline (decision 0032), judged when it arrives: the parcel may
 * have changed meanwhile, and each change has its own refusal, so that the app can tell the agent
 * what happened to that one parcel. Otherwise it goes through the hand-over's rules as any other.
 */

export function checkOfflineRequest(request: HandoverParams): void {
  if (request.tender !== "cash" && request.tenderReference === null) {
    throw new AppError("VALIDATION_FAILED", "The request is not valid", {
      details: [{ field: "tenderReference", message: "is required for a card or QR payment: the terminal's or the payment's reference" }]
    });
  }
  if (!request.offline) return;
  const problems = [];
  if (request.pinVersion === null && request.pass === null) {
    problems.push({ field: "pinVersion", message: "is required with offline and a PIN: the verifier's pinVersion" });
  }
  if (request.tender !== "cash")
    problems.push({ field: "tender", message: "must be cash offline: a card or QR payment needs the network" });
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", "The request is not valid", { details: problems });
}

/** A parcel no longer addressed here that was redirected away from here: 409 PARCEL_REDIRECTED. */
export async function refuseIfRedirectedAway(tx: Queryable, agent: AgentPrincipal, found: ShelfParcel | null): Promise<void> {
  if (!found || found.parcel.mode !== "live" || found.parcel.destinationRelayCode === agent.relayCode) return;
  const [away] = await tx.query<{ to_relay_code: string }>(
    "SELECT to_relay_code FROM parcels.redirects WHERE parcel_id = $1 AND from_relay_code = $2 ORDER BY id DESC LIMIT 1",
    [found.parcel.id, agent.relayCode]
  );
  if (away) {
    throw new AppError(
      "PARCEL_REDIRECTED",
      `Parcel ${found.parcel.trackingNumber} was redirected to relay point ${found.parcel.destinationRelayCode}: it was not handed over here`
    );
  }
}

/** On this shelf once: gone back (its holding period ended), or its PIN reset since the verifier. */
export function refuseIfChanged(found: ShelfParcel, request: HandoverParams): void {
  const { parcel } = found;
  if (parcel.status === "RETURN_PENDING") {
    throw new AppError("PARCEL_EXPIRED", `Parcel ${parcel.trackingNumber} went back (RETURN_PENDING) before this hand-over reached us`);
  }
  if (request.pass === null && parcel.pickupPinEnc !== null && pinVersionOf(parcel.pickupPinEnc) !== request.pinVersion) {
    throw new AppError("PIN_RESET", `The PIN of parcel ${parcel.trackingNumber} was reset since the device checked it: not handed over`);
  }
}
