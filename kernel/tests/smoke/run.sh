#!/bin/bash
# Boot a kernel with ipeh-smoke as /init and print its results.
# usage: run.sh BZIMAGE [KERNEL_SRC]
#   KERNEL_SRC provides usr/gen_init_cpio.c (default: the pristine tree)
# Exit status: 0 if every check passed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
bz=$1
ksrc=${2:-/var/cache/ipeh/src/linux-source-6.12}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gcc -static -O1 -Wall -I"$repo/include/uapi" -o "$tmp/init" "$here/ipeh-smoke.c"
gcc -O2 -o "$tmp/gen_init_cpio" "$ksrc/usr/gen_init_cpio.c"
printf 'dir /dev 755 0 0\nnod /dev/console 600 0 0 c 5 1\nfile /init %s 755 0 0\n' \
	"$tmp/init" >"$tmp/list"
"$tmp/gen_init_cpio" "$tmp/list" | gzip >"$tmp/initrd.gz"
timeout 300 qemu-system-x86_64 -accel tcg -cpu max -m 1G -nographic -no-reboot \
	-kernel "$bz" -initrd "$tmp/initrd.gz" \
	-append "console=ttyS0 panic=-1 kunit.filter_glob=none rdinit=/init" \
	>"$tmp/console.log" 2>&1 || true
grep -E '^(ok|not ok|ipeh-e2e)' "$tmp/console.log"
grep -q '^ipeh-e2e: [0-9]* passed, 0 failed' "$tmp/console.log"
