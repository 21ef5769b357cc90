import { isOffRoute, sortLine } from "../../services/logistics/exceptions/route";

/** Decision 0058: which hubs are on a parcel's route, and what the sort station's line says. */
describe("a parcel's route: the hubs of its origin's and its destination's wilayas", () => {
  const route = { originWilaya: "16", relayWilaya: "31" };

  test("the origin's and the destination's hubs are on the route; any other wilaya's is off it", () => {
    expect(isOffRoute("16", route)).toBe(false);
    expect(isOffRoute("31", route)).toBe(false);
    expect(isOffRoute("09", route)).toBe(true);
  });

  test("an origin not known yet: the first hub is where it entered; a destination not known: never a mis-sort", () => {
    expect(isOffRoute("09", { originWilaya: null, relayWilaya: "31" })).toBe(false);
    expect(isOffRoute("09", { originWilaya: "16", relayWilaya: null })).toBe(false);
  });

  test("the line: the bin at the destination's hub, the way to its wilaya elsewhere, the mis-sort sent on", () => {
    expect(sortLine("31", "DZ-31-ORAN-CENTRE", route, false)).toBe("BAC DZ-31-ORAN-CENTRE — tournée wilaya 31");
    expect(sortLine("16", "DZ-31-ORAN-CENTRE", route, false)).toBe("VERS WILAYA 31 — DZ-31-ORAN-CENTRE");
    expect(sortLine("09", "DZ-31-ORAN-CENTRE", route, true)).toBe("ERREUR DE TRI — renvoyer vers WILAYA 31 — DZ-31-ORAN-CENTRE");
  });
});
