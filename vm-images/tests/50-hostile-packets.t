# ipeh: runs on stock
# Issue 7 §4: hostile packets. Malformed Hop-by-Hop and Destination headers,
# written out by hand and sent from the sender namespace through an
# IPPROTO_RAW socket (ipeh-rawsend), each with its expected outcome and
# counter change, asserted.
#
# Where each header is processed:
#  - Hop-by-Hop options are processed by every node on the path, so the router
#    (2001:db8:1::2) is the first to see them: a malformed Hop-by-Hop header
#    is dropped there (ip6_rcv_core counts every ipv6_parse_hopopts() failure
#    in the router's Ip6InHdrErrors) and ICMP comes from the router.
#  - Destination options sent to the receiver (2001:db8:2::1) are processed
#    by the receiver only (ipv6_destopt_rcv() counts failures in Ip6InHdrErrors).
#  - Multicast packets go to ff02::1 on the sender's link: the router is the
#    node that processes (and delivers) them.
#
# Expectations come from RFC 8200 §4.2 (option type action bits 00 skip,
# 01 discard, 10 discard + ICMP Parameter Problem code 2 even to multicast,
# 11 discard + ICMP only if not multicast; pointer = offset of the option type
# from the start of the invoking packet), RFC 4942 / 6.12 ip6_parse_tlv()
# (more than 7 bytes of padding in a row and non-zero PadN payload: silent
# drop; an option running past the header: silent drop; more options than
# max_*_opts_number: silent drop; negative max_*_opts_number: unknown options
# dropped silently, no ICMP) and the 6.12 handlers in
# /var/cache/ipeh/src/linux-source-6.12/net/ipv6/exthdrs.c (ipv6_hop_ra,
# ipv6_hop_ioam, ipv6_hop_jumbo, ipv6_hop_calipso with CONFIG_NETLABEL: no
# CALIPSO DOI is configured, so every CALIPSO option is dropped).
#
# The series must not change any of this, and ./dev test's stock pass runs
# this catalogue on stock 6.12 (IPEH_STOCK=1) to show it. The cases the series
# changes on purpose are marked SERIES-CHANGE below; each asserts the stock
# behaviour on stock and the series' otherwise, under the same name:
#  - dst "16-byte header, max_*_length 8": patch 1 ("ipeh: Fix destopts
#    counters on drop") counts a Destination header longer than
#    max_dst_opts_length in Ip6InHdrErrors; stock 6.12 drops it uncounted.
#  - the drop reasons of a truncated header and of one longer than
#    max_*_length, Hop-by-Hop (patch 19) and Destination (patch 1):
#    PKT_TOO_SMALL and IP_INHDR; stock 6.12 frees both with a plain
#    kfree_skb(), NOT_SPECIFIED.
#
# Drop reasons: every case that drops its packet also asserts the reason
# the processing node gave (the skb:kfree_skb trace event, in a tracefs
# instance of this test's own that records IPv6 packets only): exactly one
# drop, with that reason, and none in the cases that deliver. The reasons
# are those of the code that drops (6.12's ip6_parse_tlv() and handlers,
# the series' parser): IP_INHDR for a malformed header or option or one
# over a limit, UNHANDLED_PROTO for an unknown option whose action drops
# (also when ICMP is sent), PKT_TOO_SMALL for a packet shorter than a
# length it states, and ipv6_dest_hao()'s own reasons.
# Every other case gives the same outcome and counter deltas on both kernels
# (the two passes' $IPEH_TEST.catalogue files differ in that line only, and
# in the RFC 8883 cases at the end, which need patch 16's sysctl).

RAWSEND=/usr/libexec/ipeh/ipeh-rawsend
SND=2001:db8:1::1
RCV=2001:db8:2::1
MC=ff02::1
PORT=7000

# no ICMP rate limiting: every expected Parameter Problem must be sent
for ns in router receiver; do
	in_ns $ns sysctl -qw net.ipv6.icmp.ratelimit=0
done

