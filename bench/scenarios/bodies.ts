import type { Merchant } from "../systems/merchant";
import type { RunningSystem } from "../systems/system";

/** The system's own answers, for the baseline servers to repeat byte for byte (same size, same shape). */
export async function captureBodies(
  system: RunningSystem,
  merchant: Merchant,
  parcelId: string
): Promise<{ health: string; parcel: string }> {
  const get = async (path: string) => {
    const res = await fetch(`${system.baseUrl}/api/partner/v1${path}`, { headers: { Authorization: `ApiKey ${merchant.liveKey}` } });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
    return res.text();
  };
  return { health: await get("/health"), parcel: await get(`/parcels/${parcelId}`) };
}
