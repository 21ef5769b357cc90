#!/usr/bin/env bash
# Chaos helper for the local high-availability stack: kill -9 one member.
#   kill.sh pg-primary   the Patroni leader and its postgres (a lost machine: Patroni cannot
#                        restart it in place, a replica is promoted)
#   kill.sh nats N       NATS server N (1..3)
#   kill.sh redis        the stack's Redis
#   kill.sh revive NAME  start a killed member again (pg1..pg3, nats1..nats3, redis)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/ha-env.sh"
read -r -a rest_ports <<<"$HA_PATRONI_PORTS"

kill_group() { kill -KILL -- "-$(cat "$HA_DIR/pids/$1")" 2>/dev/null || true; }

case "${1:-}" in
  pg-primary)
    for i in 0 1 2; do
      if curl -sf "http://127.0.0.1:${rest_ports[$i]}/primary" >/dev/null; then
        name="pg$((i + 1))"
        # Patroni, then its postmaster (in its own process group too: pg_ctl starts it so).
        postmaster="$(head -1 "$HA_DIR/pg/$name/postmaster.pid" 2>/dev/null || true)"
        kill_group "$name"
        [ -n "$postmaster" ] && kill -KILL "$postmaster" 2>/dev/null || true
        echo "$name"
        exit 0
      fi
    done
    echo "ha: no primary to kill" >&2; exit 1 ;;
  nats) kill_group "nats${2:?which NATS node, 1..3}"; echo "nats$2" ;;
  redis) kill_group redis; echo redis ;;
  revive)
    name="${2:?which member}"
    case "$name" in
      pg*) rm -f "$HA_DIR/pg/$name/postmaster.pid"
           ha_spawn "$name" runuser -u "$HA_PG_USER" -- patroni "$HA_DIR/conf/$name.yml" ;;
      nats*)
        i="${name#nats}"; read -r -a nats_ports <<<"$HA_NATS_PORTS"; read -r -a route_ports <<<"$HA_NATS_ROUTE_PORTS"
        routes=""; for p in "${route_ports[@]}"; do routes="${routes:+$routes,}nats://127.0.0.1:$p"; done
        ha_spawn "$name" nats-server --name "relay-ha-$name" -a 127.0.0.1 -p "${nats_ports[$((i - 1))]}" \
          --cluster_name relay-ha --cluster "nats://127.0.0.1:${route_ports[$((i - 1))]}" --routes "$routes" ;;
      redis) ha_spawn redis redis-server --port "$HA_REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$HA_DIR/redis" ;;
      *) echo "ha: unknown member $name" >&2; exit 2 ;;
    esac
    echo "$name" ;;
  *) sed -n '2,8p' "$0" >&2; exit 2 ;;
esac
