#!/usr/bin/env bash
# Runs the named benchmarks (default: all) one after another.
set -euo pipefail
cd "$(dirname "$0")/.."
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  names=($(for d in bench/*/run.ts; do basename "$(dirname "$d")"; done))
fi
for name in "${names[@]}"; do
  echo "== bench/${name}"
  npx ts-node --transpile-only -r tsconfig-paths/register "bench/${name}/run.ts"
done
