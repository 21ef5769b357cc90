/** What parcels tells logistics about the last leg (decision 0057). Types only. */

declare module "../../../lib/contract" {
  interface ActionContracts {
    /** After an arrival scan (AT_RELAY) committed: the relay's side of the hand-off, idempotent by parcel and relay point. */
    "logistics.relayArrival": { params: { parcelId: string; relayCode: string; occurredAt: string }; answer: { recorded: true } };
  }
}

export {};
