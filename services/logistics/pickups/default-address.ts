import { call, type Caller } from "../../../lib/contract";
import { AppError } from "../../../lib/errors";
import type { PickupAddress } from "../../../lib/pickup-address";

/**
 * A pickup booked without an address goes to the organisation's stored one (auth, decision 0054),
 * copied into the pickup: changing the stored address later moves no booked pickup.
 */
export async function pickupAddressOf(caller: Caller, organizationId: string, given: PickupAddress | undefined): Promise<PickupAddress> {
  if (given) return given;
  const { address } = await call(caller, "auth.pickupAddress", { organizationId });
  if (!address) {
    throw new AppError(
      "PICKUP_ADDRESS_MISSING",
      "No address given and none stored for your organisation: send `address`, or store your pickup address first"
    );
  }
  return address;
}
