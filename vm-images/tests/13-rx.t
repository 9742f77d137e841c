# (e) An option an unprivileged sender set reaches the receiver byte-identical;
# (f) Destination options that the receiver drops are counted in Ip6InHdrErrors.
IOAM1="0002""0100""310e""0000""007b""0801""80000000""00000000""01020000"
EXP_DST="0000""1e04""deadbeef"
dst=2001:db8:2::1

must "admin grants IOAM user=check" ok "$PROBE" set ioam user=check
must "admin adds option 0x1e for Destination headers" ok \
	"$PROBE" set 0x1e order=100 user=check class=dst align=4n+2 len=4-4

# recv_one HDR HEX VIA: receiver prints what arrived; the sender sends one datagram
recv_one() {
	local out=$IPEH_RESULTS/$IPEH_TEST.recv
	rm -f "$out"
	in_ns receiver "$PROBE" recv 7000 1 10 > "$out" &
	local rpid=$!
	wait_for 10 grep -q ready "$out"
	as_user sender "$PROBE" send "$1" "$2" $dst 7000 $3 > /dev/null
	wait "$rpid"
	grep '^packet' "$out"
}
# The kernel writes the next-header byte (17, UDP) in place of our 00.
for via in "" --cmsg; do
	got=$(recv_one hop "$IOAM1" "$via")
	want="packet hop=11${IOAM1:2}"
	if [ "$got" = "$want" ]; then ok "IOAM option arrives byte-identical (${via:-sticky})"
	else not_ok "IOAM option arrives byte-identical (${via:-sticky})" "got '$got' want '$want'"; fi
	got=$(recv_one dst "$EXP_DST" "$via")
	want="packet dst=11${EXP_DST:2}"
	if [ "$got" = "$want" ]; then ok "Destination option arrives byte-identical (${via:-sticky})"
	else not_ok "Destination option arrives byte-identical (${via:-sticky})" "got '$got' want '$want'"; fi
done

# (f) 8 x Pad1 is more padding than RFC 8200 allows: the receiver drops the
# packet and counts it. Only CAP_NET_RAW may send such a header.
hdrerrs() { in_ns receiver awk '$1 == "Ip6InHdrErrors" { print $2 }' /proc/net/snmp6; }
hdrerrs_above() { [ "$(hdrerrs)" -gt "$1" ]; }
before=$(hdrerrs)
expect "root sends Destination options with 8 x Pad1 (+PadN)" ok \
	in_ns sender "$PROBE" send dst "0001""0000000000000000""01040000""0000" $dst 7001 --cmsg
wait_for 5 hdrerrs_above "$before"
after=$(hdrerrs)
if [ "$after" -eq $((before + 1)) ]; then ok "receiver counted the dropped packet in Ip6InHdrErrors ($before -> $after)"
else not_ok "receiver counted the dropped packet in Ip6InHdrErrors" "$before -> $after"; fi

# Patch 1/9: a Destination header longer than the receiver's
# max_dst_opts_length is dropped and, unlike stock 6.12, counted.
in_ns receiver sysctl -qw net.ipv6.max_dst_opts_length=8
before=$(hdrerrs)
expect "root sends a 16-byte Destination header" ok \
	in_ns sender "$PROBE" send dst "0001""1e04deadbeef""0106000000000000" $dst 7001 --cmsg
wait_for 5 hdrerrs_above "$before"
after=$(hdrerrs)
if [ "$after" -eq $((before + 1)) ]; then ok "header over max_dst_opts_length counted in Ip6InHdrErrors ($before -> $after)"
else not_ok "header over max_dst_opts_length counted in Ip6InHdrErrors" "$before -> $after"; fi
in_ns receiver sysctl -qw net.ipv6.max_dst_opts_length=2147483647

must "admin UNSET of IOAM" ok "$PROBE" unset ioam
must "admin UNSET of 0x1e" ok "$PROBE" unset 0x1e
