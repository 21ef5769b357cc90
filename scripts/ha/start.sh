#!/usr/bin/env bash
# The local high-availability stack (issue 46, docs/operations/high-availability.md):
#   etcd (one node: Patroni's consensus store),
#   Patroni with three PostgreSQL 15 nodes in synchronous mode (strict: a commit is acknowledged
#     once a replica has it),
#   HAProxy on HA_PG_PORT sending every connection to the primary (Patroni's REST check, GET /primary),
#   three NATS servers routed to each other, and a Redis of its own.
# Prints the environment the services need (DATABASE_URL, TRANSPORTER, REDIS_URL). Stop: stop.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/ha-env.sh"

for tool in etcd patroni haproxy nats-server redis-server "$HA_PG_BIN/postgres"; do
  command -v "$tool" >/dev/null || { echo "ha: $tool not found (apt-get install patroni etcd-server haproxy nats-server redis-server postgresql-15)" >&2; exit 2; }
done
print_env() {
  echo "DATABASE_URL=$(ha_database_url)"
  echo "TRANSPORTER=$(ha_transporter)"
  echo "REDIS_URL=$(ha_redis_url)"
}
if [ -d "$HA_DIR/pids" ] && [ -n "$(ls -A "$HA_DIR/pids" 2>/dev/null)" ]; then
  echo "ha: already running in $HA_DIR (scripts/ha/stop.sh stops it)" >&2
  print_env
  exit 0
fi
mkdir -p "$HA_DIR"/{pids,logs,etcd,pg,nats,redis,conf}
chmod 755 "$HA_DIR"
chown "$HA_PG_USER" "$HA_DIR/pg" "$HA_DIR/logs" 2>/dev/null || true

# etcd
ha_spawn etcd etcd --name relay-ha --data-dir "$HA_DIR/etcd" \
  --listen-client-urls "http://127.0.0.1:${HA_ETCD_PORT}" --advertise-client-urls "http://127.0.0.1:${HA_ETCD_PORT}" \
  --listen-peer-urls "http://127.0.0.1:$((HA_ETCD_PORT + 10))" --initial-advertise-peer-urls "http://127.0.0.1:$((HA_ETCD_PORT + 10))" \
  --initial-cluster "relay-ha=http://127.0.0.1:$((HA_ETCD_PORT + 10))"
ha_wait etcd 40 curl -sf "http://127.0.0.1:${HA_ETCD_PORT}/health"

# Patroni: three nodes
read -r -a pg_ports <<<"$HA_PG_NODE_PORTS"
read -r -a rest_ports <<<"$HA_PATRONI_PORTS"
for i in 0 1 2; do
  name="pg$((i + 1))"
  conf="$HA_DIR/conf/$name.yml"
  cat >"$conf" <<YAML
scope: relay-ha
name: $name
namespace: /relay-parcels/
restapi:
  listen: 127.0.0.1:${rest_ports[$i]}
  connect_address: 127.0.0.1:${rest_ports[$i]}
etcd3:
  host: 127.0.0.1:${HA_ETCD_PORT}
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 2
    retry_timeout: 5
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    synchronous_mode_strict: true
    postgresql:
      use_pg_rewind: true
      parameters:
        max_connections: 200
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
  initdb:
  - encoding: UTF8
  - data-checksums
  pg_hba:
  - host all all 127.0.0.1/32 md5
  - host replication replicator 127.0.0.1/32 md5
postgresql:
  listen: 127.0.0.1:${pg_ports[$i]}
  connect_address: 127.0.0.1:${pg_ports[$i]}
  data_dir: $HA_DIR/pg/$name
  bin_dir: $HA_PG_BIN
  pgpass: $HA_DIR/pg/pgpass-$name
  authentication:
    superuser: { username: postgres, password: relay-ha }
    replication: { username: replicator, password: relay-ha-replication }
  parameters:
    unix_socket_directories: $HA_DIR/pg
YAML
  chown "$HA_PG_USER" "$conf" 2>/dev/null || true
  if [ "$(id -u)" = 0 ]; then
    ha_spawn "$name" runuser -u "$HA_PG_USER" -- patroni "$conf"
  else
    ha_spawn "$name" patroni "$conf"
  fi
done
primary_up() { for p in "${rest_ports[@]}"; do curl -sf "http://127.0.0.1:$p/primary" && return 0; done; return 1; }
ha_wait "a Patroni primary" 120 primary_up
sync_up() { for p in "${rest_ports[@]}"; do curl -sf "http://127.0.0.1:$p/sync" && return 0; done; return 1; }
ha_wait "a synchronous replica" 120 sync_up

# HAProxy: the primary only, by Patroni's REST check; connections to a demoted node are cut.
servers=""
for i in 0 1 2; do
  servers="$servers    server pg$((i + 1)) 127.0.0.1:${pg_ports[$i]} maxconn 200 check port ${rest_ports[$i]}
"
done
cat >"$HA_DIR/conf/haproxy.cfg" <<CFG
global
    maxconn 1000
defaults
    mode tcp
    timeout connect 2s
    timeout client 30m
    timeout server 30m
    timeout check 1s
listen primary
    bind 127.0.0.1:${HA_PG_PORT}
    option httpchk GET /primary
    http-check expect status 200
    default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
$servers
CFG
ha_spawn haproxy haproxy -db -f "$HA_DIR/conf/haproxy.cfg"
ha_wait "HAProxy to the primary" 40 env PGPASSWORD=relay-ha "$HA_PG_BIN/psql" -h 127.0.0.1 -p "$HA_PG_PORT" -U postgres -d postgres -Atc "SELECT 1"
env PGPASSWORD=relay-ha "$HA_PG_BIN/psql" -h 127.0.0.1 -p "$HA_PG_PORT" -U postgres -d postgres -Atc \
  "SELECT 1 FROM pg_database WHERE datname = 'relay'" | grep -q 1 ||
  env PGPASSWORD=relay-ha "$HA_PG_BIN/psql" -h 127.0.0.1 -p "$HA_PG_PORT" -U postgres -d postgres -qc "CREATE DATABASE relay"

# NATS: three servers, each routed to the others.
read -r -a nats_ports <<<"$HA_NATS_PORTS"
read -r -a route_ports <<<"$HA_NATS_ROUTE_PORTS"
routes=""
for p in "${route_ports[@]}"; do routes="${routes:+$routes,}nats://127.0.0.1:$p"; done
for i in 0 1 2; do
  ha_spawn "nats$((i + 1))" nats-server --name "relay-ha-nats$((i + 1))" -a 127.0.0.1 -p "${nats_ports[$i]}" \
    --cluster_name relay-ha --cluster "nats://127.0.0.1:${route_ports[$i]}" --routes "$routes"
done
for p in "${nats_ports[@]}"; do ha_wait "NATS on $p" 40 bash -c "exec 3<>/dev/tcp/127.0.0.1/$p"; done

# Redis of its own (the chaos run kills it; the machine's stays).
ha_spawn redis redis-server --port "$HA_REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$HA_DIR/redis"
ha_wait "Redis" 40 redis-cli -p "$HA_REDIS_PORT" ping

echo "ha: started in $HA_DIR (scripts/ha/stop.sh stops it)" >&2
print_env
