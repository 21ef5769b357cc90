/**
 * What a phone keeps about its pairing: the device's key (never shown on screen, sent only as its
 * API's credential) and whose phone it is. localStorage because the key must be readable before
 * anything else loads (prefetch.js reads it); one key per app (`counter.pairing`,
 * `courier.pairing`), since both apps share the origin.
 */
export function createPairingStore<P extends { key: string }>(storageKey: string) {
  function pairing(): P | null {
    const raw = localStorage.getItem(storageKey);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as P;
    } catch {
      return null;
    }
  }

  function savePairing(value: P): void {
    localStorage.setItem(storageKey, JSON.stringify(value));
  }

  function forgetPairing(): void {
    localStorage.removeItem(storageKey);
  }

  return { pairing, savePairing, forgetPairing };
}
