import type { OpeningHours } from "./days";

/** What the public search answers (GET /api/public/v1/relay-points): public fields only. */
export interface PublicRelayPoint {
  code: string;
  name: string;
  /** Its name in Arabic script, shown on Arabic pages; null when the directory has none. */
  nameAr: string | null;
  address: string | null;
  city: string;
  wilaya: string | null;
  /** Wilayas 59–69 (2026): the wilaya the point's place belonged to, which still finds it. */
  formerWilaya: string | null;
  /** The commune's ONS code, and its names; null when the directory does not know it. */
  commune: string | null;
  communeName: string | null;
  communeNameAr: string | null;
  latitude: number | null;
  longitude: number | null;
  openingHours: OpeningHours | null;
  openNow: boolean;
  closures: { from: string; to: string; reason: string | null }[];
  takesNewParcels: boolean;
  notTakingReason: "FULL" | "CLOSED" | null;
  distanceKm?: number;
}

export interface SearchFilters {
  wilaya?: string;
  commune?: string;
  city?: string;
  q?: string;
  near?: { latitude: number; longitude: number };
  radiusKm?: number;
}

export const SEARCH_PATH = "/api/public/v1/relay-points";

/** One page of up to 100 points; the browser's cache and the ETag make a repeated search free. */
export async function searchRelayPoints(apiBase: string, filters: SearchFilters, signal: AbortSignal): Promise<PublicRelayPoint[]> {
  const query = new URLSearchParams({ size: "100" });
  if (filters.wilaya) query.set("wilaya", filters.wilaya);
  if (filters.commune) query.set("commune", filters.commune);
  if (filters.city) query.set("city", filters.city);
  if (filters.q) query.set("q", filters.q);
  if (filters.near) {
    query.set("near", `${filters.near.latitude.toFixed(5)},${filters.near.longitude.toFixed(5)}`);
    query.set("radiusKm", String(filters.radiusKm ?? 30));
  }
  const res = await fetch(`${apiBase}${SEARCH_PATH}?${query}`, { signal, credentials: "omit" });
  if (!res.ok) throw new Error(`search answered ${res.status}`);
  const body = (await res.json()) as { items: PublicRelayPoint[] };
  return body.items;
}
