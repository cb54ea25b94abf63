#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Renders a dpmrepro --html page in headless Chromium and checks what a
# reader sees (tests/check_html.py drives the page through the DevTools
# protocol on a pipe): one bar per callback and one hatched bar per
# blocked wait (the counts, and the waits' times, from the trace JSON of
# the same run), each titled; the time axis, which a wheel zoom and a
# drag change; a click's details; the violation marked, in view and
# selected; the device tree; a screenshot that is not blank.  Exit 77
# (ctest: skipped) when no chromium or no python3 is installed; .ci/run
# installs chromium.
#   check_html.sh DPMREPRO SCENARIO VIOLATION-ID|clean FIX [--variant NAME]
#                 [check_html.py options]
# e.g. --widest-within suspend:0.5 (the widest suspend bar is at least
# half the suspend phase at the default zoom), --screenshot OUT.png.
set -u
repro=$1 scn=$2 vid=$3 fix=$4
shift 4
# --variant NAME (first): dpmrepro's, not check_html.py's
variant=()
if [ "${1-}" = --variant ]; then
	variant=(--variant "$2")
	shift 2
fi
here=$(cd "$(dirname "$0")" && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "check_html: no chromium (skipped)"; exit 77; }
command -v python3 >/dev/null || { echo "check_html: no python3 (skipped)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$repro" ${variant[@]+"${variant[@]}"} --fix "$fix" --html "$work/p.html" --trace-json "$work/t.json" "$scn" >/dev/null
# slices: the callbacks' and (cat blocked) the waits'
read -r want waits < <(python3 -c '
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("ph") in ("X", "B")]
print(sum(e.get("cat") != "blocked" for e in ev), sum(e.get("cat") == "blocked" for e in ev))
' "$work/t.json")
devices=$("$repro" ${variant[@]+"${variant[@]}"} --fix "$fix" --summary-json "$scn" | sed -n 's/.*"devices":\([0-9]*\).*/\1/p')
args=(--bars "$want" --devices "$devices" --waits "$waits" --trace-json "$work/t.json")
[ "$vid" = clean ] || args+=(--violation "$vid")
python3 "$here/check_html.py" "$browser" "$work/p.html" "${args[@]}" "$@"
