#!/usr/bin/env bash
# Checks that need no guest: run by `./dev test` on the host, one result per line.
#   host-checks.sh REPO KERNEL_DIR
set -u
top=$1 kdir=$2

# The vendored uapi header is the one the series installs, byte for byte.
vendored=$top/include/uapi/linux/ipeh.h
# (headers_install rewrites the _UAPI_ guard, so compare with the source file)
installed=$kdir/src/include/uapi/linux/ipeh.h
if [ ! -s "$top/kernel/patches/series" ]; then
	echo "skip uapi: vendored ipeh.h matches the series -- kernel/patches/series is empty"
elif [ ! -f "$installed" ]; then
	echo "not ok uapi: vendored ipeh.h matches the series -- the series installs no linux/ipeh.h"
elif cmp -s "$vendored" "$installed"; then
	echo "ok uapi: vendored include/uapi/linux/ipeh.h is byte-identical to the series' header"
else
	echo "not ok uapi: vendored include/uapi/linux/ipeh.h differs from the series' header"
fi

# The family's kernel tables (patch 33) are what the tree's ynl-gen-c.py writes
# from its spec today: a change to the spec or the generator without
# tools/net/ynl/ynl-regen.sh shows here. Debian's python3 with python3-yaml and
# python3-jsonschema (./dev deps), as the generator needs.
gen=$kdir/src/net/ipv6/exthdrs_nl
name="host: net/ipv6/exthdrs_nl.{c,h} are what ynl-gen-c.py writes from ipeh-tlv.yaml"
if [ ! -s "$top/kernel/patches/series" ]; then
	echo "skip $name -- kernel/patches/series is empty"
elif [ ! -f "$gen.c" ] || [ ! -f "$gen.h" ]; then
	echo "not ok $name -- the series has no $gen.c or .h"
else
	gdir=$(mktemp -d)
	gerr=
	for m in source:c header:h; do
		if ! /usr/bin/python3 "$kdir/src/tools/net/ynl/ynl-gen-c.py" --mode kernel \
			--"${m%%:*}" --spec "$kdir/src/Documentation/netlink/specs/ipeh-tlv.yaml" \
			-o "$gdir/exthdrs_nl.${m##*:}" > "$gdir/log" 2>&1; then
			gerr="ynl-gen-c.py --${m%%:*} failed: $(tail -n 1 "$gdir/log")"
		elif ! cmp -s "$gdir/exthdrs_nl.${m##*:}" "$gen.${m##*:}"; then
			gerr="exthdrs_nl.${m##*:} differs: $(diff "$gen.${m##*:}" "$gdir/exthdrs_nl.${m##*:}" | grep -m 1 '^[<>]')"
		fi
		[ -z "$gerr" ] || break
	done
	rm -rf "$gdir"
	if [ -z "$gerr" ]; then echo "ok $name"; else echo "not ok $name -- $gerr"; fi
fi

# Every patch is checkpatch --strict clean.
checkpatch=$kdir/src/scripts/checkpatch.pl
n=0
while read -r p; do
	p=${p%%#*}
	p=${p// /}
	[ -n "$p" ] || continue
	n=$((n + 1))
	# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is the one exception,
	# justified in the cover letter (kernel/scripts/checkpatch-all.sh ignores it too)
	if out=$("$checkpatch" --strict --root="$kdir/src" --quiet --show-types \
		--ignore FILE_PATH_CHANGES "$top/kernel/patches/$p" 2>&1); then
		echo "ok checkpatch: $p"
	else
		echo "not ok checkpatch: $p -- $(echo "$out" | grep -E '^(ERROR|WARNING|CHECK)' | head -n 2 | tr '\n' ' ')"
	fi
done < <(cat "$top/kernel/patches/series" 2>/dev/null)
[ "$n" -gt 0 ] || echo "skip checkpatch: kernel patches -- kernel/patches/series is empty"
exit 0
