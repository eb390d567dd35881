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
# On 2 cores Jest runs the files in band, in one process that keeps part of each file's module
# graph: near 175 files its heap reaches V8's default limit (4.3 GB on these machines) and the
# collector thrashes (late files took ten times as long, the run 70 minutes instead of 25). The
# larger limit keeps the run linear on a 24 GB machine; --logHeapUsage prints the heap per file.
NODE_OPTIONS="--max-old-space-size=12288 ${NODE_OPTIONS:-}" npx jest --ci --logHeapUsage "$@"
