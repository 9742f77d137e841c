#!/bin/sh
# libipeh's ABI, as ipeh.h, the version script and the built library state
# it (issue 14 §18):
#  - the functions ipeh.h declares (static inline ones aside), the names the
#    version script lists and the dynamic symbols the library exports are
#    the same set;
#  - every exported symbol carries a LIBIPEH_* version, each node lists its
#    names (no wildcard but the final "local: *");
#  - the SONAME is libipeh.so.SOVERSION;
#  - the header declares no reserved identifier (leading "__" or "_X").
# usage: abi-check.sh HEADER MAP LIBRARY SOVERSION
set -u
header=$1 map=$2 lib=$3 sover=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "abi: $*"; bad=1; }

# the header without comments, directives kept
${CC:-cc} -fpreprocessed -dD -E -P "$header" > "$tmp/h" 2>/dev/null ||
	fail "cannot read $header"
# a declaration: "type name(" at the start of a line, not static inline
grep -E '^[a-z]' "$tmp/h" | grep -v '^static' |
	grep -oE '[ *](ipeh_[a-z0-9_]+)\(' | tr -d ' *(' | sort -u > "$tmp/declared"
[ -s "$tmp/declared" ] || fail "no function found in $header"

# the version script's names, and its nodes
sed 's|/\*.*\*/||; /\/\*/,/\*\//d' "$map" > "$tmp/map"
grep -E '^[[:space:]]+[a-z_0-9]+;' "$tmp/map" | tr -d ' \t;' | sort > "$tmp/listed"
if grep -E '^[[:space:]]+[^l].*\*' "$tmp/map" | grep -qv '^[[:space:]]*\*;'; then
	fail "$map: a wildcard outside 'local: *;'"
fi
if [ "$(sort -u "$tmp/listed" | wc -l)" != "$(wc -l < "$tmp/listed")" ]; then
	fail "$map lists a name twice: $(uniq -d "$tmp/listed" | tr '\n' ' ')"
fi
sort -u -o "$tmp/listed" "$tmp/listed"

# what the library exports, with versions
nm -D --defined-only --with-symbol-versions "$lib" > "$tmp/nm" ||
	fail "cannot read $lib"
awk '$3 ~ /^ipeh_/ { print $3 }' "$tmp/nm" | sed 's/@.*//' | sort -u > "$tmp/exported"
awk '$2 != "A" { print $3 }' "$tmp/nm" | grep -v '@@\?LIBIPEH_' > "$tmp/unversioned"
[ -s "$tmp/unversioned" ] &&
	fail "exported without a LIBIPEH_ version: $(tr '\n' ' ' < "$tmp/unversioned")"

if ! diff -u "$tmp/declared" "$tmp/listed" > "$tmp/d1"; then
	fail "ipeh.h (-) and $(basename "$map") (+) differ:"
	grep '^[-+]ipeh' "$tmp/d1"
fi
if ! diff -u "$tmp/listed" "$tmp/exported" > "$tmp/d2"; then
	fail "$(basename "$map") (-) and the exports of $(basename "$lib") (+) differ:"
	grep '^[-+]ipeh' "$tmp/d2"
fi

soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libipeh.so.$sover" ] ||
	fail "SONAME is '$soname', not libipeh.so.$sover"

# tested predefined macros (#if lines) and __attribute__ are not declarations
reserved=$(sed -e :a -e '/\\$/N; s/\\\n//; ta' "$tmp/h" |
	grep -vE "^[[:space:]]*#[[:space:]]*(if|elif)" | grep -oE '(^|[^A-Za-z0-9_])(__[A-Za-z0-9_]+|_[A-Z][A-Za-z0-9_]*)' |
	sed 's/^[^_]*//' | grep -vx '__attribute__' | sort -u | tr '\n' ' ')
[ -n "$reserved" ] && fail "reserved identifiers in $(basename "$header"): $reserved"

[ "$bad" = 0 ] && echo "abi: $(wc -l < "$tmp/exported") functions, declared = listed = exported; SONAME $soname"
exit $bad
