#!/usr/bin/env bash
# One command to a running sandbox: install, build, migrate, create the demo tenant once
# (credentials printed and saved to .sandbox-credentials.json), then serve on $PORT (3000).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ]; then
  npm ci --no-fund --no-audit
fi
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/investment_service}"
# Create the database if it does not exist yet (ignored when it does).
node -e '
  const { Client } = require("pg");
  const url = new URL(process.env.DATABASE_URL);
  const name = url.pathname.slice(1);
  url.pathname = "/postgres";
  const c = new Client({ connectionString: url.toString() });
  c.connect()
    .then(() => c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]))
    .then((r) => (r.rowCount ? null : c.query(`CREATE DATABASE "${name}"`)))
    .then(() => c.end())
    .catch((e) => { console.error(e.message); process.exit(1); });
'
npm run build --silent
npm run cli:dist --silent -- db:migrate >/dev/null
npm run cli:dist --silent -- sandbox:init >/dev/null
# The API prints its address, /docs, /dashboard and these credentials last, once it listens.
export SANDBOX_CREDENTIALS_FILE="$PWD/.sandbox-credentials.json"
exec npm run start --silent
