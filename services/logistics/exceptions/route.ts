/**
 * Decision 0058: a parcel's route through the network, and what a hub's sort line says. The
 * network sends a parcel from the hub of its origin's wilaya straight to the hub of its relay
 * point's wilaya (no transit hub between), so the only hubs on its route are those of these two
 * wilayas. Pure functions, no database.
 */

export interface Route {
  /** The wilaya (two digits) the parcel was collected in: its pickup's, else the first hub that scanned it in. */
  originWilaya: string | null;
  /** The destination relay point's wilaya; null for a point since removed (then nothing is off route). */
  relayWilaya: string | null;
}

/** Off route: neither the origin's nor the destination's wilaya. Unknown destination: never off route. */
export function isOffRoute(hubWilaya: string, route: Route): boolean {
  if (route.relayWilaya === null) return false;
  return hubWilaya !== route.relayWilaya && hubWilaya !== (route.originWilaya ?? hubWilaya);
}

/** The hub's one line: the bin of its own wilaya's run, the way to the destination's wilaya, or a mis-sort to send back. */
export function sortLine(hubWilaya: string, relayCode: string, route: Route, offRoute: boolean): string {
  const to = route.relayWilaya ?? "?";
  if (offRoute) return `ERREUR DE TRI — renvoyer vers WILAYA ${to} — ${relayCode}`;
  return route.relayWilaya === hubWilaya ? `BAC ${relayCode} — tournée wilaya ${hubWilaya}` : `VERS WILAYA ${to} — ${relayCode}`;
}
