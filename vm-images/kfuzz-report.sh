#!/bin/bash
# kfuzz-report.sh KBUILD PCS-FILE... : which functions of the series' files the
# kernel fuzzer reached (issue 16 §1; fuzz/README.md, "Kernel fuzzing").
#
# KBUILD is the kernel's build directory (vmlinux and the net/ipv6 objects);
# each PCS-FILE is what `ipeh-kfuzz --pcs` wrote (KCOV PCs, 16 hex digits, one
# per line). A PC belongs to the text symbol of vmlinux that starts at or
# below it. For each object of FILES below, a function counts as reached when
# one PC of any PCS-FILE falls in it; the report prints, per object, reached
# of defined, and the names of the functions not reached. Functions are told
# apart by name, so a name vmlinux defines more than once (a static inline
# helper such as rcu_read_unlock, the sanitizers' _sub_I_* constructors) is
# left out; functions the compiler inlined have no symbol of their own and
# count with their caller, and functions past the end of the text (__init,
# run only at boot) are left out too. PCs of modules (outside vmlinux's
# text) are counted apart.
set -euo pipefail
export LC_ALL=C

# the objects the series adds or changes on the paths ipeh-kfuzz drives
FILES="exthdrs_common exthdrs_core exthdrs_options exthdrs ipv6_sockglue datagram"

[ $# -ge 2 ] || { echo "usage: $0 KBUILD PCS-FILE..." >&2; exit 2; }
kb=$1
shift
[ -f "$kb/vmlinux" ] || { echo "$0: no $kb/vmlinux" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# text symbols of vmlinux, "ADDR 0 NAME", and the PCs, "ADDR 1"; the
# addresses are 16 hex digits, so a plain sort orders them by value, and a
# symbol before a PC at the same address
nm --defined-only "$kb/vmlinux" | awk '$2 ~ /^[tTwW]$/ { print $1, 0, $3 }' > "$tmp/syms"
cat "$@" | sort -u | awk 'length($1) == 16 { print $1, 1 }' > "$tmp/pcs"
# the end of the kernel's text: _etext, or where the .text section ends
etext=$(nm "$kb/vmlinux" | awk '$3 == "_etext" { print $1 }')
if [ -z "$etext" ]; then
	read -r vma size < <(objdump -h "$kb/vmlinux" | awk '$2 == ".text" { print $4, $3 }') || true
	[ -n "${vma:-}" ] || { echo "$0: no _etext and no .text in $kb/vmlinux" >&2; exit 1; }
	etext=$(printf '%016x' $((0x$vma + 0x$size)))
fi
# names left out: defined twice, or past the text
{
	awk '{ print $3 }' "$tmp/syms" | sort | uniq -d
	awk -v etext="$etext" '$1 >= etext { print $3 }' "$tmp/syms"
} | sort -u > "$tmp/ambiguous"
sort "$tmp/syms" "$tmp/pcs" | awk -v etext="$etext" '
	$2 == 0 { fn = $3; next }
	$1 > etext || fn == "" { outside++; next }
	{ hit[fn] = 1 }
	END {
		for (f in hit) print f > "'"$tmp"'/hit"
		print outside + 0 > "'"$tmp"'/outside"
	}'
touch "$tmp/hit"
sort -u -o "$tmp/hit" "$tmp/hit"
total_pcs=$(wc -l < "$tmp/pcs")
echo "kernel PCs reached: $total_pcs ($(cat "$tmp/outside") outside vmlinux's text, in modules)"
all_r=0 all_d=0
for f in $FILES; do
	o=$kb/net/ipv6/$f.o
	[ -f "$o" ] || { echo "  net/ipv6/$f.o: not built"; continue; }
	nm --defined-only "$o" | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u |
		comm -23 - "$tmp/ambiguous" > "$tmp/defs"
	d=$(wc -l < "$tmp/defs")
	comm -12 "$tmp/defs" "$tmp/hit" > "$tmp/r"
	r=$(wc -l < "$tmp/r")
	all_r=$((all_r + r)) all_d=$((all_d + d))
	printf '  net/ipv6/%s.c: %d of %d functions reached\n' "$f" "$r" "$d"
	missed=$(comm -23 "$tmp/defs" "$tmp/r" | paste -sd ' ')
	[ -z "$missed" ] || echo "    not reached: $missed"
done
echo "  all: $all_r of $all_d functions reached"
