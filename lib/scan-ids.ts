import { createHash } from "node:crypto";

/**
 * The scan id of a status change the logistics service asks of parcels, derived from what caused
 * it (a pickup and a parcel, a scan and a parcel): a retry of the same request asks with the same
 * id, so parcels applies it once (parcels.applyNetworkScans is idempotent by scan id).
 */
export function scanIdOf(...parts: string[]): string {
  const hex = createHash("sha256").update(parts.join("\u0000")).digest("hex");
  // Shaped as a version-5-like uuid (the variant and version bits set), which Joi's guid() accepts.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
