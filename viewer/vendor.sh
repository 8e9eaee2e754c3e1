#!/usr/bin/env bash
# vendor.sh - refreshes viewer/vendor/ from npm: the exact versions in package-lock.json, the
# files the report page embeds, and the licence of every package they bundle. Run by a
# developer after changing package.json (needs npm and the registry); the build never runs it.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp package.json "$tmp/"
[ -f package-lock.json ] && cp package-lock.json "$tmp/"
(cd "$tmp" && npm install --no-audit --no-fund --ignore-scripts >/dev/null)
cp "$tmp/package-lock.json" .
m=$tmp/node_modules
cp "$m/sql.js/dist/sql-wasm-inline.js" vendor/sql-wasm-inline.js
cp "$m/vega/build/vega.min.js" vendor/vega.min.js
cp "$m/vega-lite/build/vega-lite.min.js" vendor/vega-lite.min.js
cp "$m/vega-embed/build/vega-embed.min.js" vendor/vega-embed.min.js
# Every installed package's licence: the minified builds bundle many of them (d3, ...).
{
	echo "Licences of the npm packages embedded in the llctrace report page, as installed"
	echo "by viewer/vendor.sh from viewer/package-lock.json on $(date -u +%Y-%m-%d)."
	for d in $(cd "$m" && ls -d * @*/* 2>/dev/null | grep -v '^@[^/]*$' | sort); do
		[ -f "$m/$d/package.json" ] || continue
		v=$(node -p "require('$m/$d/package.json').version")
		l=$(node -p "JSON.stringify(require('$m/$d/package.json').license || '')" | tr -d '"')
		echo
		echo "==== $d $v ($l)"
		f=$(ls "$m/$d" | grep -iE '^(licen[cs]e|copying)' | head -1 || true)
		if [ -n "$f" ]; then cat "$m/$d/$f"; else echo "(no licence file in the package; package.json says: $l)"; fi
	done
} >vendor/LICENSES.txt
ls -l vendor
