#!/usr/bin/env bash
# The test suite on a machine kept busy: one CPU burner per core (BURNERS, default: the core count)
# runs beside Jest for the whole run, as other engineers' builds and test runs do on a shared
# 2-core machine. The run must end green and exit by itself; the burners stop when it ends.
#
#   scripts/test-under-load.sh                          # npm test's Jest step: every project
#   scripts/test-under-load.sh test/trading test/docs   # some folders (e2e), same load
#
# Arguments are Jest's (paths first). The load average before and after is printed, with the time.
set -euo pipefail
cd "$(dirname "$0")/.."

export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"
BURNERS="${BURNERS:-$(nproc)}"

PIDS=()
stop_burners() {
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
}
trap stop_burners EXIT
for _ in $(seq 1 "$BURNERS"); do
  node -e 'for (;;) { Math.sqrt(Math.random()); }' &
  PIDS+=("$!")
done

echo "== $BURNERS CPU burner(s) running; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
START=$(date +%s)
set +e
if [ "$#" -gt 0 ]; then
  npx jest --ci "$@" --selectProjects e2e
else
  npx jest --ci
fi
STATUS=$?
set -e
echo "== jest exited by itself with $STATUS after $(($(date +%s) - START)) s; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$STATUS"
