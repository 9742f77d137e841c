#!/bin/bash
# Run scripts/checkpatch.pl --strict on every patch of the series.
#
# usage: checkpatch-all.sh KERNEL_SRC [SERIES]
#   KERNEL_SRC  a kernel tree (read only) that provides scripts/checkpatch.pl
#   SERIES      default: kernel/patches/series next to this script
#
# Ignored, with the reason given in the cover letter:
#   FILE_PATH_CHANGES  "does MAINTAINERS need updating?" for new files under
#                      net/ipv6/ and include/net/ip*, which the NETWORKING
#                      [IPv4/IPv6] entry already covers, and under
#                      tools/testing/selftests/net/ (NETWORKING [GENERAL]).
# Exit status: 0 if every patch is clean, 1 otherwise.
set -uo pipefail

[[ $# -ge 1 ]] || { sed -n '2,13p' "$0" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$1" && pwd)
series=${2:-$here/patches/series}
patchdir=$(cd "$(dirname "$series")" && pwd)

ignore=FILE_PATH_CHANGES
bad=0 n=0
while read -r p; do
	[[ -z $p || $p == \#* ]] && continue
	n=$((n + 1))
	if out=$("$src"/scripts/checkpatch.pl --strict --root="$src" \
			--ignore "$ignore" --no-summary --color=never \
			"$patchdir/$p" 2>&1); then
		echo "ok    $p"
	else
		echo "FAIL  $p"
		echo "$out" | sed 's/^/      /'
		bad=$((bad + 1))
	fi
done <"$series"
echo "checkpatch --strict: $((n - bad)) clean, $bad with findings (ignored: $ignore)"
[[ $bad -eq 0 ]]
