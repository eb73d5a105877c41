#!/usr/bin/env bash
# The in-process suites from the sources under msw 3 on Node 24 (vitest.msw3.config.ts): msw 3 is
# installed once into node_modules/.cache/msw3 (the dev dependency stays msw 2 for `npm test`).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/node_modules/.cache/msw3"
if [ ! -f "$dir/node_modules/msw/package.json" ]; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"private":true}' > "$dir/package.json"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error 'msw@^3' >&2
fi
node24="$("$root/scripts/node-bin.sh" 24)"
cd "$root"
exec "$node24" node_modules/vitest/vitest.mjs run --config vitest.msw3.config.ts "$@"
