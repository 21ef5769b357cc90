#!/usr/bin/env bash
# Stops the local high-availability stack started by start.sh: every process it recorded, by pid
# (SIGTERM, then SIGKILL after 10 s). `--clean` also removes its data directory.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/ha-env.sh"
[ -d "$HA_DIR/pids" ] || { echo "ha: nothing started in $HA_DIR"; exit 0; }
for file in "$HA_DIR"/pids/*; do
  [ -e "$file" ] || continue
  pid="$(cat "$file")"
  # setsid made each one the leader of its own process group: the group goes (Patroni's postgres too).
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
done
for _ in $(seq 1 20); do
  alive=0
  for file in "$HA_DIR"/pids/*; do [ -e "$file" ] && kill -0 -- "-$(cat "$file")" 2>/dev/null && alive=1; done
  [ "$alive" = 0 ] && break
  sleep 0.5
done
for file in "$HA_DIR"/pids/*; do
  [ -e "$file" ] || continue
  kill -KILL -- "-$(cat "$file")" 2>/dev/null || true
  rm -f "$file"
done
# A postgres left by a Patroni killed with -9 (kill.sh): its postmaster.pid says which.
for pidfile in "$HA_DIR"/pg/pg*/postmaster.pid; do
  [ -e "$pidfile" ] || continue
  kill -KILL "$(head -1 "$pidfile")" 2>/dev/null || true
done
if [ "${1:-}" = "--clean" ]; then rm -rf "$HA_DIR"; fi
echo "ha: stopped ($HA_DIR)"
