#!/usr/bin/env bash
# Refresh the vendored cm-chessboard (MIT) shipped inside the package for the browser board:
# fetch the published package from the npm registry with `npm pack`, copy its ES modules, the
# CSS and SVG sprites, and its LICENSE, and write the version in VERSION.
# Usage: scripts/vendor-cm-chessboard.sh [VERSION]   (default: the version in VERSION)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$root/src/chessarbiter/server/web/static/vendor/cm-chessboard"
version="${1:-$(cat "$dest/VERSION" 2>/dev/null || echo latest)}"
command -v npm >/dev/null || { echo "ERROR: npm is needed (apt-get install npm)" >&2; exit 3; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "cm-chessboard@$version" >/dev/null)
tar -xzf "$tmp"/cm-chessboard-*.tgz -C "$tmp"
pkg="$tmp/package"
rm -rf "$dest"
mkdir -p "$dest/assets/pieces"
# the board and the two extensions the pages use (markers: move hints; the promotion dialog)
mkdir -p "$dest/src/extensions"
cp "$pkg/src/Chessboard.js" "$dest/src/"
cp -r "$pkg/src/model" "$pkg/src/view" "$pkg/src/lib" "$dest/src/"
for ext in markers promotion-dialog; do
    mkdir -p "$dest/src/extensions/$ext"
    cp "$pkg/src/extensions/$ext/"*.js "$dest/src/extensions/$ext/"
done
cp "$pkg/assets/chessboard.css" "$dest/assets/"
cp "$pkg/assets/pieces/standard.svg" "$dest/assets/pieces/"
for ext in markers promotion-dialog; do
    mkdir -p "$dest/assets/extensions/$ext"
    cp "$pkg/assets/extensions/$ext/"*.css "$dest/assets/extensions/$ext/"
    find "$pkg/assets/extensions/$ext" -name '*.svg' -exec cp {} "$dest/assets/extensions/$ext/" \;
done
cp "$pkg/LICENSE" "$dest/LICENSE"
node -e 'process.stdout.write(require(process.argv[1]).version + "\n")' "$pkg/package.json" \
    > "$dest/VERSION"
echo "cm-chessboard $(cat "$dest/VERSION") vendored"
