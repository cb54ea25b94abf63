#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# uninstrumented_hook.sh BINARY...: each BINARY's __sanitizer_report_error_summary()
# calls nothing but syscall(): the sanitizer runtime calls it while it holds its
# own locks, and an instrumented entry or an intercepted libc call there can
# deadlock the process (util/race_summary.h).
set -u
command -v objdump >/dev/null || { echo "uninstrumented_hook: no objdump, skipped"; exit 77; }
rc=0
for bin in "$@"; do
	body=$(objdump -d --no-show-raw-insn "$bin" |
		awk '/<__sanitizer_report_error_summary>:$/ { p = 1; next } p && /^$/ { exit } p')
	if [ -z "$body" ]; then
		echo "uninstrumented_hook: $bin defines no __sanitizer_report_error_summary"
		rc=1
		continue
	fi
	calls=$(printf '%s\n' "$body" | grep -E '\b(call|jmp)\b.*<' | grep -vE '<(syscall@plt|__sanitizer_report_error_summary\+0x[0-9a-f]+)>' || true)
	if [ -n "$calls" ]; then
		echo "uninstrumented_hook: $bin: __sanitizer_report_error_summary calls more than syscall():"
		printf '%s\n' "$calls"
		rc=1
	fi
done
[ $rc -eq 0 ] && echo "uninstrumented_hook: every hook calls only syscall()"
exit $rc
