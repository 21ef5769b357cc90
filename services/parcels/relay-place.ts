import { findCommune } from "../../lib/communes";
import { AppError } from "../../lib/errors";
import { findWilaya, formerWilayaOf } from "../../lib/wilayas";

/**
 * Where a relay point stands on the map, from what the back-office sent (issue 47): its commune,
 * when given, decides its wilaya (a wilaya sent beside it must be the same one), and a point in one
 * of the eleven wilayas of 2026 carries the wilaya it was carved from as `formerWilaya`, so that a
 * search by the old wilaya still finds it (decision 0048).
 */

export interface RelayPlace {
  wilaya: string | null;
  commune: string | null;
  formerWilaya: string | null;
}

const named = (code: string) => `${code} (${findWilaya(code)?.name ?? "?"})`;

/**
 * The point's wilaya, commune and former wilaya; COMMUNE_NOT_IN_WILAYA when the commune lies elsewhere.
 * A former wilaya sent back (a point read from the list) must be the one that follows.
 */
export function placeRelayPoint(sent: { wilaya: string | null; commune: string | null; formerWilaya?: string | null }): RelayPlace {
  const commune = sent.commune === null ? undefined : findCommune(sent.commune);
  if (sent.commune !== null && !commune) {
    const details = [{ field: "commune", message: `commune ${sent.commune} is not the code of a commune` }];
    throw new AppError("VALIDATION_FAILED", "The request is not valid", { details });
  }
  const wilaya = commune?.wilaya ?? sent.wilaya;
  if (commune && sent.wilaya !== null && sent.wilaya !== commune.wilaya) {
    const moved = formerWilayaOf(commune.wilaya) === sent.wilaya ? " since law 26-06 of 2026" : "";
    const message =
      `Commune ${commune.code} (${commune.name}) is in wilaya ${named(commune.wilaya)}${moved}, not ${named(sent.wilaya)}: ` +
      `send wilaya ${commune.wilaya}, or leave wilaya out`;
    throw new AppError("COMMUNE_NOT_IN_WILAYA", message, { details: [{ field: "wilaya", message }] });
  }
  const formerWilaya = formerWilayaOf(wilaya);
  if (sent.formerWilaya !== undefined && sent.formerWilaya !== formerWilaya) {
    const message = `formerWilaya follows from the wilaya: ${formerWilaya === null ? "null" : formerWilaya} for wilaya ${wilaya}`;
    throw new AppError("VALIDATION_FAILED", "The request is not valid", { details: [{ field: "formerWilaya", message }] });
  }
  return { wilaya, commune: commune?.code ?? null, formerWilaya };
}
