import fs from "node:fs";

export function readRssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+) kB/.exec(status);
    return kb ? Number(kb[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples the summed RSS of some processes every 200 ms; `stop` answers the peak in MB. */
export function sampleRss(pids: number[]): { stop: () => number } {
  let peak = 0;
  const sample = () => {
    peak = Math.max(
      peak,
      pids.reduce((sum, pid) => sum + readRssMb(pid), 0)
    );
  };
  sample();
  const timer = setInterval(sample, 200);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    }
  };
}
