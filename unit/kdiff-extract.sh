#!/bin/sh
# Extract the transmit validator from the kernel series (kernel/patches) so
# that unit/test-kdiff can compare libipeh's validator with the kernel's own
# code on many blocks, without a VM.  Writes OUT; if the functions are not
# found, have an unexpected signature or do not compile against
# kdiff-shim.h, OUT only defines KDIFF_MISSING (the test then fails: the
# series is in this repository, so a missing validator is a broken test).
#
# usage: kdiff-extract.sh OUT PATCHDIR SHIMDIR UAPIDIR CC...
set -u
out=$1 patchdir=$2 shimdir=$3 uapidir=$4
shift 4
tmp=$(cd "$(dirname "$out")" && pwd)/$(basename "$out").tmp

missing() {
	printf '#define KDIFF_MISSING "%s"\n' "$1" > "$out"
	exit 0
}

[ -d "$patchdir" ] || missing "no $patchdir"
: > "$tmp"
for fn in 'static unsigned int optname_to_tlv_class(' \
	  'static int __ipeh_opt_validate_single_tlv(' \
	  'static int __ipeh_opt_validate_tlvs('; do
	found=0
	for p in "$patchdir"/*.patch; do
		[ -f "$p" ] || continue
		if grep -qF "+$fn" "$p"; then
			awk -v fn="+$fn" '
				index($0, fn) == 1 { on = 1 }
				on { print substr($0, 2) }
				on && $0 == "+}" { exit }' "$p" >> "$tmp"
			found=1
			break
		fi
	done
	[ $found = 1 ] || { rm -f "$tmp"; missing "$fn not in the series"; }
	echo >> "$tmp"
done

# The test calls __ipeh_opt_validate_tlvs(table data, opt, optname, admin,
# max_len, max_cnt): check the prototype is still that one.
proto=$(awk '/^static int __ipeh_opt_validate_tlvs\(/,/\)$/' "$tmp" | tr -s ' \t\n' ' ')
case "$proto" in
"static int __ipeh_opt_validate_tlvs(const struct ipeh_tlv_table_data *tpt, const struct ipv6_opt_hdr *opt, unsigned int optname, bool admin, unsigned int max_len, unsigned int max_cnt) ")
	;;
*)
	rm -f "$tmp"
	missing "unexpected prototype: $proto"
	;;
esac

printf '#include "kdiff-shim.h"\n#include "%s"\nint kdiff_probe(void);\nint kdiff_probe(void) { return __ipeh_opt_validate_tlvs(0, 0, 0, 0, 0, 0); }\n' "$tmp" > "$out.probe.c"
if ! "$@" -fsyntax-only -D_GNU_SOURCE -I"$shimdir" -I"$uapidir" "$out.probe.c" 2> "$out.log"; then
	rm -f "$tmp" "$out.probe.c"
	missing "does not compile against kdiff-shim.h (see $out.log)"
fi
rm -f "$out.probe.c"
mv "$tmp" "$out"
