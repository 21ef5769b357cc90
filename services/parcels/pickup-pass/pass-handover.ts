import type { KeyObject } from "node:crypto";
import { AppError } from "../../../lib/errors";
import type { ShelfParcel } from "../relay/relay.store";
import { isSignedPass, parsePass } from "./pass-signature";

/**
 * A hand-over against the recipient's pickup pass instead of the PIN (issue 43): the pass must be
 * the server's signature over this parcel, this relay point and the parcel's current version.
 * Checked by the server whether the phone checked it offline or not; it costs no PIN try (a pass
 * cannot be guessed), and a wrong one is refused with its reason.
 */
export function judgePass(signingKey: KeyObject | null, text: string, found: ShelfParcel, relayCode: string): void {
  const { parcel } = found;
  const pass = parsePass(text);
  if (signingKey === null || pass === null || pass.trackingNumber !== parcel.trackingNumber || !isSignedPass(signingKey, pass, relayCode)) {
    throw new AppError("PICKUP_PASS_INVALID", `This is not a pickup pass of parcel ${parcel.trackingNumber} at relay point ${relayCode}`, {
      details: [{ field: "pass", message: "is not a pass the server signed for this parcel and relay point" }]
    });
  }
  if (pass.version !== found.passVersion) {
    throw new AppError(
      "PICKUP_PASS_VOID",
      `This pickup pass of parcel ${parcel.trackingNumber} was replaced (a new PIN or a redirect): ask the recipient to open the SMS link again`
    );
  }
}
