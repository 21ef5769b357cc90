import { AliasIndex } from "../../../services/gateway/alias-index";
import { accessLogWritten } from "../../../services/gateway/access-log";

const alias = (method: string, fullPath: string) => ({ method, fullPath, isMethod: (m: string) => method === "*" || method === m });

describe("the aliases a request could match", () => {
  test("by method, in their order, each with the literal start of its path", () => {
    const aliases = [
      alias("GET", "/api/partner/v1/health"),
      alias("POST", "/api/partner/v1/parcels"),
      alias("GET", "/api/Partner/v1/parcels/:id"),
      alias("*", "/labels/:file")
    ];
    const index = new AliasIndex<(typeof aliases)[number]>();
    expect(index.candidates(aliases, "GET").map(c => [c.alias.fullPath, c.prefix])).toEqual([
      ["/api/partner/v1/health", "/api/partner/v1/health"],
      ["/api/Partner/v1/parcels/:id", "/api/partner/v1/parcels/"],
      ["/labels/:file", "/labels/"]
    ]);
    expect(index.candidates(aliases, "POST").map(c => c.alias.fullPath)).toEqual(["/api/partner/v1/parcels", "/labels/:file"]);
  });

  test("follows the list when it is replaced, grows, or is sorted again", () => {
    const index = new AliasIndex<ReturnType<typeof alias>>();
    const aliases = [alias("GET", "/b"), alias("GET", "/a")];
    expect(index.candidates(aliases, "GET").map(c => c.prefix)).toEqual(["/b", "/a"]);
    aliases.push(alias("GET", "/c"));
    expect(index.candidates(aliases, "GET").map(c => c.prefix)).toEqual(["/b", "/a", "/c"]);
    aliases.sort((x, y) => x.fullPath.localeCompare(y.fullPath));
    index.invalidate();
    expect(index.candidates(aliases, "GET").map(c => c.prefix)).toEqual(["/a", "/b", "/c"]);
    expect(index.candidates([alias("GET", "/d")], "GET").map(c => c.prefix)).toEqual(["/d"]);
  });
});

describe("the access line", () => {
  test("is written at info and below, not at warn (production)", () => {
    expect(accessLogWritten("info")).toBe(true);
    expect(accessLogWritten("debug")).toBe(true);
    expect(accessLogWritten("warn")).toBe(false);
    expect(accessLogWritten("error")).toBe(false);
  });
});
