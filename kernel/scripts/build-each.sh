#!/bin/bash
# Apply the kernel series one patch at a time onto a pristine tree and
# build after each patch; stop at the first patch that does not apply or
# does not build, and name it.
#
# usage: build-each.sh [-j N] [--full] [--from N] PRISTINE_SRC WORK_DIR [SERIES]
#   PRISTINE_SRC  extracted linux-source-6.12 (read only, never modified)
#   WORK_DIR      scratch: WORK_DIR/src (patched copy), WORK_DIR/build (O=)
#   SERIES        the series file (default: kernel/patches/series next to
#                 this script); patch names are relative to its directory
#   --full        also build bzImage after the last patch
#   --from N      only build after patches N.. (1-based; earlier ones are
#                 applied without building)
#
# Environment: CC (default "ccache gcc" if ccache exists), CCACHE_DIR,
# CONFIG_FRAGMENT (default kernel/config/base.config), EXTRA_CONFIG (lines
# such as "CONFIG_IPV6_MIP6=n" merged after the fragment).
set -euo pipefail

jobs=2 full=0 from=1
while [[ $# -gt 0 ]]; do
	case "$1" in
	-j) jobs=$2; shift 2 ;;
	--full) full=1; shift ;;
	--from) from=$2; shift 2 ;;
	-h|--help) sed -n '2,20p' "$0"; exit 0 ;;
	*) break ;;
	esac
done
[[ $# -ge 2 ]] || { sed -n '2,20p' "$0" >&2; exit 2; }

here=$(cd "$(dirname "$0")/.." && pwd)
pristine=$(cd "$1" && pwd)
work=$2
series=${3:-$here/patches/series}
series=$(cd "$(dirname "$series")" && pwd)/$(basename "$series")
patchdir=$(dirname "$series")
fragment=${CONFIG_FRAGMENT:-$here/config/base.config}
src=$work/src
out=$work/build

if [[ -z "${CC:-}" ]]; then
	if command -v ccache >/dev/null; then CC="ccache gcc"; else CC=gcc; fi
fi
export CCACHE_DIR=${CCACHE_DIR:-/var/cache/ipeh/ccache}

[[ -f $pristine/Makefile && -f $pristine/net/ipv6/exthdrs.c ]] ||
	{ echo "build-each: $pristine is not a kernel tree" >&2; exit 2; }
[[ -f $series ]] || { echo "build-each: no series file $series" >&2; exit 2; }

mkdir -p "$work" "$out"

# A fresh copy of the pristine tree, kept as a git repository so that a
# second run only resets it.
if [[ -d $src/.git ]]; then
	git -C "$src" reset -q --hard pristine
	git -C "$src" clean -q -fdx
else
	rm -rf "$src"
	cp -a "$pristine" "$src"
	git -C "$src" init -q
	git -C "$src" config gc.auto 0
	git -C "$src" add -f -A .
	git -C "$src" -c user.name=build-each -c user.email=build-each@localhost \
		commit -q -m pristine
	git -C "$src" tag pristine
fi

kmake() {
	make -s -C "$src" O="$out" CC="$CC" -j"$jobs" "$@"
}

configure() {
	local extra=()

	if [[ -n "${EXTRA_CONFIG:-}" ]]; then
		printf '%s\n' $EXTRA_CONFIG >"$work/extra.config"
		extra=("$work/extra.config")
	fi
	kmake tinyconfig >/dev/null
	"$src"/scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" \
		"$fragment" "${extra[@]}" >/dev/null
	kmake olddefconfig >/dev/null
}

configure

mapfile -t patches < <(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$series")
n=0
for p in "${patches[@]}"; do
	n=$((n + 1))
	echo "[$n/${#patches[@]}] $p"
	if ! (cd "$src" && patch -p1 -s -N --no-backup-if-mismatch \
			-r - <"$patchdir/$p"); then
		echo "build-each: FAILED to apply: $p" >&2
		exit 1
	fi
	[[ $n -lt $from ]] && continue

	# A new Kconfig symbol may now satisfy a line of the fragment (with
	# --from, the patches applied without a build may have added some)
	if [[ $n -eq $from && $from -gt 1 ]] ||
	   grep -q '^+++ b/.*Kconfig' "$patchdir/$p"; then
		configure
	fi

	# Files this patch touches: compile them with W=1 and -Werror first
	objs=$(sed -n 's|^+++ b/\(.*\)\.c$|\1.o|p' "$patchdir/$p" |
	       grep -E '^net/(ipv6|core|netlabel|ipv4)/' || true)
	for o in $objs; do
		[[ -f $src/${o%.o}.c ]] || continue
		if ! kmake W=1 KCFLAGS=-Werror "$o" >/dev/null 2>"$work/err"; then
			# skip objects that the config does not build
			if grep -q "No rule to make target" "$work/err"; then
				continue
			fi
			cat "$work/err" >&2
			echo "build-each: FAILED (W=1 $o): $p" >&2
			exit 1
		fi
	done

	if ! kmake net/ipv6/ net/core/ net/netlabel/ 2>"$work/err"; then
		cat "$work/err" >&2
		echo "build-each: FAILED to build: $p" >&2
		exit 1
	fi
	[[ -s $work/err ]] && cat "$work/err" >&2
done

if [[ $full -eq 1 ]]; then
	echo "bzImage"
	if ! kmake bzImage 2>"$work/err"; then
		cat "$work/err" >&2
		echo "build-each: FAILED to build bzImage after: ${patches[-1]}" >&2
		exit 1
	fi
	echo "$out/arch/x86/boot/bzImage"
fi
echo "build-each: ${#patches[@]} patches applied and built"
