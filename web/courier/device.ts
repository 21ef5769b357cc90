/**
 * What this phone keeps about its pairing: the courier key (never shown, sent only as the courier
 * API's credential) and whose phone it is. localStorage because the key must be readable before
 * anything else loads, and the origin's storage is per app by its name (`courier.`).
 */
export interface Pairing {
  key: string;
  courierId: string;
  courierName: string;
  hubId: string;
  deviceName: string | null;
}

const PAIRING = "courier.pairing";

export function pairing(): Pairing | null {
  const raw = localStorage.getItem(PAIRING);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as Pairing;
  } catch {
    return null;
  }
}

export function savePairing(value: Pairing): void {
  localStorage.setItem(PAIRING, JSON.stringify(value));
}

export function forgetPairing(): void {
  localStorage.removeItem(PAIRING);
}
