#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/vm-images --check: one line and exit 2 for a cache without
# guest kernels (or a machine without QEMU), the images listed and exit
# 0 for a cache that has one per tree.  It installs nothing.
set -u
vmi=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "vm_images_check: $*" >&2; exit 1; }

tools=1
for t in /usr/bin/qemu-system-x86_64 /bin/busybox /usr/bin/cpio /usr/bin/gcc-12 /usr/bin/make; do
	[ -x "$t" ] || tools=0
done

# An empty cache: nothing is there.
out=$("$vmi" --check --cache-dir "$tmp/empty" 2>&1); rc=$?
[ $rc -eq 2 ] || fail "empty cache: exit $rc, not 2 ($out)"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "empty cache: not one line: $out"
grep -q 'run scripts/setup --vm$' <<<"$out" || fail "empty cache: no command to run: $out"

# A tree whose guest kernel is missing.
mkdir -p "$tmp/c/trees/linux-source-6.1"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\n' >"$tmp/c/trees/linux-source-6.1/Makefile"
: >"$tmp/c/trees/linux-source-6.1/.dpmfuzz-extracted"
mkdir -p "$tmp/c/vm/6.1.0-1-amd64"
printf 'release=6.1.0-1-amd64\nupstream=6.1.191\n' >"$tmp/c/vm/6.1.0-1-amd64/.dpmfuzz-vm"
out=$("$vmi" --check --cache-dir "$tmp/c" 2>&1); rc=$?
[ $rc -eq 2 ] || fail "no 6.1.192 image: exit $rc, not 2 ($out)"
if [ $tools -eq 1 ]; then
	grep -q '^vm-images: no guest kernel 6.1.192 ' <<<"$out" || fail "no 6.1.192 image: $out"
	# With it: listed, exit 0.
	printf 'release=6.1.0-1-amd64\nupstream=6.1.192\n' >"$tmp/c/vm/6.1.0-1-amd64/.dpmfuzz-vm"
	out=$("$vmi" --check --cache-dir "$tmp/c" 2>&1); rc=$?
	[ $rc -eq 0 ] || fail "with the image: exit $rc ($out)"
	[ "$out" = "6.1.0-1-amd64 6.1.192 $tmp/c/vm/6.1.0-1-amd64" ] || fail "with the image: $out"
else
	grep -q '^vm-images: missing .*: run scripts/setup --vm$' <<<"$out" || fail "no QEMU: $out"
	echo "vm_images_check: QEMU or busybox not installed: the listing case was not run"
fi
# An empty cache lists nothing; nor does a pending image (its headers
# did not build a module).
"$vmi" --installed --cache-dir "$tmp/empty" | grep -q . && fail "--installed lists an empty cache"
mkdir -p "$tmp/p/vm/6.1.0-2-amd64"
printf 'release=6.1.0-2-amd64\nupstream=6.1.192\n' >"$tmp/p/vm/6.1.0-2-amd64/.dpmfuzz-vm.pending"
"$vmi" --installed --cache-dir "$tmp/p" | grep -q . && fail "--installed lists a pending image"
echo "vm_images_check: ok"
