import { createPairingStore } from "../shared/pairing-store";

/**
 * What this phone keeps about its pairing: the agent key (never shown on screen, sent only as the
 * relay API's credential) and the relay point it belongs to. localStorage because the key must be
 * readable before anything else loads (web/shared/pairing-store.ts).
 */
export interface Pairing {
  key: string;
  relayCode: string;
  relayName: string;
  deviceName: string;
}

export const { pairing, savePairing, forgetPairing } = createPairingStore<Pairing>("counter.pairing");

/**
 * The relay point's name in the app's language: its Arabic name in Arabic, as the last `GET /me`
 * read it (kept with the day's copy, so offline too); the name given at pairing otherwise.
 */
export function relayNameIn(language: string, pairedName: string): string {
  const me = readCopy<{ me?: { name?: string; nameAr?: string | null } }>("day")?.value.me;
  if (language === "ar" && me?.nameAr) return me.nameAr;
  return me?.name ?? pairedName;
}

/** A copy of the last answers read, to show the day while offline. */
export function saveCopy<T>(name: string, value: T): void {
  localStorage.setItem(`counter.copy.${name}`, JSON.stringify({ at: new Date().toISOString(), value }));
}

export function readCopy<T>(name: string): { at: string; value: T } | null {
  const raw = localStorage.getItem(`counter.copy.${name}`);
  return raw ? (JSON.parse(raw) as { at: string; value: T }) : null;
}
