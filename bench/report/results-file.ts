import fs from "node:fs";
import path from "node:path";
import { ROOT, runCommand } from "../proc";
import type { Results } from "./results";

export async function gitInfo(): Promise<Results["git"]> {
  const git = async (...args: string[]) => (await runCommand("git", args)).stdout.trim();
  return {
    sha: (await git("rev-parse", "--short", "HEAD")) || "unknown",
    dirty: (await git("status", "--porcelain", "--untracked-files=no")) !== "",
    branch: (await git("rev-parse", "--abbrev-ref", "HEAD")) || "unknown"
  };
}

/** bench/results/<date>T<time>-<sha>.json (git-ignored), so that two commits can be compared. */
export function defaultResultsPath(results: Results): string {
  const stamp = results.startedAt.replace(/:/g, "").replace(/\.\d+Z$/, "");
  return path.join(ROOT, "bench", "results", `${stamp}-${results.git.sha}${results.git.dirty ? "-dirty" : ""}.json`);
}

export function writeResults(results: Results, file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(results, null, 2) + "\n");
}
