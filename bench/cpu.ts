import fs from "node:fs";

/**
 * CPU used by each process of the system (and by the shared servers) during one load, in cores:
 * on a 2-core machine it shows which process saturates first. Read from /proc/<pid>/stat
 * (utime + stime, in clock ticks of 1/100 s on Linux).
 */
const TICKS_PER_SECOND = 100;

export interface CpuWatch {
  label: string;
  /** Resolved at the start and at the end of the load (database backends come and go). */
  pids: () => number[];
}

function ticksOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces; the fields after it are counted from its ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Processes whose command line contains `needle` (e.g. a PostgreSQL backend serving our database). */
export function pidsMatching(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ").includes(needle)) pids.push(Number(entry));
    } catch {
      // gone already
    }
  }
  return pids;
}

export function meterCpu(watches: CpuWatch[]): { stop: () => Record<string, number> } {
  const startedAt = process.hrtime.bigint();
  const before = watches.map(w => new Map(w.pids().map(pid => [pid, ticksOf(pid)])));
  return {
    stop() {
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      const cores: Record<string, number> = {};
      watches.forEach((watch, i) => {
        const pids = new Set([...before[i].keys(), ...watch.pids()]);
        let ticks = 0;
        for (const pid of pids) ticks += Math.max(0, ticksOf(pid) - (before[i].get(pid) ?? 0));
        cores[watch.label] = ticks / TICKS_PER_SECOND / seconds;
      });
      return cores;
    }
  };
}

/**
 * Processes whose environment holds the entry `exact` (`NAME=value`) and an entry containing
 * `contains` (e.g. a database name): the processes of one `start:cluster`, told apart by their
 * `SERVICES` (the cluster gives each child its own), so that CPU per create is shown by process.
 */
export function pidsWithEnvironment(exact: string, contains: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environment = fs.readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      if (environment.includes(exact) && environment.some(e => e.includes(contains))) pids.push(Number(entry));
    } catch {
      // gone already, or not ours to read
    }
  }
  return pids;
}