# One UDP receiver per processing node for the whole test; each delivered
# packet is one "packet" line.
R_OUT=$IPEH_RESULTS/$IPEH_TEST.recv-receiver
M_OUT=$IPEH_RESULTS/$IPEH_TEST.recv-router
rm -f "$R_OUT" "$M_OUT"
in_ns receiver "$PROBE" recv $PORT 100000 600 > "$R_OUT" 2>&1 &
RPID=$!
in_ns router "$PROBE" recv $PORT 100000 600 > "$M_OUT" 2>&1 &
MPID=$!
must_run "the receiver's UDP listener is ready" wait_for 20 grep -q ready "$R_OUT"
must_run "the router's UDP listener is ready" wait_for 20 grep -q ready "$M_OUT"

ctr() { in_ns "$1" awk -v k="$2" '$1 == k { print $2 }' /proc/net/snmp6; }
npk() { grep -c '^packet' "$1"; }
grew_pk() { [ "$(npk "$1")" -gt "$2" ]; }
grew_ctr() { [ "$(ctr "$1" "$2")" -gt "$3" ]; }
# short names of the counters a case may assert
declare -A CTR=([he]=Ip6InHdrErrors [pp]=Icmp6OutParmProblems [di]=Ip6InDiscards
	[tr]=Ip6InTruncatedPkts)

CATALOGUE=$IPEH_RESULTS/$IPEH_TEST.catalogue
: > "$CATALOGUE"

TRACEFS=/sys/kernel/tracing
[ -d $TRACEFS/instances ] || must_run "set-up: tracefs mounted" mount -t tracefs tracefs $TRACEFS
TI=$TRACEFS/instances/ipeh-hostile
[ ! -d $TI ] || rmdir $TI
must_run "set-up: a tracefs instance of this test's own" mkdir $TI
# protocol is the host-order ETH_P_IPV6
must_run "set-up: kfree_skb events of IPv6 packets only" \
	sh -c "echo 'protocol == 34525' > $TI/events/skb/kfree_skb/filter"
must_run "set-up: kfree_skb events on" sh -c "echo 1 > $TI/events/skb/kfree_skb/enable"
# drop_reasons: REASON@FUNCTION of each IPv6 drop traced since the case
# began, one a line
drop_reasons() {
	sed -n 's/.* location=\([^+ ]*\)[^ ]* reason: \([A-Z0-9_]*\).*/\2@\1/p' "$TI/trace"
}

