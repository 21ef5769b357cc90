import { DEFAULT_PRINT_OPTIONS, maxStartOffset, readPrintOptions, startOffsetProblem } from "../../lib/labels/print-options";

describe("print options of a label download", () => {
  it.each([
    [{}, { format: "a6", startOffset: 0 }],
    [
      { format: "", startOffset: "" },
      { format: "a6", startOffset: 0 }
    ],
    [{ format: "a6" }, { format: "a6", startOffset: 0 }],
    [
      { format: "4x6", startOffset: "0" },
      { format: "4x6", startOffset: 0 }
    ],
    [{ format: "zpl" }, { format: "zpl", startOffset: 0 }],
    [{ format: "a4" }, { format: "a4", startOffset: 0 }],
    [
      { format: "a4", startOffset: "3" },
      { format: "a4", startOffset: 3 }
    ]
  ])("reads %j", (query, options) => {
    expect(readPrintOptions(query)).toEqual({ options });
  });

  it("defaults to the A6 PDF that labelUrl serves", () => {
    expect(DEFAULT_PRINT_OPTIONS).toEqual({ format: "a6", startOffset: 0 });
  });

  it.each([
    [{ format: "A4" }, ["format"]],
    [{ format: "pdf" }, ["format"]],
    [{ format: ["a4", "zpl"] }, ["format"]],
    [{ format: "a4", startOffset: "4" }, ["startOffset"]],
    [{ format: "a4", startOffset: "-1" }, ["startOffset"]],
    [{ format: "a4", startOffset: "01" }, ["startOffset"]],
    [{ format: "a4", startOffset: "1.0" }, ["startOffset"]],
    [{ format: "a4", startOffset: ["1", "2"] }, ["startOffset"]],
    [{ format: "a6", startOffset: "1" }, ["startOffset"]],
    [{ format: "4x6", startOffset: "2" }, ["startOffset"]],
    [{ format: "zpl", startOffset: "3" }, ["startOffset"]],
    [{ startOffset: "1" }, ["startOffset"]],
    [{ format: "a5", startOffset: "x" }, ["format", "startOffset"]]
  ])("refuses %j, naming %j", (query, fields) => {
    const read = readPrintOptions(query);
    expect("problems" in read && read.problems.map(p => p.field)).toEqual(fields);
  });

  it("says what a start offset is for, per format", () => {
    expect([maxStartOffset("a4"), maxStartOffset("a6"), maxStartOffset("4x6"), maxStartOffset("zpl")]).toEqual([3, 0, 0, 0]);
    expect(startOffsetProblem("a4", 3)).toBeNull();
    expect(startOffsetProblem("a4", 4)?.message).toMatch(/0 to 3/);
    expect(startOffsetProblem("a6", 1)?.message).toMatch(/only applies to A4/);
  });
});
