import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { transformSync } from "esbuild";
import { keepTickObjectShape } from "../../bin/tick-object-shape";

/** What a child process prints after full GCs: does a tick object made then share the kept one's hidden class? */
const CHILD = `
const { keepTickObjectShape } = require(process.argv[2]);
const { createHook } = require("node:async_hooks");
const kept = keepTickObjectShape();
// A quiet moment: no tick object but the kept one is alive through two full GCs.
gc(); gc();
let fresh = null;
const hook = createHook({ init(_id, type, _trigger, resource) { if (type === "TickObject") fresh = resource; } });
hook.enable(); process.nextTick(() => {}); hook.disable();
console.log(JSON.stringify({ kept: kept !== null, sameMap: kept !== null && fresh !== null && %HaveSameMap(kept, fresh) }));
`;

describe("the kept tick object (decision 0046)", () => {
  it("is one of the objects process.nextTick queues, caught once per process", () => {
    const kept = keepTickObjectShape();
    expect(kept).not.toBeNull();
    const symbols = Object.getOwnPropertySymbols(kept).map(symbol => symbol.description);
    expect(symbols).toContain("async_id_symbol");
    expect(typeof (kept as { callback?: unknown }).callback).toBe("function");
    expect(keepTickObjectShape()).toBe(kept);
  });

  it("gives the tick objects made after full GCs the same hidden class", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tick-shape-"));
    try {
      const source = readFileSync(path.join(__dirname, "../../bin/tick-object-shape.ts"), "utf8");
      const module = path.join(dir, "tick-object-shape.js");
      writeFileSync(module, transformSync(source, { loader: "ts", format: "cjs" }).code);
      const child = path.join(dir, "child.js");
      writeFileSync(child, CHILD);
      const out = execFileSync(process.execPath, ["--allow-natives-syntax", "--expose-gc", child, module], { encoding: "utf8" });
      expect(JSON.parse(out)).toEqual({ kept: true, sameMap: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
