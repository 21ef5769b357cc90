import { createPairingStore } from "../shared/pairing-store";

/**
 * What this phone keeps about its pairing: the courier key (never shown, sent only as the courier
 * API's credential) and whose phone it is. localStorage because the key must be readable before
 * anything else loads (web/shared/pairing-store.ts).
 */
export interface Pairing {
  key: string;
  courierId: string;
  courierName: string;
  hubId: string;
  deviceName: string | null;
}

export const { pairing, savePairing, forgetPairing } = createPairingStore<Pairing>("courier.pairing");
