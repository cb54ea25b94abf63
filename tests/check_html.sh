#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Renders a dpmrepro --html page in headless Chromium and checks what the
# page shows: one bar per callback (the count from the trace JSON of the
# same run), the violation marked, the device tree, and a screenshot that
# is not blank.  Exit 77 (ctest: skipped) when no chromium is installed;
# .ci/run installs it.
#   check_html.sh DPMREPRO SCENARIO VIOLATION-ID
set -u
repro=$1 scn=$2 vid=$3
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "check_html: no chromium (skipped)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$repro" --html "$work/p.html" --trace-json "$work/t.json" "$scn" >/dev/null
want=$(grep -o '"ph":"[XB]"' "$work/t.json" | wc -l)
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --user-data-dir="$work/profile")
timeout 60 "$browser" "${flags[@]}" --dump-dom "file://$work/p.html" >"$work/dom.html" 2>/dev/null
timeout 60 "$browser" "${flags[@]}" --window-size=1400,900 \
	--screenshot="$work/shot.png" "file://$work/p.html" >/dev/null 2>&1
got=$(grep -o 'class="bar' "$work/dom.html" | wc -l)
ok=1
[ "$got" -eq "$want" ] && [ "$got" -gt 0 ] || { echo "check_html: $got bars in the rendered page, $want callbacks in the trace"; ok=0; }
grep -q "id=\"violation-mark\"[^>]*>$vid<" "$work/dom.html" || { echo "check_html: the violation $vid is not marked"; ok=0; }
grep -q '<div id="tree"><ul><li>' "$work/dom.html" || { echo "check_html: no device tree"; ok=0; }
size=$(stat -c %s "$work/shot.png" 2>/dev/null || echo 0)
[ "$size" -gt 5000 ] || { echo "check_html: the screenshot is missing or blank ($size bytes)"; ok=0; }
[ $ok -eq 1 ] || exit 1
echo "check_html: ok, $got bars rendered, violation $vid marked, screenshot $size bytes"
