import type { OutForDeliveryResult } from "./out-for-delivery";
import type { ReturnAtRelay } from "./relay-returns";

/** What logistics asks of parcels for the last leg (issue 44 C, decision 0057). Types only. */

declare module "../../../lib/contract" {
  interface ActionContracts {
    /** parcel.out_for_delivery, once per parcel and destination relay point. */
    "parcels.outForDelivery": {
      params: { parcelId: string; relayCode: string; actor: string };
      answer: OutForDeliveryResult;
    };
    /** The returns waiting at these relay points for a courier (RETURN_PENDING, not yet handed over). */
    "parcels.returnsAtRelays": { params: { relayCodes: string[] }; answer: { returns: ReturnAtRelay[] } };
  }
}
export {};
