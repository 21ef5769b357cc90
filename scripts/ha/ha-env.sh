# Shared by start.sh, stop.sh and kill.sh: where the local high-availability stack lives and
# listens (issue 46). Its own ports and data directory: the machine's own PostgreSQL (5432),
# Redis (6379) and NATS (4222) are never touched.
HA_DIR="${HA_DIR:-${TMPDIR:-/tmp}/relay-parcels-ha}"
HA_ETCD_PORT="${HA_ETCD_PORT:-23790}"
HA_PG_PORT="${HA_PG_PORT:-5440}"            # HAProxy: always the primary
HA_PG_NODE_PORTS="${HA_PG_NODE_PORTS:-5441 5442 5443}"
HA_PATRONI_PORTS="${HA_PATRONI_PORTS:-8101 8102 8103}"
HA_NATS_PORTS="${HA_NATS_PORTS:-4231 4232 4233}"
HA_NATS_ROUTE_PORTS="${HA_NATS_ROUTE_PORTS:-6231 6232 6233}"
HA_REDIS_PORT="${HA_REDIS_PORT:-6390}"
HA_PG_BIN="${HA_PG_BIN:-/usr/lib/postgresql/15/bin}"
# PostgreSQL refuses to run as root: the nodes run as this user.
HA_PG_USER="${HA_PG_USER:-postgres}"

ha_database_url() { echo "postgres://postgres:relay-ha@127.0.0.1:${HA_PG_PORT}/relay"; }
ha_transporter() {
  local urls="" port
  for port in $HA_NATS_PORTS; do urls="${urls:+$urls,}nats://127.0.0.1:${port}"; done
  echo "$urls"
}
ha_redis_url() { echo "redis://127.0.0.1:${HA_REDIS_PORT}"; }

# Runs a command as the PostgreSQL user when we are root, as ourselves otherwise.
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u "$HA_PG_USER" -- "$@"; else "$@"; fi
}

# Starts "$@" in the background, detached, its pid in $HA_DIR/pids/$name and output in $HA_DIR/logs/$name.log.
ha_spawn() {
  local name="$1"; shift
  mkdir -p "$HA_DIR/pids" "$HA_DIR/logs"
  setsid "$@" >>"$HA_DIR/logs/$name.log" 2>&1 < /dev/null &
  echo $! > "$HA_DIR/pids/$name"
}

ha_wait() {
  local what="$1" tries="$2"; shift 2
  for _ in $(seq 1 "$tries"); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "ha: $what did not come up (logs in $HA_DIR/logs)" >&2
  return 1
}
