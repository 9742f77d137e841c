#!/bin/bash
# Print "suite.case" for every KUnit case a test file defines: the cases of
# each `static struct kunit_case NAME[]` array, under the .name of the
# `struct kunit_suite` whose .test_cases is that array, for the suites listed
# in kunit_test_suites(). The guest run compares the list with the TAP the
# kernel printed, so a case or suite that silently stops running fails.
#
# usage: kunit-expected.sh FILE.c
set -euo pipefail
file=${1:?usage: kunit-expected.sh FILE.c}
out=$(awk '
	/^static struct kunit_case [a-z0-9_]+\[\] = \{/ {
		arr = $4; sub(/\[\]$/, "", arr); in_cases = 1; next
	}
	in_cases && /^};/ { in_cases = 0; next }
	in_cases && match($0, /KUNIT_CASE[A-Z_]*\(([a-z0-9_]+)/) {
		c = substr($0, RSTART, RLENGTH); sub(/^KUNIT_CASE[A-Z_]*\(/, "", c)
		cases[arr] = cases[arr] " " c; next
	}
	/^static struct kunit_suite [a-z0-9_]+ = \{/ { var = $4; in_suite = 1; next }
	in_suite && /^};/ { in_suite = 0; next }
	in_suite && /\.name *=/ { n = $0; sub(/.*= *"/, "", n); sub(/".*/, "", n); sname[var] = n; next }
	in_suite && /\.test_cases *=/ { t = $0; sub(/.*= */, "", t); sub(/,.*/, "", t); sarr[var] = t; next }
	/^kunit_test_suites\(/ {
		line = $0; sub(/^kunit_test_suites\(/, "", line); sub(/\);.*/, "", line)
		gsub(/[& ]/, "", line); nl = split(line, listed, ",")
		for (i = 1; i <= nl; i++) {
			v = listed[i]
			if (!(v in sname) || !(sarr[v] in cases)) { print "ERROR " v; continue }
			nc = split(cases[sarr[v]], cs, " ")
			for (j = 1; j <= nc; j++) print sname[v] "." cs[j]
		}
	}' "$file")
if [ -z "$out" ] || grep -q '^ERROR' <<< "$out"; then
	echo "kunit-expected.sh: cannot read the suites of $file: ${out:-nothing found}" >&2
	exit 1
fi
echo "$out"
