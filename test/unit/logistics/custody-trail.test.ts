import { trailOf } from "../../../services/logistics/network/custody-trail";
import type { CustodyEntry } from "../../../services/logistics/network/network.params";

/** Issue 44 C: the hub's hand-off is scanned from both sides and reads as one entry of the trail. */

const entry = (scan: string, fields: Partial<CustodyEntry>): CustodyEntry => ({
  holder: "courier",
  holderId: null,
  since: "2026-12-06T10:00:00.000Z",
  givenBy: "hub",
  givenById: "hub-1",
  scan,
  hubId: "hub-1",
  confirmedBy: null,
  ...fields
});

test("a scan out then the courier's load is one hand-off: the taker named, confirmed by the courier", () => {
  const out = entry("hub.out", { confirmedBy: "hub:hub-1" });
  const load = entry("courier.load", { holderId: "courier-7", since: "2026-12-06T10:05:00.000Z" });
  expect(trailOf([out, load])).toEqual([{ ...out, holderId: "courier-7", confirmedBy: "courier:courier-7" }]);
});

test("a load alone, a scan out alone, or a load from another hub's scan out stand as they are", () => {
  const load = entry("courier.load", { holderId: "courier-7" });
  const out = entry("hub.out", {});
  expect(trailOf([load])).toEqual([load]);
  expect(trailOf([out])).toEqual([out]);
  const elsewhere = entry("courier.load", { holderId: "courier-7", givenById: "hub-2" });
  expect(trailOf([out, elsewhere])).toEqual([out, elsewhere]);
});
