import type { OutForDeliveryResult } from "./out-for-delivery";
import type { ReturnAtRelay } from "./relay-returns";

/** What logistics asks of parcels for the last leg (issue 44 C, decision 0057). Types only. */

/** The till's cash waiting at a relay point for a courier (issue 45). */
export interface RelayCashWaiting {
  relayCode: string;
  closedDzd: number;
  /** How many of each note or coin, by face value in DZD ({"2000": 3}); null when a closing was counted as a total only. */
  denominations: Record<string, number> | null;
}

declare module "../../../lib/contract" {
  interface ActionContracts {
    /** parcel.out_for_delivery, once per parcel and destination relay point. */
    "parcels.outForDelivery": {
      params: { parcelId: string; relayCode: string; actor: string };
      answer: OutForDeliveryResult;
    };
    /** The returns waiting at these relay points for a courier (RETURN_PENDING, not yet handed over). */
    "parcels.returnsAtRelays": { params: { relayCodes: string[] }; answer: { returns: ReturnAtRelay[] } };
    /**
     * Issue 45: the cash closed and not yet collected at these relay points (a run's relay stops, in
     * one call): what the agents counted, by denomination when every closing was counted so. A
     * relay point with nothing waiting is left out.
     */
    "parcels.cashAtRelays": { params: { relayCodes: string[] }; answer: { cash: RelayCashWaiting[] } };
    /**
     * Issue 45: the relay points of a wilaya a courier's run must visit with nothing to deliver there:
     * a live return waiting (as returnsAtRelays), or till cash closed and not yet collected (as
     * cashAtRelays, above zero). Sorted by code.
     */
    "parcels.relaysToVisit": { params: { wilaya: string }; answer: { relayCodes: string[] } };
  }
}
export {};
