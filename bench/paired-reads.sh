#!/usr/bin/env bash
# The paired ruler for GET /health and GET /parcels/{id} (docs/development/benchmarks.md): the bare
# moleculer-web alias of shared/perf and one embedded server per checkout, all up at once, each
# loaded in turn (wrk c16, SECS s) for ROUNDS rounds. Each window is divided by the same round's
# alias, so a machine whose speed moves from minute to minute still compares the checkouts.
#
# Usage: bench/paired-reads.sh ROUNDS CHECKOUT...   (each checkout built: npm run build)
#   BARE_ALIAS   shared/perf/bare-moleculer-web.js (default ../shared/perf/ beside this project)
#   SECS         seconds per window (default 3)
# Needs wrk and Node >= 22. Prints each checkout's medians and each round's ratios.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:?rounds}; shift; checkouts=("$@"); [ ${#checkouts[@]} -gt 0 ] || { echo "name at least one checkout" >&2; exit 2; }
alias_js=${BARE_ALIAS:-$here/../shared/perf/bare-moleculer-web.js}; secs=${SECS:-3}
token=paired-backoffice-token-0123456789abcdef
work=$(mktemp -d); pids=()
cleanup() { for p in "${pids[@]}"; do kill -- -"$p" 2>/dev/null; done; rm -rf "$work"; }
trap cleanup EXIT
port() { echo $((31000 + $1)); }
json() { node -pe "JSON.parse(require('fs').readFileSync(0)).$1"; }

setsid node "$alias_js" "$(port 0)" "$here" > /dev/null 2>&1 & pids+=($!)
for i in "${!checkouts[@]}"; do
  p=$(port $((i + 1))); mkdir -p "$work/$i"
  (cd "${checkouts[$i]}" && PORT=$p DATA_DIR="$work/$i" LOG_LEVEL=warn RATE_LIMIT_PER_MINUTE=1000000 BACKOFFICE_TOKEN=$token \
    PUBLIC_BASE_URL=http://127.0.0.1:$p exec setsid node dist/bin/start.js) > "$work/$i.log" 2>&1 & pids+=($!)
done
for i in "${!checkouts[@]}"; do
  b=http://127.0.0.1:$(port $((i + 1))); T="Authorization: Bearer $token"; J="content-type: application/json"
  for _ in $(seq 1 240); do [ "$(curl -s -o /dev/null -w '%{http_code}' -H "$T" $b/api/backoffice/v1/relay-points)" = 200 ] && break; sleep 0.5; done
  org=$(curl -s -H "$T" -H "$J" -d '{"name":"Paired SARL"}' $b/api/backoffice/v1/organizations | json id)
  key=$(curl -s -H "$T" -H "$J" -d '{"mode":"live"}' $b/api/backoffice/v1/organizations/$org/api-keys | json key)
  curl -s -o /dev/null -H "$T" -H "$J" -d '{"amountDzd":100000}' $b/api/backoffice/v1/organizations/$org/wallet/top-ups
  parcel=$(curl -s -H "Authorization: ApiKey $key" -H "$J" \
    -d '{"recipientName":"Bench","recipientPhone":"0555 12 34 56","weightG":900,"destinationRelayCode":"DZ-16-ALGER-CENTRE"}' \
    $b/api/partner/v1/parcels | json id)
  printf '%s\n%s\n' "$key" "$parcel" > "$work/$i.key"
done

rps() { wrk -t1 -c16 -d"${secs}s" "$@" 2>/dev/null | awk '/Requests\/sec/ {print int($2)}'; }
window() { # window ROUND NAME URL [wrk args]
  local r=$1 name=$2; shift 2; echo "$r $name $(rps "$@")" >> "$work/windows"; }
warm=1; for r in $(seq 0 "$rounds"); do  # round 0 warms every server up and is not counted
  [ "$r" = 1 ] && warm=0 && : > "$work/windows"
  window "$r" alias http://127.0.0.1:$(port 0)/health
  for kind in health get; do
    for i in "${!checkouts[@]}"; do
      { read -r key; read -r parcel; } < "$work/$i.key"
      path=/api/partner/v1/health; [ $kind = get ] && path=/api/partner/v1/parcels/$parcel
      window "$r" "$kind:$(basename "${checkouts[$i]}")" -H "Authorization: ApiKey $key" http://127.0.0.1:$(port $((i + 1)))$path
    done
  done
done
[ $warm = 0 ] || exit 1
node -e '
const rows = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(l => l.split(" "));
const rounds = new Map(); for (const [r, name, v] of rows) { if (!rounds.has(r)) rounds.set(r, {}); rounds.get(r)[name] = +v; }
const median = xs => { const s = [...xs].sort((a, b) => a - b), m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const names = Object.keys([...rounds.values()][0]);
console.log("window".padEnd(24) + "median rps".padStart(11) + "  % of alias (median; each round)");
for (const name of names) {
  const all = [...rounds.values()].filter(w => w[name] && w.alias);
  const ratios = all.map(w => (100 * w[name]) / w.alias);
  console.log(name.padEnd(24) + String(Math.round(median(all.map(w => w[name])))).padStart(11) + "  " +
    median(ratios).toFixed(1).padStart(5) + " %  (" + ratios.map(x => x.toFixed(0)).join(" ") + ")");
}' "$work/windows"