# hp NAME HDR DEST WANT COUNTERS HEX [--bare] [ipeh-rawsend options]
#   HDR hop|dst; DEST uc (the receiver) | mc (ff02::1);
#   WANT deliver | drop | icmp:CODE:POINTER (ICMPv6 Parameter Problem);
#   COUNTERS e.g. "he=1 pp=1": deltas on the processing node; he, pp and di
#   are always checked (0 unless given); r=REASON: the drop reason (default
#   IP_INHDR for a case that drops, none for one that delivers);
#   HEX the header, its first byte (next header) is filled in by ipeh-rawsend;
#   --bare: no UDP after the header (next header 59).
hp() {
	local name="$1" hdr=$2 dest=$3 want=$4 counters=$5 hex=$6 node daddr rfile
	shift 6
	local l4=(--udp 7001 "$PORT")
	if [ "${1:-}" = --bare ]; then l4=(); shift; fi
	if [ "$hdr" = hop ] || [ "$dest" = mc ]; then node=router; else node=receiver; fi
	# "@router": the IPv6 layer of the router drops it, whatever the header
	[[ $counters == *@router* ]] && node=router && counters=${counters//@router/}
	if [ "$dest" = mc ]; then daddr=$MC rfile=$M_OUT; else daddr=$RCV rfile=$R_OUT; fi
	declare -A want_d=([he]=0 [pp]=0 [di]=0) before after
	local kv k want_r=IP_INHDR got_r
	[ "$want" != deliver ] || want_r=""
	for kv in $counters; do
		case $kv in
		r=*) want_r=${kv#r=} ;;
		*) want_d[${kv%%=*}]=${kv#*=} ;;
		esac
	done
	for k in "${!want_d[@]}"; do before[$k]=$(ctr $node "${CTR[$k]}"); done
	local n0 wait_ms=300 out got
	n0=$(npk "$rfile")
	case $want in icmp:*) wait_ms=5000 ;; esac
	: > "$TI/trace"
	out=$(in_ns sender "$RAWSEND" --"$hdr" "$hex" "${l4[@]}" --dev s0 \
		--wait-icmp $wait_ms "$@" $SND $daddr 2>&1)
	# wait for the evidence: a delivered packet, or the counted drop
	if [ "$want" = deliver ]; then
		wait_for 5 grew_pk "$rfile" "$n0"
	elif [ "${want_d[he]}" -gt 0 ]; then
		wait_for 5 grew_ctr $node Ip6InHdrErrors "${before[he]}"
	elif [ -n "${want_d[tr]:-}" ]; then
		wait_for 5 grew_ctr $node Ip6InTruncatedPkts "${before[tr]}"
	else
		# a drop that leaves no count: a legal packet sent after it on the
		# same path (the guest has one vCPU, so the two are processed in
		# order) shows, once delivered, that the case has been processed
		in_ns sender "$RAWSEND" --dst "0000""0104""00000000" --udp 7001 $PORT \
			--dev s0 $SND $daddr > /dev/null ||
			not_ok "set-up: case '$name': the barrier packet" "not sent"
		wait_for 5 grew_pk "$rfile" "$n0" ||
			not_ok "set-up: case '$name': the barrier packet" "not delivered"
		n0=$((n0 + 1))
	fi
	for k in "${!want_d[@]}"; do after[$k]=$(ctr $node "${CTR[$k]}"); done
	got_r=$(drop_reasons | tr '\n' ' ')
	got_r=${got_r% }
	if [ "$(npk "$rfile")" -gt "$n0" ]; then
		got=deliver
	elif [[ $out == *"icmp type=4 "* ]]; then
		got=$(sed -n 's/^icmp type=4 code=\([0-9]*\) pointer=\([0-9]*\).*/icmp:\1:\2/p' <<< "$out")
	elif [[ $out == *"icmp type="* ]]; then
		got="other-icmp($(grep '^icmp' <<< "$out"))"
	elif [[ $out == sent* ]]; then
		got=drop
	else
		got="send-failed($(head -n 1 <<< "$out"))"
	fi
	local bad="" deltas=""
	[ "$got" = "$want" ] || bad="want $want, got $got"
	for k in he pp di tr; do
		[ -n "${want_d[$k]:-}" ] || continue
		local d=$((after[$k] - before[$k]))
		deltas+=" ${CTR[$k]}+$d"
		[ "$d" -eq "${want_d[$k]}" ] || bad+="${bad:+; }${CTR[$k]} +$d, want +${want_d[$k]}"
	done
	# exactly one drop, with the reason wanted (none for a delivery)
	if [ "${got_r%@*}" != "$want_r" ] || [[ $got_r == *" "* ]]; then
		bad+="${bad:+; }drops traced: '${got_r:-none}', want '${want_r:-none}'"
	fi
	printf '%-3s %-2s %-72s want %-10s got %-10s at %-8s%s %s\n' "$hdr" "$dest" "$name" \
		"$want" "$got" "$node" "$deltas" "${got_r:-no drop}" >> "$CATALOGUE"
	echo "case '$name': $out | got $got at $node:$deltas | drops: ${got_r:-none}"
	if [ -z "$bad" ]; then
		ok "$hdr/$dest: $name -> $want"
	else
		not_ok "$hdr/$dest: $name -> $want" "$bad"
	fi
}
# the sysctl of the node that processes HDR (router for hop, receiver for dst)
node_of() { if [ "$1" = hop ]; then echo router; else echo receiver; fi; }
lim() { # HDR number|length VALUE
	local name
	case $1-$2 in
	hop-number) name=max_hbh_opts_number ;;
	hop-length) name=max_hbh_length ;;
	dst-number) name=max_dst_opts_number ;;
	dst-length) name=max_dst_opts_length ;;
	esac
	in_ns "$(node_of "$1")" sysctl -qw "net.ipv6.$name=$3"
}
INTMAX=2147483647
# series_change SERIES STOCK: the expectation of a SERIES-CHANGE case, STOCK
# on the stock kernel and SERIES on the patched one
series_change() { if [ "$IPEH_STOCK" = 1 ]; then echo "$2"; else echo "$1"; fi; }

