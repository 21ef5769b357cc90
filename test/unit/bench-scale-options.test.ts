import { parseOptions } from "../../bench/options";

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
