#!/bin/sh
# Every libipeh man page's EXAMPLE compiles, as C11 and as C++20 (an
# application may be either): a complete program as it is, a fragment
# inside main() with the variables its text speaks of (table, blk, len).
# usage: man-examples.sh INCLUDE_DIR UAPI_DIR PAGE...
set -u
inc=$1 uapi=$2
shift 2
cc=${CC:-cc} cxx=${CXX:-c++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0 n=0
for page in "$@"; do
	name=$(basename "$page" .3)
	sed -n '/^\.SH EXAMPLE/,/^\.SH /{/^\.nf$/,/^\.fi$/p}' "$page" |
		sed '/^\.nf$/d; /^\.fi$/d; s/\\e/\\/g; s/\\-/-/g' > "$tmp/$name.frag"
	[ -s "$tmp/$name.frag" ] || continue
	n=$((n + 1))
	if grep -q 'int main' "$tmp/$name.frag"; then
		cp "$tmp/$name.frag" "$tmp/$name.c"
	else
		{
			printf '#include <err.h>\n#include <stdio.h>\n#include <stdint.h>\n'
			printf '#include <sys/socket.h>\n#include <ipeh.h>\n\n'
			printf 'static struct ipeh_table table;\nstatic uint8_t blk[64];\n'
			printf 'static size_t len = sizeof(blk);\n\nint main(void)\n{\n'
			cat "$tmp/$name.frag"
			printf 'return 0;\n}\n'
		} > "$tmp/$name.c"
	fi
	for lang in c c++; do
		if [ $lang = c ]; then
			set -- "$cc" -std=c11 -D_GNU_SOURCE
		else
			set -- "$cxx" -std=c++20 -x c++ -Wno-missing-field-initializers
		fi
		if ! out=$("$@" -Wall -Wextra -Werror -Wno-unused-variable \
				-fsyntax-only -I"$inc" -I"$uapi" "$tmp/$name.c" 2>&1); then
			echo "$name(3) EXAMPLE does not compile as $lang:"
			echo "$out" | head -n 6
			bad=1
		fi
	done
done
echo "$n examples checked"
exit $bad