for h in hop dst; do
	# --- structure (both headers, unicast) ---
	# SERIES-CHANGE (patches 1 and 19): the reason; stock says none
	hp "truncated header (Hdr Ext Len 1 = 16 bytes, 8 sent)" $h uc drop \
		"he=1 r=$(series_change PKT_TOO_SMALL NOT_SPECIFIED)" "0001""0000""00000000" --bare
	hp "packet shorter than its Payload Length (24 said, 8 sent)" $h uc drop \
		"tr=1 @router r=PKT_TOO_SMALL" "0000""0100""00000000" --bare --plen 24
	hp "option running past the header (0x1e, 8 data bytes, 6 left)" $h uc drop "he=1" \
		"0000""1e08""00000000"
	hp "6 x Pad1 (longest legal padding run)" $h uc deliver "" \
		"0000""000000000000"
	hp "8 x Pad1" $h uc drop "he=1" \
		"0001""0000000000000000""0104""00000000"
	hp "PadN of 6 bytes (legal)" $h uc deliver "" \
		"0000""0104""00000000"
	hp "PadN of 8 bytes (longer than 7)" $h uc drop "he=1" \
		"0001""0106""000000000000""1e04""00000000"
	hp "non-zero PadN payload" $h uc drop "he=1" \
		"0000""0104""00000001"
	# --- limits (sysctls of the processing node) ---
	hp "3 options, max_*_opts_number 8 (default)" $h uc deliver "" \
		"0000""1e00""1e00""1e00"
	lim $h number 2
	hp "3 options, max_*_opts_number 2" $h uc drop "he=1" \
		"0000""1e00""1e00""1e00"
	lim $h number -8
	hp "unknown option 10xxxxxx, max_*_opts_number -8 (unknowns disallowed): no ICMP" \
		$h uc drop "he=1 r=UNHANDLED_PROTO" "0000""0100""9e02""0000"
	hp "padding only, max_*_opts_number -8" $h uc deliver "" \
		"0000""0104""00000000"
	lim $h number 8
	hp "16-byte header, max_*_length unlimited" $h uc deliver "" \
		"0001""1e0a""00000000000000000000""0100"
	lim $h length 8
	# SERIES-CHANGE for dst (patch 1): stock 6.12 drops it without counting;
	# for both (patches 1 and 19): the reason, stock says none
	c="he=1"
	[ $h = hop ] || c=$(series_change "he=1" "he=0")
	c+=" r=$(series_change IP_INHDR NOT_SPECIFIED)"
	hp "16-byte header, max_*_length 8" $h uc drop "$c" \
		"0001""1e0a""00000000000000000000""0100"
	lim $h length $INTMAX
	# --- unknown options: the action in the two high bits of the type ---
	# (after a 2-byte PadN, so the option type is at offset 44)
	for dest in uc mc; do
		hp "unknown option 0x1e (action 00: skip)" $h $dest deliver "" \
			"0000""0100""1e02""0000"
		hp "unknown option 0x5e (action 01: discard)" $h $dest drop "he=1 r=UNHANDLED_PROTO" \
			"0000""0100""5e02""0000"
		hp "unknown option 0x9e (action 10: discard, ICMP even to multicast)" $h $dest \
			icmp:2:44 "he=1 pp=1 r=UNHANDLED_PROTO" "0000""0100""9e02""0000"
		if [ $dest = uc ]; then
			hp "unknown option 0xde (action 11: discard, ICMP)" $h $dest \
				icmp:2:44 "he=1 pp=1 r=UNHANDLED_PROTO" "0000""0100""de02""0000"
		else
			hp "unknown option 0xde (action 11: discard, no ICMP to multicast)" $h $dest \
				drop "he=1 r=UNHANDLED_PROTO" "0000""0100""de02""0000"
		fi
	done
