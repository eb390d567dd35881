#!/usr/bin/env bash
# The e2e suite in remote mode against a sandbox this script starts itself: the built app on its
# own port and database, with SANDBOX_ADMIN_TOKEN, as a QA team would deploy it. Nothing but
# E2E_BASE_URL and E2E_ADMIN_TOKEN reaches the suite. The sandbox is stopped and its database
# dropped afterwards; the run fails if one of its tenants is left behind (global-teardown).
set -euo pipefail
cd "$(dirname "$0")/.."

PORT="${QA_SANDBOX_PORT:-3290}"
DB="qa_remote_$$"
ADMIN="postgres://postgres@127.0.0.1:5432"
TOKEN="qa-$(node -e 'console.log(require("crypto").randomBytes(24).toString("hex"))')"
BOARD="support:$(node -e 'console.log(require("crypto").randomBytes(16).toString("hex"))')"
LOG="$(mktemp)"
# A QA team's own token signer: the sandbox trusts its public half (JWT_PUBLIC_KEY), the suite signs
# Bearer tokens with the private half (E2E_JWT_PRIVATE_KEY), so the JWT cases run remotely too.
JWT_ISSUER="https://identity.qa.local/"
JWT_AUDIENCE="investment-api-qa"
JWT_PRIVATE_KEY="$(node -e 'process.stdout.write(require("crypto").generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }))')"
JWT_PUBLIC_KEY="$(PEM="$JWT_PRIVATE_KEY" node -e 'process.stdout.write(require("crypto").createPublicKey(process.env.PEM).export({ type: "spki", format: "pem" }))')"

# QA_REQUIRED_ONLY=1: a sandbox as the README starts it (no token signer, no queue board) and a suite
# given nothing but E2E_BASE_URL and E2E_ADMIN_TOKEN.
SERVER_OPTIONAL=(JWT_ISSUER="$JWT_ISSUER" JWT_AUDIENCE="$JWT_AUDIENCE" JWT_PUBLIC_KEY="$JWT_PUBLIC_KEY"
  ADMIN_CREDENTIALS="$BOARD")
SUITE_OPTIONAL=(E2E_JWT_PRIVATE_KEY="$JWT_PRIVATE_KEY" E2E_JWT_ISSUER="$JWT_ISSUER" E2E_JWT_AUDIENCE="$JWT_AUDIENCE"
  E2E_QUEUE_BOARD_CREDENTIALS="$BOARD")
if [ "${QA_REQUIRED_ONLY:-0}" = 1 ]; then
  SERVER_OPTIONAL=()
  SUITE_OPTIONAL=()
fi

psql "$ADMIN/postgres" -qc "CREATE DATABASE \"$DB\""
npm run build --silent
env -i PATH="$PATH" HOME="$HOME" NODE_PATH=dist PORT="$PORT" APP_ENV=sandbox \
  DATABASE_URL="$ADMIN/$DB" REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}" QUEUE_PREFIX="qa_$DB" \
  PUBLIC_URL="http://127.0.0.1:$PORT" SANDBOX_ADMIN_TOKEN="$TOKEN" LOG_LEVEL=warn \
  STORAGE_DIR="$(mktemp -d)" RATE_LIMIT_PER_SECOND=1000 RATE_LIMIT_BURST=2000 \
  AUTH_FAILURES_PER_ADDRESS_PER_MINUTE=100000 AUTH_FAILURES_PER_KEY_PER_MINUTE=100000 \
  "${SERVER_OPTIONAL[@]}" node --max-semi-space-size=64 dist/src/main.js >"$LOG" 2>&1 &
SERVER=$!
cleanup() {
  kill "$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  psql "$ADMIN/postgres" -qc "DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)" || true
  redis-cli --scan --pattern "qa_$DB:*" | xargs -r redis-cli unlink >/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 1 60); do
  curl -fs "http://127.0.0.1:$PORT/health/ready" >/dev/null && break
  sleep 1
done
curl -fs "http://127.0.0.1:$PORT/health/ready" >/dev/null || { cat "$LOG"; exit 1; }

# Only what a QA team has: the URL, the admin token and (optionally) its token signer and the
# queue board's credential; the suite is I/O bound, so more workers than cores.
OUT="$(mktemp)"
set +e
env -u DATABASE_URL -u TEST_DATABASE_URL -u QUEUE_PREFIX -u REDIS_CLUSTER_NODES \
  E2E_BASE_URL="http://127.0.0.1:$PORT" E2E_ADMIN_TOKEN="$TOKEN" "${SUITE_OPTIONAL[@]}" \
  npx jest --ci --selectProjects e2e -w "${QA_WORKERS:-6}" "$@" 2>&1 | tee "$OUT"
STATUS=${PIPESTATUS[0]}
set -e
# The share of cases remote mode skipped, from the summary reporter's closing line.
RATE="$(awk -v optional="$([ ${#SUITE_OPTIONAL[@]} -gt 0 ] && echo 'with' || echo 'without')" '
  /^Tests: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ { passed = $2; failed = $4; skipped = $6 }
  END {
    total = passed + failed + skipped
    if (total > 0) {
      printf "Remote skip rate: %d of %d skipped (%.1f %%), %d failed, %s the optional JWT signer and queue board credential\n",
        skipped, total, 100 * skipped / total, failed, optional
    }
  }' "$OUT")"
echo "$RATE"
# README.md states the line of each mode (section "QA against a sandbox"); a green run whose figures
# differ fails here, naming the line to write, so the README's count cannot go stale.
if [ "$STATUS" = 0 ] && [ -n "$RATE" ] && [ "$#" = 0 ]; then
  MODE="$(sed -E 's/.* (with|without) the optional.*/\1/' <<<"$RATE")"
  STATED="$(grep -oE "Remote skip rate: [0-9]+ of [0-9]+ skipped \([0-9.]+ %\), 0 failed, $MODE the optional JWT signer and queue board credential" README.md | head -n 1 || true)"
  if [ -n "$STATED" ] && [ "$STATED" != "$RATE" ]; then
    echo "README.md states: $STATED"
    echo "this run:         $RATE"
    echo "Update the line in README.md (QA against a sandbox) to this run's figures."
    STATUS=1
  fi
fi
rm -f "$OUT"
exit "$STATUS"
