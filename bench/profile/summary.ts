import type { Profiler, Runtime } from "node:inspector";

/** Where one CPU profile's time went, as shares of the busy (non-idle) time. */
export interface ProfileSummary {
  seconds: number;
  busyPercent: number;
  /** Self time by package (a node_modules package, a project folder, node core, GC, WebAssembly). */
  selfByPackage: Array<[string, number]>;
  selfByFunction: Array<[string, number]>;
  /** Time with the package anywhere on the stack. */
  inclusiveByPackage: Array<[string, number]>;
  /** Time with the project's function anywhere on the stack. */
  inclusiveProject: Array<[string, number]>;
  /** For the top self-time functions, the caller chain that accounts for most of their time. */
  callers: Array<{ fn: string; percent: number; chain: string; chainPercent: number }>;
}

const CHAIN_DEPTH = 5;

type Node = Profiler.ProfileNode;

function shortUrl(url: string): string {
  const nm = url.lastIndexOf("/node_modules/");
  if (nm >= 0) return url.slice(nm + "/node_modules/".length);
  const dist = url.lastIndexOf("/dist/");
  if (dist >= 0) return url.slice(dist + "/dist/".length);
  return url.replace(/^file:\/\//, "");
}

export function packageOf(frame: Runtime.CallFrame): string {
  const { url, functionName } = frame;
  if (functionName === "(garbage collector)") return "GC";
  if (functionName === "(program)") return "(program: V8/native)";
  if (url.startsWith("wasm://")) return "WebAssembly (PGlite)";
  const nm = url.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const parts = url.slice(nm + "/node_modules/".length).split("/");
    return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const dist = url.lastIndexOf("/dist/");
  if (dist >= 0) return `project ${url.slice(dist + "/dist/".length).split("/")[0]}/`;
  if (url.startsWith("node:")) {
    const name = url
      .replace(/^node:(internal\/)?/, "")
      .split("/")[0]
      .replace(/\.js$/, "");
    return `node:${name}`;
  }
  return url === "" ? "(V8 builtins)" : shortUrl(url);
}

function functionKey(frame: Runtime.CallFrame): string {
  const name = frame.functionName || "(anonymous)";
  return frame.url ? `${name} ${shortUrl(frame.url)}:${frame.lineNumber + 1}` : name;
}

/** Bottoms of nearly every stack (task queues, microtask runner): on the stack always, so never telling. */
const STACK_BOTTOMS = new Set(["node:process", "(V8 builtins)"]);

const isProject = (frame: Runtime.CallFrame) => frame.url.includes("/dist/") && !frame.url.includes("/node_modules/");

function top(map: Map<string, number>, busy: number, n: number): Array<[string, number]> {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => [k, (100 * v) / busy]);
}

export function summarise(profile: Profiler.Profile, n = 12): ProfileSummary {
  const byId = new Map<number, Node>(profile.nodes.map(node => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const stacks = new Map<number, { functions: Set<string>; packages: Set<string> }>();
  const stackOf = (id: number) => {
    let stack = stacks.get(id);
    if (stack) return stack;
    const functions = new Set<string>();
    const packages = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = (byId.get(at) as Node).callFrame;
      if (frame.functionName === "(root)") continue;
      packages.add(packageOf(frame));
      if (isProject(frame)) functions.add(functionKey(frame));
    }
    stack = { functions, packages };
    stacks.set(id, stack);
    return stack;
  };

  const selfPackage = new Map<string, number>();
  const selfFunction = new Map<string, number>();
  const inclusivePackage = new Map<string, number>();
  const inclusiveProject = new Map<string, number>();
  const chains = new Map<string, Map<string, number>>();
  const chainOf = (id: number): string => {
    const names: string[] = [];
    for (let at = parent.get(id); at !== undefined && names.length < CHAIN_DEPTH; at = parent.get(at)) {
      const frame = (byId.get(at) as Node).callFrame;
      if (frame.functionName === "(root)") break;
      names.push(`${frame.functionName || "(anonymous)"} [${packageOf(frame)}]`);
    }
    return names.join(" ← ");
  };
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  let total = 0;
  let idle = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const us = deltas[i + 1] ?? deltas[i] ?? 0;
    const frame = (byId.get(samples[i]) as Node).callFrame;
    total += us;
    if (frame.functionName === "(idle)") {
      idle += us;
      continue;
    }
    add(selfPackage, packageOf(frame), us);
    add(selfFunction, functionKey(frame), us);
    const byChain = chains.get(functionKey(frame)) ?? new Map<string, number>();
    add(byChain, chainOf(samples[i]), us);
    chains.set(functionKey(frame), byChain);
    const stack = stackOf(samples[i]);
    stack.packages.forEach(p => STACK_BOTTOMS.has(p) || add(inclusivePackage, p, us));
    stack.functions.forEach(f => add(inclusiveProject, f, us));
  }
  const busy = Math.max(1, total - idle);
  const callers = top(selfFunction, busy, 8).map(([fn, percent]) => {
    const [chain, us] = [...(chains.get(fn) ?? new Map<string, number>()).entries()].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
    return { fn, percent, chain, chainPercent: (100 * us) / busy };
  });
  return {
    seconds: total / 1e6,
    busyPercent: total > 0 ? (100 * (total - idle)) / total : 0,
    selfByPackage: top(selfPackage, busy, n),
    selfByFunction: top(selfFunction, busy, n),
    inclusiveByPackage: top(inclusivePackage, busy, n),
    inclusiveProject: top(inclusiveProject, busy, n),
    callers
  };
}

export function formatSummary(title: string, s: ProfileSummary): string {
  const list = (entries: Array<[string, number]>) => entries.map(([k, v]) => `    ${v.toFixed(1).padStart(5)} %  ${k}`).join("\n");
  return [
    `== ${title}: ${s.seconds.toFixed(1)} s sampled, process busy ${s.busyPercent.toFixed(0)} % of it (shares below are of the busy time)`,
    "  self time by package:",
    list(s.selfByPackage),
    "  self time by function:",
    list(s.selfByFunction),
    "  on the stack, by package (inclusive):",
    list(s.inclusiveByPackage),
    "  on the stack, project functions (inclusive, synchronous part only):",
    list(s.inclusiveProject),
    "  who calls the top self-time functions (heaviest chain):",
    ...s.callers.map(
      c => `    ${c.percent.toFixed(1).padStart(5)} %  ${c.fn}\n             ${c.chainPercent.toFixed(1)} % via ← ${c.chain}`
    )
  ].join("\n");
}