done

# --- Hop-by-Hop options that 6.12 handles (router) ---
hp "Router Alert (legal)" hop uc deliver "" "0000""0502""0000""0100"
hp "Router Alert with data length 4" hop uc drop "he=1" "0000""0504""00000000"
hp "Router Alert with data length 0" hop uc drop "he=1" "0000""0500""0102""0000"
hp "Router Alert in a Destination header (unknown there, action 00)" dst uc deliver "" \
	"0000""0502""0000""0100"
hp "CALIPSO with data length 6 (< 8)" hop uc drop "he=1" \
	"0001""0706""000000000000""0104""00000000"
hp "CALIPSO compartment bitmap past the option" hop uc drop "he=1" \
	"0001""0708""00000001""01""00""0000""0102""0000"
hp "CALIPSO with a bad checksum, DOI not configured" hop uc drop "he=1" \
	"0001""0708""00000001""00""00""0000""0102""0000"
IOAM_OK="0002""0100""3112""0000""007b""0802""80000000""0000000000000000"
hp "IOAM at offset 4n+2 (misaligned)" hop uc drop "he=1" \
	"0002""3112""0000""007b""0802""80000000""0000000000000000""0100"
hp "IOAM with data length 0, IOAM disabled on the router: ignored" hop uc deliver "" \
	"0000""0100""3100""0100"
in_ns router sysctl -qw net.ipv6.conf.r0.ioam6_enabled=1
hp "IOAM trace, unknown namespace, IOAM enabled: ignored" hop uc deliver "" "$IOAM_OK"
hp "IOAM with data length 0, IOAM enabled" hop uc drop "he=1" \
	"0000""0100""3100""0100"
hp "IOAM trace header truncated (data length 4)" hop uc drop "he=1" \
	"0001""0100""3104""0000""007b""0104""00000000"
hp "IOAM remaining length past the option" hop uc drop "he=1" \
	"0002""0100""3112""0000""007b""0805""80000000""0000000000000000"
hp "IOAM node length inconsistent with the trace type" hop uc drop "he=1" \
	"0002""0100""3112""0000""007b""1002""80000000""0000000000000000"
in_ns router sysctl -qw net.ipv6.conf.r0.ioam6_enabled=0
hp "Jumbo with data length 2" hop uc drop "he=1" "0000""c202""0000""0100"
hp "Jumbo at offset 4n (misaligned)" hop uc drop "he=1" \
	"0001""0100""c204""00010000""0104""00000000"
hp "Jumbo Payload Length 65535 (<= 65535)" hop uc icmp:0:44 "he=1 pp=1" \
	"0000""c204""0000ffff"
hp "Jumbo 65536 with a non-zero IPv6 Payload Length" hop uc icmp:0:42 "he=1 pp=1" \
	"0000""c204""00010000"
hp "Jumbo 65536, Payload Length 0, packet much shorter" hop uc drop "he=1 r=PKT_TOO_SMALL" \
	"0000""c204""00010000" --plen 0
hp "Jumbo in a Destination header (unknown there, action 11)" dst uc icmp:2:42 \
	"he=1 pp=1 r=UNHANDLED_PROTO" \
	"0000""c204""00010000"
# Home Address (0xC9, 8n+6, 16 bytes; CONFIG_IPV6_MIP6, ipv6_dest_hao()):
# the receiver has no IPsec state for it, so even a well-formed one is
# dropped (xfrm6_input_addr() fails), counted in Ip6InHdrErrors
HAO_HOME=20010db8000100000000000000000099
hp "HAO, unicast home address, no IPsec state" dst uc drop "he=1 r=XFRM_POLICY" \
	"0002""0102""0000""c910""$HAO_HOME"
