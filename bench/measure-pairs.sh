#!/usr/bin/env bash
# The ruler itself, many times: ../shared/perf/measure.sh on two checkouts in turn (CLUSTER=0: the
# embedded rows and pgbench), PAIRS pairs, the order of each pair alternating, then each row's median
# and range per checkout, and each run's health and get ratios to the alias of the same run.
# One run of measure.sh differs from the next by ±15 % on this two-core VM, and a slow minute lowers
# every row of the run it falls in (the bare alias too, which runs none of our code): a claim of
# "unchanged or better" is made on medians of many runs, never on one pair.
#
# Usage: bench/measure-pairs.sh PAIRS BASE_CHECKOUT CHECKOUT   (measure.sh builds each checkout)
#   MEASURE   the ruler (default ../shared/perf/measure.sh beside this project)
# Needs wrk and Node >= 22. Each run takes about 75 s (its own build included).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
pairs=${1:?pairs}; base=${2:?base checkout}; head=${3:?checkout}
measure=${MEASURE:-$here/../shared/perf/measure.sh}
out=$(mktemp); trap 'rm -f "$out"' EXIT
for i in $(seq 1 "$pairs"); do
  order=("$base" "$head"); [ $((i % 2)) = 0 ] && order=("$head" "$base")
  for dir in "${order[@]}"; do
    side=base; [ "$dir" = "$head" ] && side=head
    echo "pair $i: $side ($(date +%T))" >&2
    CLUSTER=0 bash "$measure" "$dir" 2>/dev/null | sed "s/^/$side /" >> "$out"
  done
done
node - "$out" "$base" "$head" <<'EOF'
const fs = require("fs");
const [file, base, head] = process.argv.slice(2);
const runs = { base: [], head: [] };
let current = {};
for (const line of fs.readFileSync(file, "utf8").split("\n")) {
  const [side, name, value] = line.split(" ");
  if (!value || !/^\d+$/.test(value)) continue;
  if (name === "bare-node-http") runs[side].push((current = {}));
  current[name] = Number(value);
}
const median = xs => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const rows = ["bare-moleculer-web", "health-embedded", "get-by-id-embedded", "create-embedded", "pgbench-simple-update", "rss-embedded-mb"];
const pct = (a, b) => (b ? (100 * a) / b : 0);
const ratio = (r, name) => pct(r[name], r["bare-moleculer-web"]);
const cell = (xs, digits = 0) =>
  xs.length ? `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})` : "–";
console.log(`| row | ${base} (${runs.base.length} runs) | ${head} (${runs.head.length} runs) |\n|---|---|---|`);
for (const name of rows) console.log(`| ${name} | ${cell(runs.base.map(r => r[name] ?? 0))} | ${cell(runs.head.map(r => r[name] ?? 0))} |`);
for (const name of ["health-embedded", "get-by-id-embedded"]) {
  const show = side => runs[side].map(r => ratio(r, name));
  console.log(`| ${name} % of the alias | ${cell(show("base"), 1)} | ${cell(show("head"), 1)} |`);
}
EOF
