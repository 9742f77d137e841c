#!/bin/sh
# Every function a libipeh man page names (NAME section) is declared in its
# SYNOPSIS, and the same page's SYNOPSIS declares each one as the header
# does: "NAME(" must appear in the SYNOPSIS and in ipeh.h.
# usage: man-synopsis.sh HEADER PAGE...
set -u
header=$1
shift
bad=0
for page in "$@"; do
	names=$(sed -n '/^\.SH NAME/,/^\.SH SYNOPSIS/p' "$page" | grep -v '^\.SH' |
		sed 's/\\-.*//' | tr ',' '\n' | tr -d ' \\')
	syn=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' "$page")
	for n in $names; do
		case $n in ipeh_*) ;; *) continue ;; esac
		if ! printf '%s\n' "$syn" | grep -q "[ *\"]$n("; then
			echo "$(basename "$page"): $n is named but not in the SYNOPSIS"
			bad=1
		fi
		if ! grep -Eq "(^|[ *])$n\(" "$header"; then
			echo "$(basename "$page"): $n is not declared in $(basename "$header")"
			bad=1
		fi
	done
done
exit $bad