hp "HAO with a multicast home address" dst uc drop "he=1 r=INVALID_PROTO" \
	"0002""0102""0000""c910""ff020000000000000000000000000001"
hp "HAO with data length 14" dst uc drop "he=1" \
	"0002""0102""0000""c90e""${HAO_HOME:0:28}""0100"
hp "HAO in a Hop-by-Hop header (unknown there, action 11)" hop uc icmp:2:42 \
	"he=1 pp=1 r=UNHANDLED_PROTO" \
	"0002""c910""$HAO_HOME""0102""0000"

# ---- RFC 8883 (patch 16): net.ipv6.icmp.exthdr_limit_errors=1 ----
# Everything above ran with the sysctl at its default, 0: the limit cases
# (more than 7 bytes of padding, too many options, header too long) were
# dropped silently, exactly as on stock 6.12. With the sysctl 1 on the node
# that processes the header, the same packets are answered with ICMPv6
# Parameter Problem, codes and pointers of RFC 8883 section 3 (offsets from
# the start of the invoking packet; the header starts at 40):
#   6  extension header too big   first byte of the header past the limit
#   9  too many options            first option over the limit
#   10 option too big (padding)    the padding option that goes past 7 bytes
# The sender -> router capture of this test is decoded by tshark on the host
# (vm-images/pcap-checks.sh). These cases run on the series only (stock has
# no such sysctl), so the two passes' catalogues also differ in them.
if [ "$IPEH_STOCK" != 1 ]; then
	X=/proc/sys/net/ipv6/icmp/exthdr_limit_errors
	if [ "$(in_ns router cat $X 2>&1)" = 0 ] && [ "$(in_ns receiver cat $X 2>&1)" = 0 ] &&
		[ "$(cat $X 2>&1)" = 0 ]; then
		ok "RFC 8883: net.ipv6.icmp.exthdr_limit_errors is 0 in every namespace by default"
	else
		not_ok "RFC 8883: net.ipv6.icmp.exthdr_limit_errors is 0 in every namespace by default" \
			"router '$(in_ns router cat $X 2>&1)', receiver '$(in_ns receiver cat $X 2>&1)'"
	fi
	check_fails "RFC 8883: exthdr_limit_errors refuses 2" in_ns receiver sysctl -qw net.ipv6.icmp.exthdr_limit_errors=2
	for ns in router receiver; do
		in_ns $ns sysctl -qw net.ipv6.icmp.exthdr_limit_errors=1
	done
	for h in hop dst; do
		hp "RFC 8883: 8 x Pad1" $h uc icmp:10:49 "he=1 pp=1" \
			"0001""0000000000000000""0104""00000000"
		hp "RFC 8883: PadN of 8 bytes (longer than 7)" $h uc icmp:10:42 "he=1 pp=1" \
			"0001""0106""000000000000""1e04""00000000"
		hp "RFC 8883: non-zero PadN payload (not a limit: silent)" $h uc drop "he=1" \
			"0000""0104""00000001"
		hp "RFC 8883: option running past the header (not a limit: silent)" $h uc drop "he=1" \
			"0000""1e08""00000000"
		hp "RFC 8883: 3 options, max_*_opts_number 8 (default)" $h uc deliver "" \
			"0000""1e00""1e00""1e00"
		lim $h number 2
		hp "RFC 8883: 3 options, max_*_opts_number 2" $h uc icmp:9:46 "he=1 pp=1" \
			"0000""1e00""1e00""1e00"
		hp "RFC 8883: 3 options after a PadN, max_*_opts_number 2" $h uc icmp:9:50 "he=1 pp=1" \
			"0001""0102""0000""1e00""1e00""1e00""0102""0000"
		lim $h number 8
		lim $h length 8
		hp "RFC 8883: 16-byte header, max_*_length 8" $h uc icmp:6:48 "he=1 pp=1" \
			"0001""1e0a""00000000000000000000""0100"
		lim $h length $INTMAX
	done
	# never to a multicast destination (RFC 4443 2.4 (e)): the router
	# processes both headers of packets to ff02::1
	in_ns router sysctl -qw net.ipv6.max_hbh_opts_number=2 net.ipv6.max_dst_opts_number=2
	for h in hop dst; do
		hp "RFC 8883: 3 options, max_*_opts_number 2, to ff02::1: no ICMP" $h mc drop "he=1" \
			"0000""1e00""1e00""1e00"
		hp "RFC 8883: 8 x Pad1 to ff02::1: no ICMP" $h mc drop "he=1" \
			"0001""0000000000000000""0104""00000000"
	done
	in_ns router sysctl -qw net.ipv6.max_hbh_opts_number=8 net.ipv6.max_dst_opts_number=8
	# never about an ICMPv6 error message (RFC 4443 2.4 (e))
	lim dst number 2
	hp "RFC 8883: 3 options in front of an ICMPv6 error message: no ICMP" dst uc drop "he=1" \
		"0000""1e00""1e00""1e00" --bare --icmp-error
	hp "RFC 8883: 3 options in front of an ICMPv6 Echo Request" dst uc icmp:9:46 "he=1 pp=1" \
		"0000""1e00""1e00""1e00" --bare --icmp-echo
	# rate limited like every ICMPv6 error: net.ipv6.icmp.ratelimit 16000 ms
	# is one token a second towards the sender (icmpv6_xrlim_allow() divides
	# it by 16 for the receiver's default route); after 2 s of rest a burst
	# of 20 gets a few answers, the others are counted as rate-limited
	in_ns receiver sysctl -qw net.ipv6.icmp.ratelimit=16000
	sleep 2
	he0=$(ctr receiver Ip6InHdrErrors) pp0=$(ctr receiver Icmp6OutParmProblems)
	rl0=$(ctr receiver Icmp6OutRateLimitHost)
	for _ in $(seq 20); do
		in_ns sender "$RAWSEND" --dst "0000""1e00""1e00""1e00" --udp 7001 $PORT \
			--dev s0 $SND $RCV > /dev/null 2>&1
	done
	wait_for 10 grew_ctr receiver Ip6InHdrErrors $((he0 + 19)) || true
	he=$(( $(ctr receiver Ip6InHdrErrors) - he0 )) pp=$(( $(ctr receiver Icmp6OutParmProblems) - pp0 ))
	rl=$(( $(ctr receiver Icmp6OutRateLimitHost) - rl0 ))
	if [ "$he" = 20 ] && [ "$pp" -ge 1 ] && [ "$pp" -le 12 ] && [ $((pp + rl)) = 20 ]; then
		ok "RFC 8883: rate limited: 20 dropped, $pp answered, $rl rate-limited"
	else
		not_ok "RFC 8883: rate limited: 20 dropped, 1 to 12 answered, the rest rate-limited" \
			"dropped $he, answered $pp, rate-limited $rl"
	fi
	in_ns receiver sysctl -qw net.ipv6.icmp.ratelimit=0
	lim dst number 8
	# off again: silent, as on stock
	for ns in router receiver; do
		in_ns $ns sysctl -qw net.ipv6.icmp.exthdr_limit_errors=0
	done
	lim dst number 2
	hp "RFC 8883: sysctl 0 again: 3 options, max_*_opts_number 2 (silent)" dst uc drop "he=1" \
		"0000""1e00""1e00""1e00"
	lim dst number 8
fi

kill "$RPID" "$MPID" 2>/dev/null
echo 0 > $TI/events/skb/kfree_skb/enable
rmdir $TI
wait "$RPID" "$MPID" 2>/dev/null
echo "---- catalogue ($(uname -r)) ----"
cat "$CATALOGUE"
