import { parseScale } from "./scale/scale";
/** What `npm run bench -- …` was asked for. */
export interface BenchOptions {
  command: "run" | "compare" | "profile" | "help" | "scale";
  short: boolean;
  /** Only the load rows (scenarios/load-rows.ts): fixed counts of creates, 5xx, deadlocks, money invariant. */
  load: boolean;
  reps: number;
  /** Length of one measured load, in seconds. */
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** Requests per second of the constant-rate runs: this fraction of the row's measured maximum. */
  constantRateFraction: number;
  webhookEvents: number;
  growthSizes: number[];
  modes: Array<"embedded" | "distributed">;
  logLevel: string;
  compareFiles: string[];
  out: string | null;
  /** Issue 48, --scale: parcels grown in SQL (bench/scale/), and --json: where its table goes. */
  scale: number;
  json: string | null;
  /** With --scale: leave relay_scale for a later run (--keep), or only seed it (--seed-only). */
  keep: boolean;
  seedOnly: boolean;
}

export const USAGE = `npm run bench [-- options]

  (no option)          full run: 3 repetitions of 10 s per figure, growth at 1k/10k/100k parcels (about 25 minutes)
  --short              1 repetition of 2 s per figure, growth at 1k/100k (under 2 minutes): checks the tool, not the code
  --load               only the load rows: 10,000 creates at c64 on start:cluster and 3,000 embedded, each
                       reporting its 5xx, the deadlocks in the system's log and the money invariant (a few minutes)
  --only embedded|distributed
  --reps N             repetitions per figure (the median is printed)
  --seconds S          length of one measured load
  --scale 1m|10m       grow a database of that many parcels in SQL (relay_scale on the local PostgreSQL, dropped
                       after), then print each read's plan check (literal and prepared), the bytes per parcel, and each
                       row's requests/s on the distributed system there beside an empty database
  --json FILE          with --scale: the table as JSON
  --keep               with --scale: leave relay_scale in place; a later --scale of the same count reuses it
  --seed-only          with --scale: seed relay_scale (or find it kept) and stop; measure later on a quiet machine
                       (--reps N: rounds of the rate rows, each side's median printed; default 3)
  --connections C      concurrency of every load and baseline (default 16)
  --log-level L        LOG_LEVEL of the system and of the bare moleculer-web baseline (default warn, as in production:
                       no line per request in either)
  --out FILE           where to write the JSON results (default bench/results/<date>-<git sha>.json)
  --profile            CPU-profile the embedded process under each load; writes .cpuprofile files and prints the top costs
  --compare A.json B.json   print two result files side by side
`;

function numberAfter(args: string[], i: number, name: string): number {
  const value = Number(args[i + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} needs a positive number`);
  return value;
}

export function parseOptions(args: string[]): BenchOptions {
  const short = args.includes("--short");
  const options: BenchOptions = {
    command: "run",
    short,
    load: args.includes("--load"),
    reps: short ? 1 : 3,
    seconds: short ? 2 : 10,
    warmupSeconds: short ? 1 : 3,
    connections: 16,
    constantRateFraction: 0.5,
    webhookEvents: short ? 100 : 1000,
    growthSizes: short ? [1_000, 100_000] : [1_000, 10_000, 100_000],
    modes: ["embedded", "distributed"],
    logLevel: "warn",
    compareFiles: [],
    out: null,
    scale: 0,
    json: null,
    keep: args.includes("--keep"),
    seedOnly: args.includes("--seed-only")
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    switch (arg) {
      case "--short":
      case "--load":
      case "--keep":
      case "--seed-only":
        break;
      case "--help":
      case "-h":
        options.command = "help";
        break;
      case "--profile":
        options.command = "profile";
        break;
      case "--compare":
        options.command = "compare";
        options.compareFiles = args.slice(i + 1, i + 3);
        if (options.compareFiles.length !== 2) throw new Error("--compare needs two result files");
        i += 2;
        break;
      case "--only": {
        const mode = args[++i];
        if (mode !== "embedded" && mode !== "distributed") throw new Error("--only takes embedded or distributed");
        options.modes = [mode];
        break;
      }
      case "--reps":
        options.reps = Math.round(numberAfter(args, i++, arg));
        break;
      case "--seconds":
        options.seconds = numberAfter(args, i++, arg);
        break;
      case "--connections":
        options.connections = Math.round(numberAfter(args, i++, arg));
        break;
      case "--log-level":
        options.logLevel = args[++i] ?? "warn";
        break;
      case "--scale":
        options.command = "scale";
        options.scale = parseScale(args[++i] ?? "");
        break;
      case "--json":
        options.json = args[++i] ?? null;
        break;
      case "--out":
        options.out = args[++i] ?? null;
        break;
      default:
        throw new Error(`unknown option ${arg}\n\n${USAGE}`);
    }
  }
  return options;
}
