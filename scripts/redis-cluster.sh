#!/usr/bin/env bash
# A local Redis Cluster of three masters from Debian's redis-server, on its own ports (never the
# shared Redis on 6379), keeping nothing on disk.
#   scripts/redis-cluster.sh start   starts it (or finds it running) and prints REDIS_CLUSTER_NODES
#   scripts/redis-cluster.sh stop    stops it and removes its files
# REDIS_CLUSTER_BASE_PORT (default 7101) picks the ports: base, base + 1, base + 2.
set -euo pipefail

BASE="${REDIS_CLUSTER_BASE_PORT:-7101}"
PORTS=("$BASE" "$((BASE + 1))" "$((BASE + 2))")
DIR="${TMPDIR:-/tmp}/svc-redis-cluster-$BASE"
NODES="$(printf '127.0.0.1:%s,' "${PORTS[@]}")"
NODES="${NODES%,}"

cluster_ok() {
  for port in "${PORTS[@]}"; do
    redis-cli -p "$port" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || return 1
  done
}

start() {
  if cluster_ok; then
    echo "$NODES"
    return
  fi
  mkdir -p "$DIR"
  for port in "${PORTS[@]}"; do
    rm -rf "${DIR:?}/$port" && mkdir -p "$DIR/$port"
    redis-server --port "$port" --bind 127.0.0.1 --daemonize yes --dir "$DIR/$port" \
      --cluster-enabled yes --cluster-config-file "$DIR/$port/nodes.conf" --cluster-node-timeout 5000 \
      --save "" --appendonly no --pidfile "$DIR/$port/redis.pid" --logfile "$DIR/$port/redis.log"
  done
  for port in "${PORTS[@]}"; do
    for _ in $(seq 1 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  done
  # 16,384 slots split evenly over the three masters; no replicas (one machine).
  redis-cli --cluster create $(printf '127.0.0.1:%s ' "${PORTS[@]}") --cluster-replicas 0 --cluster-yes >"$DIR/create.log"
  for _ in $(seq 1 100); do cluster_ok && break; sleep 0.1; done
  cluster_ok || { cat "$DIR/create.log" >&2; echo "Redis Cluster did not form" >&2; exit 1; }
  echo "$NODES"
}

stop() {
  for port in "${PORTS[@]}"; do
    redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
  done
  rm -rf "$DIR"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
