#!/usr/bin/env bash
# kbench-report.sh OUTDIR SERIES_VARIANT [STOCK_VARIANT]
#
# Summarises `./dev bench --kernel`: OUTDIR/<variant>-<boot>/kbench.txt hold
# "KBENCH <metric> ns=<guest ns>" lines from guests run with -icount shift=3,
# where one guest instruction is 8 ns. For each metric and kernel: the best
# boot in instructions, and the spread between boots; then the series against
# stock as a ratio, and the two targets of DESIGN.md:
#   - receive: the series must not make receiving the 8-option packet cost
#     more than stock (rx-8opt ratio <= 1.00);
#   - send: an unprivileged sendmsg() with the options checked by the series
#     may cost at most 5 % more than stock's (root, unchecked) sendmsg() of
#     the same Destination header (user-tx-cmsg vs root-tx-cmsg <= 1.05);
#   - policy: applying a 250-entry policy with one REPLACE costs at most
#     1/20 of 250 SETs (table-replace250 vs table-sets250 <= 0.05, series
#     only; these two metrics are whole runs, not per packet).
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
	echo "KBENCH $v: an 8-byte IPV6_DSTOPTS cmsg adds $(diff_of "$v" root-tx-cmsg root-tx-plain) instructions to sendmsg() (root)"
done
u=$(diff_of "$series" user-tx-cmsg user-tx-plain || true)
[ -z "$u" ] || echo "KBENCH $series: the same cmsg, checked for an unprivileged user, adds $u instructions"

verdict() { awk -v r="$1" -v l="$2" 'BEGIN { print (r <= l) ? "met" : "NOT met" }'; }
echo "# targets"
tsets=$(best "$series" table-sets250 || true); trep=$(best "$series" table-replace250 || true)
if [ -n "$tsets" ] && [ -n "$trep" ]; then
	r=$(awk -v a="$trep" -v b="$tsets" 'BEGIN { printf "%.4f", a / b }')
	echo "TARGET policy: one REPLACE of 250 entries / 250 SETs = $r ($trep / $tsets instructions) (<= 0.05): $(verdict "$r" 0.05)"
fi
[ -n "$stock" ] || exit 0
srx=$(best "$series" rx-8opt); trx=$(best "$stock" rx-8opt)
r=$(awk -v a="$srx" -v b="$trx" 'BEGIN { printf "%.4f", a / b }')
echo "TARGET receive: series rx-8opt / stock rx-8opt = $r (<= 1.00): $(verdict "$r" 1.00)"
stx=$(best "$series" user-tx-cmsg); ttx=$(best "$stock" root-tx-cmsg)
if [ -n "$stx" ] && [ -n "$ttx" ]; then
	r=$(awk -v a="$stx" -v b="$ttx" 'BEGIN { printf "%.4f", a / b }')
	echo "TARGET send: series user-tx-cmsg / stock root-tx-cmsg = $r (<= 1.05): $(verdict "$r" 1.05)"
fi
