import { parseOptions } from "../../bench/options";
import { deepPageRatio, medianRows, RateRow, rateJson, rateTable, ratioOf } from "../../bench/scale/rate-table";

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

  it("keeps the seeded database with --keep, and only seeds it with --seed-only", () => {
    expect(parseOptions(["--scale", "10m"])).toMatchObject({ keep: false, seedOnly: false, reps: 3 });
    expect(parseOptions(["--scale", "10m", "--keep", "--reps", "5"])).toMatchObject({ keep: true, seedOnly: false, reps: 5 });
    expect(parseOptions(["--seed-only", "--scale", "10m"])).toMatchObject({ command: "scale", seedOnly: true });
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

/** Issue 48: rounds of the rate rows fold into each side's median, so one bad 5 s load does not decide a ratio. */
describe("the scale bench's rounds", () => {
  const round = (empty: number, scaled: number, errors = 0): RateRow[] => [{ row: "get by id", empty, scaled, errors }];

  it("keeps each side's median and sums the errors", () => {
    expect(medianRows([round(900, 100, 1), round(1000, 950), round(1100, 990, 2)])).toEqual([
      { row: "get by id", empty: 1000, scaled: 950, errors: 3 }
    ]);
  });

  it("takes the mean of the middle two of an even count", () => {
    expect(medianRows([round(900, 800), round(1000, 1000)])[0]).toMatchObject({ empty: 950, scaled: 900 });
  });

  it("refuses rounds that list different rows", () => {
    expect(() => medianRows([round(1, 1), [{ row: "other", empty: 1, scaled: 1, errors: 0 }]])).toThrow(/different rows/);
  });
});

/** Issue 48: the SPEC's page=2000 is judged against its own first page on the scaled database (at least 0.25). */
describe("the scale bench's deep-page ratio", () => {
  it("is page=2000's scaled rate over the first page's", () => {
    const rows: RateRow[] = [
      { row: "list, first page", empty: 900, scaled: 800, errors: 0 },
      { row: "list, page=2000 (SPEC)", empty: 1000, scaled: 200, errors: 0 }
    ];
    expect(deepPageRatio(rows)).toBe(0.25);
    expect(deepPageRatio(rows.slice(0, 1))).toBeNull();
  });
});
