#!/usr/bin/env bash
# kbench-report.sh OUTDIR SERIES_VARIANT [STOCK_VARIANT]
#
# Summarises `./dev bench --kernel`: OUTDIR/<variant>-<boot>/kbench.txt hold
# "KBENCH <metric> ns=<guest ns>" lines from guests run with -icount shift=3,
# where one guest instruction is 8 ns. For each metric and kernel: the best
# boot in instructions, and the spread between boots; then the series against
# stock as a ratio, and one TARGET line per target (issue 12 §4):
#   - receive: no received header costs more on the series than on stock
#     (series / stock <= 1.000): 8 unknown Destination options (rx-8opt),
#     the same in a Hop-by-Hop header (rx-hbh8opt), a Destination header of
#     padding only (rx-dstpad), a Hop-by-Hop Router Alert (rx-hbhra), and a
#     forwarded Hop-by-Hop PMTU option without ip6_pmtu_opt (pmtuoff-fwd-pmtu);
#   - root send: sendmsg() with an IPV6_DSTOPTS cmsg, root, series / stock
#     <= 1.005 for 8 bytes (root-tx-cmsg) and <= 1.02 for 40 bytes of 8
#     options (root40-tx-cmsg);
#   - user send: an unprivileged sendmsg() with the options checked by the
#     series may cost at most 2 % more than stock's (root, unchecked)
#     sendmsg() of the same header (user-tx-cmsg vs root-tx-cmsg <= 1.02);
#   - policy: applying a 250-entry policy with one REPLACE costs at most
#     1/20 of 250 SETs (table-replace250 vs table-sets250 <= 0.05, series
#     only; these two metrics are whole runs, not per packet).
# What ip6_pmtu_opt costs when loaded (pmtuon-*) is printed, without target.
set -euo pipefail
out=${1:?usage: kbench-report.sh OUTDIR SERIES_VARIANT [STOCK_VARIANT]}
series=${2:?series variant}
stock=${3:-}

# all "variant metric insns" triples, one per boot
all=$(for f in "$out"/*-[0-9]*/kbench.txt; do
	d=$(basename "$(dirname "$f")")
	awk -v v="${d%-*}" '$1 == "KBENCH" && $3 ~ /^ns=/ {
		sub(/^ns=/, "", $3); printf "%s %s %.1f\n", v, $2, $3 / 8 }' "$f"
done)
[ -n "$all" ] || { echo "kbench-report: no results under $out" >&2; exit 1; }

# best and spread of one variant's metric: "best spread%" or nothing
stat() {
	awk -v v="$1" -v m="$2" '$1 == v && $2 == m {
		if (++n == 1 || $3 < min) min = $3; if (n == 1 || $3 > max) max = $3 }
		END { if (n) printf "%.0f %.2f\n", min, (max - min) * 100 / min }' <<< "$all"
}

echo "# guest instructions per packet (best boot; spread between boots in %)"
for m in $(awk '{ print $2 }' <<< "$all" | sort -u); do
	read -r sb ss <<< "$(stat "$series" "$m")" || true
	if [ -n "$stock" ]; then
		read -r tb ts <<< "$(stat "$stock" "$m")" || true
	else
		tb='' ts=''
	fi
	if [ -n "${sb:-}" ] && [ -n "${tb:-}" ]; then
		printf 'KBENCH %s series=%s (spread %s%%) stock=%s (spread %s%%) ratio=%.4f\n' \
			"$m" "$sb" "$ss" "$tb" "$ts" "$(awk -v a="$sb" -v b="$tb" 'BEGIN { print a / b }')"
	elif [ -n "${sb:-}" ]; then
		printf 'KBENCH %s series=%s (spread %s%%)\n' "$m" "$sb" "$ss"
	fi
	sb='' tb=''
done

best() { stat "$1" "$2" | cut -d' ' -f1; }
diff_of() { # variant metric-a metric-b: a - b
	local a b
	a=$(best "$1" "$2"); b=$(best "$1" "$3")
	[ -n "$a" ] && [ -n "$b" ] && echo $((a - b))
}
echo "# what the options add"
for v in $series $stock; do
	echo "KBENCH $v: 8 unknown Destination options add $(diff_of "$v" rx-8opt rx-plain) instructions to receiving a datagram"
	echo "KBENCH $v: 8 unknown Hop-by-Hop options add $(diff_of "$v" rx-hbh8opt rx-plain) instructions"
	echo "KBENCH $v: a Destination header of padding only adds $(diff_of "$v" rx-dstpad rx-plain) instructions"
	echo "KBENCH $v: a Hop-by-Hop Router Alert adds $(diff_of "$v" rx-hbhra rx-plain) instructions"
	echo "KBENCH $v: an 8-byte IPV6_DSTOPTS cmsg adds $(diff_of "$v" root-tx-cmsg root-tx-plain) instructions to sendmsg() (root)"
	echo "KBENCH $v: a 40-byte cmsg of 8 options adds $(diff_of "$v" root40-tx-cmsg root40-tx-plain) instructions to sendmsg() (root)"
	echo "KBENCH $v: forwarding a PMTU option without ip6_pmtu_opt adds $(diff_of "$v" pmtuoff-fwd-pmtu pmtuoff-fwd-plain) instructions"
done
u=$(diff_of "$series" user-tx-cmsg user-tx-plain || true)
[ -z "$u" ] || echo "KBENCH $series: the same cmsg, checked for an unprivileged user, adds $u instructions"
m=$(diff_of "$series" pmtuon-fwd-pmtu pmtuon-fwd-plain || true)
[ -z "$m" ] || echo "KBENCH $series: forwarding a PMTU option with ip6_pmtu_opt loaded and on adds $m instructions"

verdict() { awk -v r="$1" -v l="$2" 'BEGIN { print (r <= l) ? "met" : "NOT met" }'; }
# target NAME SERIES_METRIC STOCK_VARIANT STOCK_METRIC LIMIT
target() {
	local a b r
	a=$(best "$series" "$2" || true); b=$(best "$3" "$4" || true)
	if [ -z "$a" ] || [ -z "$b" ]; then
		echo "TARGET $1: $series $2 / $3 $4: no measurement: NOT met"
		return
	fi
	r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", a / b }')
	echo "TARGET $1: $series $2 / $3 $4 = $r ($a / $b instructions) (<= $5): $(verdict "$r" "$5")"
}
echo "# targets"
tsets=$(best "$series" table-sets250 || true); trep=$(best "$series" table-replace250 || true)
if [ -n "$tsets" ] && [ -n "$trep" ]; then
	r=$(awk -v a="$trep" -v b="$tsets" 'BEGIN { printf "%.4f", a / b }')
	echo "TARGET policy: one REPLACE of 250 entries / 250 SETs = $r ($trep / $tsets instructions) (<= 0.05): $(verdict "$r" 0.05)"
fi
[ -n "$stock" ] || exit 0
for m in rx-8opt rx-hbh8opt rx-dstpad rx-hbhra pmtuoff-fwd-pmtu; do
	target "receive $m" "$m" "$stock" "$m" 1.000
done
target "root send, 8-byte cmsg" root-tx-cmsg "$stock" root-tx-cmsg 1.005
target "root send, 40-byte cmsg of 8 options" root40-tx-cmsg "$stock" root40-tx-cmsg 1.02
target "user send, checked" user-tx-cmsg "$stock" root-tx-cmsg 1.02
