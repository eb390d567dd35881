#!/usr/bin/env bash
# The whole test suite: lint, types, OpenAPI lint, then unit and e2e tests against the real
# PostgreSQL and Redis named by TEST_DATABASE_URL / REDIS_URL (local defaults).
set -euo pipefail
cd "$(dirname "$0")/.."

export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"

echo "== lint"
node scripts/check-lockfile.js
npx eslint . --max-warnings 0
npx prettier --check . --log-level warn
echo "== typecheck"
npx tsc -p tsconfig.json --noEmit
npx tsc -p dashboard/tsconfig.json
echo "== openapi lint"
npx redocly lint openapi/openapi.yaml --config redocly.yaml --format stylish 2>&1 | grep -v -e '^\s*$' -e '║' -e '╔' -e '╚' || true
npx redocly lint openapi/openapi.yaml --config redocly.yaml >/dev/null 2>&1
echo "== spectral (OpenAPI and OWASP rulesets; exceptions documented in .spectral.yaml)"
# Any finding fails, warnings and hints included.
npx spectral lint openapi/openapi.yaml --ruleset .spectral.yaml --fail-severity=hint
echo "== dashboard build (served at /dashboard; the browser test drives it)"
npm run build:dashboard
echo "== client package (clients/typescript: lock file, generated part current, types, build)"
node scripts/check-lockfile.js clients/typescript/package-lock.json
(
  cd clients/typescript
  npm ci --no-fund --no-audit
  npm run check:generated
  npm run typecheck
  npm run build
)
echo "== jest"
# Three workers on two cores: the e2e files spend most of their time waiting (on PostgreSQL, on the
# clock's jobs, on webhook receivers), so their waits overlap (on 29 Nov 2026: 400 s for 176 files
# against 1,411 s in band). Each file has its own database and queue prefix, so files never share
# state. A worker whose heap passed 1.5 GB after a file is replaced before the next one: one
# process running every file keeps part of each file's module graph and slows down as it grows.
NODE_OPTIONS="--max-old-space-size=4096 ${NODE_OPTIONS:-}" npx jest --ci --maxWorkers=3 \
  --workerIdleMemoryLimit=1500MB --logHeapUsage "$@"
