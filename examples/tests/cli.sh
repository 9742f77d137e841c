#!/bin/sh
# Host-side checks of the examples that need no ipeh kernel and send nothing:
# --help, argument errors (exit 2), and the receivers decoding Hop-by-Hop
# headers given in hex (--decode), built here by hand from RFC 9197/9268,
# independently of libipeh's encoders.
#
#   cli.sh IOAM_SENDER IOAM_RECEIVER PMTU_SENDER PMTU_RECEIVER
set -u
ioam_sender=$1 ioam_receiver=$2 pmtu_sender=$3 pmtu_receiver=$4
failed=0

fail() { echo "not ok - $*"; failed=1; }
pass() { echo "ok - $*"; }

# expect_exit CODE NAME CMD...
expect_exit() {
	want=$1 name=$2
	shift 2
	"$@" > /tmp/ipeh-cli.$$ 2>&1
	got=$?
	if [ "$got" -eq "$want" ]; then pass "$name"; else
		fail "$name: exit $got, want $want"; sed 's/^/    /' /tmp/ipeh-cli.$$; fi
}
# expect_out NAME PATTERN CMD...: output (stdout+stderr) matches grep -E PATTERN
expect_out() {
	name=$1 pat=$2
	shift 2
	out=$("$@" 2>&1)
	if printf '%s\n' "$out" | grep -Eq -- "$pat"; then pass "$name"; else
		fail "$name: no /$pat/ in:"; printf '%s\n' "$out" | sed 's/^/    /'; fi
}

for p in "$ioam_sender" "$ioam_receiver" "$pmtu_sender" "$pmtu_receiver"; do
	n=$(basename "$p")
	expect_exit 0 "$n --help exits 0" "$p" --help
	expect_out "$n --help shows usage" "^Usage: $n" "$p" --help
	expect_exit 2 "$n rejects an unknown option" "$p" --no-such-option
done
expect_exit 2 "ioam-sender needs a destination" "$ioam_sender"
expect_exit 2 "pmtu-sender needs a destination" "$pmtu_sender"
expect_exit 2 "ioam-sender rejects --nodes 0" "$ioam_sender" --nodes 0 ::1
expect_exit 2 "ioam-sender rejects a trace too big for 244 bytes" \
	"$ioam_sender" --nodes 20 ::1
expect_exit 2 "ioam-sender rejects an unknown field name" \
	"$ioam_sender" --trace-type hop-limit,colour ::1
expect_exit 2 "ioam-sender rejects the reserved bit 23" "$ioam_sender" --trace-type 0x000001 ::1
expect_exit 2 "ioam-sender rejects a bad namespace" "$ioam_sender" --namespace 70000 ::1
expect_exit 2 "pmtu-sender rejects --mtu below 1280" "$pmtu_sender" --mtu 1000 ::1
expect_exit 2 "ioam-receiver rejects a bad --timeout" "$ioam_receiver" --timeout soon

# An 80-byte Hop-by-Hop header: PadN, IOAM option at offset 4 (type 0x31,
# 74 bytes): namespace 123, node length 4, remaining 8 words, trace type
# 0xf00000, 32 free bytes, then the receiver's node (hop limit 62, id 3,
# ingress 31, egress unavailable) and the router's (63, id 2, 21, 22).
trace=11090100314a0000007b2008f000000000000000000000000000000000000000000000000000000000000000000000003e000003001fffff674e88800001e26c3f00000200150016674e88800001e240
expect_out "ioam-receiver decodes the router's node first (path order)" \
	'hop 1: node id 2, hop limit 63, ingress if 21, egress if 22, timestamp 1733200000\.123456' \
	"$ioam_receiver" --decode "$trace"
expect_out "ioam-receiver shows an unavailable egress interface" \
	'hop 2: node id 3, hop limit 62, ingress if 31, egress if unavailable' \
	"$ioam_receiver" --decode "$trace"
expect_out "ioam-receiver counts filled nodes and free room" \
	'2 nodes filled, room left for 2' "$ioam_receiver" --decode "$trace"
expect_out "ioam-receiver --json gives the nodes in path order" \
	'"nodes":\[\{"hop":1,"hop_limit":63,"node_id":2,"ingress_if":21,"egress_if":22,"ts_sec":1733200000,"ts_frac":123456,"unavailable":\[\]\},\{"hop":2,' \
	"$ioam_receiver" --json --decode "$trace"
expect_out "ioam-receiver --json lists unavailable fields" \
	'"unavailable":\["egress_if"\]' "$ioam_receiver" --json --decode "$trace"
# Same trace with the overflow flag (flags bit 0 = 0x8 << 7 in the 16 bits).
overflow=$(printf '%s' "$trace" | sed 's/^\(.\{20\}\)2008/\12408/')
expect_out "ioam-receiver reports an overflowed trace" 'OVERFLOW' \
	"$ioam_receiver" --decode "$overflow"
# Node length 3 does not match trace type 0xf00000: Linux drops such a packet.
bad=$(printf '%s' "$trace" | sed 's/^\(.\{20\}\)2008/\11808/')
expect_out "ioam-receiver flags an inconsistent trace header" 'malformed' \
	"$ioam_receiver" --decode "$bad"
expect_exit 1 "ioam-receiver --decode without IOAM exits 1" \
	"$ioam_receiver" --decode 0000010400000000
expect_exit 2 "ioam-receiver --decode rejects non-hex" "$ioam_receiver" --decode xyz

# PMTU option at offset 2 (alignment 4n+2): Min-PMTU 1500, Rtn-PMTU 1400, R=1.
expect_out "pmtu-receiver decodes Min-PMTU, Rtn-PMTU and R" \
	'Min-PMTU 1500, Rtn-PMTU 1400, R=1' "$pmtu_receiver" --decode 0000300405dc0579
expect_out "pmtu-receiver --json decodes the option" \
	'"pmtu_option":true,"min_pmtu":1500,"rtn_pmtu":1400,"r":true' \
	"$pmtu_receiver" --json --decode 0000300405dc0579
expect_exit 1 "pmtu-receiver --decode without the option exits 1" \
	"$pmtu_receiver" --decode 0000010400000000

rm -f /tmp/ipeh-cli.$$
exit $failed
