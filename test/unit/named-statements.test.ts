import { named, textOf } from "../../lib/db/statement";
import { sizeBucket } from "../../services/parcels/group-sizes";

describe("named statements (lib/db/statement.ts)", () => {
  test("a name keeps its text: the same text again is the same statement, another text under it is refused", () => {
    const first = named("test_named_once", "SELECT 1");
    expect(named("test_named_once", "SELECT 1")).toEqual(first);
    expect(() => named("test_named_once", "SELECT 2")).toThrow(/already used/);
    expect(textOf(first)).toBe("SELECT 1");
    expect(textOf("SELECT 3")).toBe("SELECT 3");
  });
});

describe("create group size buckets (services/parcels/group-sizes.ts)", () => {
  test("1 and 2 alone, then powers of two up to 64, then 65+", () => {
    expect([1, 2, 3, 4, 5, 8, 9, 16, 17, 33, 64, 65, 1000].map(sizeBucket)).toEqual([
      "1",
      "2",
      "3-4",
      "3-4",
      "5-8",
      "5-8",
      "9-16",
      "9-16",
      "17-32",
      "33-64",
      "33-64",
      "65+",
      "65+"
    ]);
  });
});
