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

# kfuzz-report.sh (./dev kfuzz's coverage report) on a small program whose
# functions are known: a PC inside a function counts it, a PC at a
# function's first byte counts that function (not the one before), a PC past
# the end of the text counts as outside, and a name defined twice is left
# out. Twice: linked as is (no _etext: the report takes the end of .text)
# and with _etext defined there, as in vmlinux.
name="host: kfuzz-report.sh maps PCs onto the functions of an object"
kr=$(mktemp -d)
mkdir -p "$kr/net/ipv6"
cat > "$kr/c.c" <<'KR'
#define F(n) __attribute__((noinline, used)) int n(int x) { return x * 3 + 1; }
F(kr_hit) F(kr_at_start) F(kr_miss)
static __attribute__((noinline, used)) int kr_twice(int x) { return x + 2; }
int kr_c_twice(int x) { return kr_twice(x); }
KR
cat > "$kr/main.c" <<'KR'
static __attribute__((noinline, used)) int kr_twice(int x) { return x - 2; }
int main(int argc, char **argv) { (void)argv; return kr_twice(argc); }
KR
kerr=
if gcc -O1 -c -o "$kr/net/ipv6/exthdrs_common.o" "$kr/c.c" 2> "$kr/log" &&
	gcc -O1 -c -o "$kr/main.o" "$kr/main.c" 2>> "$kr/log" &&
	gcc -o "$kr/vmlinux" "$kr/main.o" "$kr/net/ipv6/exthdrs_common.o" 2>> "$kr/log"; then
	sym() { nm "$kr/vmlinux" | awk -v n="$1" '$3 == n { print $1 }'; }
	# where .text ends
	end=$(objdump -h "$kr/vmlinux" | awk '$2 == ".text" { print $4, $3 }' |
		{ read -r vma size; printf '%x' $((0x$vma + 0x$size)); })
	{
		printf '%016x\n' $((0x$(sym kr_hit) + 3))
		sym kr_at_start
		printf '%016x\n' $((0x$end + 16))
	} > "$kr/pcs"
	want="kernel PCs reached: 3 (1 outside vmlinux's text, in modules)
  net/ipv6/exthdrs_common.c: 2 of 4 functions reached
    not reached: kr_c_twice kr_miss"
	for how in "without _etext" "with _etext"; do
		if [ "$how" = "with _etext" ]; then
			gcc -o "$kr/vmlinux" "$kr/main.o" "$kr/net/ipv6/exthdrs_common.o" \
				-Wl,--defsym=_etext=0x"$end" 2>> "$kr/log" || { kerr="cannot link with _etext"; break; }
			[ "$(sym _etext)" = "$(printf '%016x' $((0x$end)))" ] || { kerr="the link has no _etext at 0x$end"; break; }
		fi
		"$top/vm-images/kfuzz-report.sh" "$kr" "$kr/pcs" > "$kr/out" 2>&1
		[ "$(grep -v 'not built' "$kr/out" | head -n 3)" = "$want" ] ||
			{ kerr="$how, got: $(tr '\n' '|' < "$kr/out")"; break; }
	done
else
	kerr="cannot build the test program: $(tail -n 1 "$kr/log")"
fi
if [ -z "$kerr" ]; then echo "ok $name"; else echo "not ok $name -- $kerr"; fi
rm -rf "$kr"

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

# Every shell script of the repository is shellcheck-clean at severity
# "warning": those with a #! line as their shell, the sourced ones and the
# e2e tests (no #!, run by bash) as bash. -x follows their "source" lines.
name="shellcheck: the repository's shell scripts, no finding of severity warning or above"
sc_sheb=() sc_bash=()
while IFS= read -r f; do
	case "$f" in
	*.sh | *.t | dev | .ci/run) ;;
	*) head -n 1 "$top/$f" 2>/dev/null | grep -Eq '^#!.*(bash|/sh)( |$)' || continue ;;
	esac
	if head -n 1 "$top/$f" | grep -q '^#!'; then sc_sheb+=("$f"); else sc_bash+=("$f"); fi
done < <(git -C "$top" ls-files)
if [ $((${#sc_sheb[@]} + ${#sc_bash[@]})) -eq 0 ]; then
	echo "not ok $name -- no shell script found (git ls-files in $top)"
elif out=$(cd "$top" && shellcheck -x -S warning -f gcc "${sc_sheb[@]}" 2>&1 &&
	shellcheck -x -s bash -S warning -f gcc "${sc_bash[@]}" 2>&1); then
	echo "ok $name ($((${#sc_sheb[@]} + ${#sc_bash[@]})) scripts)"
else
	echo "not ok $name -- $(echo "$out" | grep -c ': \(warning\|error\):') findings: $(echo "$out" | head -n 2 | tr '\n' ' ')"
fi
exit 0
