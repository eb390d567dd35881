#!/usr/bin/env bash
# A PostgreSQL primary and a streaming read replica of the machine's version (Debian's packages),
# on their own ports and data directories (never the shared server on 5432). Both log every
# statement (log_statement=all), so a test can count what each one served.
#   scripts/pg-replica.sh start   prints "<primary url> <replica url> <primary log> <replica log>"
#   scripts/pg-replica.sh stop    stops both and removes their files
#   scripts/pg-replica.sh stop-replica | start-replica   takes the replica away and back
# PG_REPLICA_BASE_PORT (default 5441) picks the ports: primary base, replica base + 1.
# PG_REPLICA_LOG_STATEMENTS=0 leaves statements out of the logs (a whole test suite's worth).
set -euo pipefail

BASE="${PG_REPLICA_BASE_PORT:-5441}"
PRIMARY_PORT="$BASE"
REPLICA_PORT="$((BASE + 1))"
VERSION="$(ls /etc/postgresql | sort -V | tail -n 1)"
BIN="/usr/lib/postgresql/$VERSION/bin"
DIR="${TMPDIR:-/tmp}/svc-pg-replica-$BASE"
AS_POSTGRES=(runuser -u postgres --)
[ "$(id -u)" = 0 ] || AS_POSTGRES=()
LOGGED="$([ "${PG_REPLICA_LOG_STATEMENTS:-1}" = 1 ] && echo all || echo none)"
OPTIONS="-c listen_addresses=127.0.0.1 -c unix_socket_directories=$DIR -c max_connections=200 -c log_statement=$LOGGED -c log_line_prefix='%m [%p] %a '"

pg() { "${AS_POSTGRES[@]}" "$BIN/pg_ctl" "$@"; }

start_replica() {
  pg -D "$DIR/replica" -l "$DIR/replica.log" -o "-p $REPLICA_PORT $OPTIONS" -w start >/dev/null
}

start() {
  stop # a server a killed run left on these directories
  mkdir -p "$DIR" && chown postgres "$DIR" 2>/dev/null || true
  "${AS_POSTGRES[@]}" "$BIN/initdb" -D "$DIR/primary" -A trust -U postgres --no-sync >/dev/null
  pg -D "$DIR/primary" -l "$DIR/primary.log" -o "-p $PRIMARY_PORT $OPTIONS" -w start >/dev/null
  # The replica starts from a base backup of the primary and streams its WAL from then on.
  "${AS_POSTGRES[@]}" "$BIN/pg_basebackup" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres \
    -D "$DIR/replica" -R -X stream --no-sync
  start_replica
  echo "postgres://postgres@127.0.0.1:$PRIMARY_PORT/postgres postgres://postgres@127.0.0.1:$REPLICA_PORT/postgres $DIR/primary.log $DIR/replica.log"
}

stop() {
  for node in replica primary; do
    [ -d "$DIR/$node" ] && pg -D "$DIR/$node" -m immediate stop >/dev/null 2>&1 || true
  done
  rm -rf "$DIR"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  stop-replica) pg -D "$DIR/replica" -m immediate stop >/dev/null ;;
  start-replica) start_replica ;;
  *) echo "usage: $0 start|stop|stop-replica|start-replica" >&2; exit 2 ;;
esac
