import { parseOptions } from "../../bench/options";
import { RateRow, rateJson, rateTable, ratioOf } from "../../bench/scale/rate-table";

/** Issue 48: `npm run bench -- --scale 10m --json FILE` asks for the scale run, and a bad count is refused. */
describe("the bench's --scale option", () => {
  it.each([
    ["100k", 100_000],
    ["1m", 1_000_000],
    ["10m", 10_000_000],
    ["2.5M", 2_500_000]
  ])("--scale %s is %d parcels", (text, parcels) => {
    expect(parseOptions(["--scale", text, "--json", "out.json"])).toMatchObject({ command: "scale", scale: parcels, json: "out.json" });
  });

  it("refuses what is not a count", () => {
    expect(() => parseOptions(["--scale", "lots"])).toThrow(/--scale takes a count/);
    expect(() => parseOptions(["--scale"])).toThrow(/--scale takes a count/);
  });
});

/** Issue 48: the rate table says each row's empty and scaled rates and their ratio; the JSON has one object per row. */
describe("the scale bench's rate table", () => {
  const rows: RateRow[] = [
    { row: "get by id", empty: 3100.4, scaled: 2950.2, errors: 0 },
    { row: "list, page=2000 (SPEC)", empty: 3000, scaled: 1500, errors: 3 }
  ];

  it("prints row | empty rps | scaled rps | ratio, errors said beside the ratio", () => {
    expect(rateTable(rows).split("\n")).toEqual([
      "| row | empty rps | scaled rps | ratio |",
      "|---|---:|---:|---:|",
      "| get by id | 3,100 | 2,950 | 0.95 |",
      "| list, page=2000 (SPEC) | 3,000 | 1,500 | 0.50 (3 errors) |"
    ]);
  });

  it("writes one object per row with row, empty, scaled and the bytes per parcel", () => {
    expect(rateJson(rows, 3408)).toEqual([
      { row: "get by id", empty: 3100, scaled: 2950, ratio: 0.952, errors: 0, bytesPerParcel: 3408 },
      { row: "list, page=2000 (SPEC)", empty: 3000, scaled: 1500, ratio: 0.5, errors: 3, bytesPerParcel: 3408 }
    ]);
  });

  it("gives a row that answered nothing on the empty database a ratio of 0, not a division by zero", () => {
    expect(ratioOf({ row: "x", empty: 0, scaled: 10, errors: 0 })).toBe(0);
  });
});
