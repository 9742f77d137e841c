# Issue 7 §5: hostile processes.
# (1) An unprivileged process sends random and mutated option blocks through
#     setsockopt() and sendmsg() ancillary data, for all three header kinds
#     (IPV6_HOPOPTS, IPV6_DSTOPTS, IPV6_RTHDRDSTOPTS): `ipeh-probe hostile`
#     compares each kernel verdict with libipeh's validator (which implements
#     kernel/TLV-TABLE.md). A block the kernel accepts but libipeh refuses is a
#     VIOLATION; any other disagreement a mismatch. Both must be 0. Blocks
#     accepted through sendmsg() are sent to ::1 and received, so the receive
#     parser sees them too.
# (2) RCU stress: an admin process flips the TLV table (SET + UNSET of IOAM
#     and of option 0x3e, in a loop) while an unprivileged sender sends UDP
#     datagrams carrying those options to the receiver (Hop-by-Hop through the
#     router, Destination options). Each datagram the kernel accepted for
#     sending (the policy allowed it at that moment) must arrive.
# Kernel splats (KASAN, lockdep, RCU, WARN) fail the run on the host side.
#
# Sizes: setsockopt and sendmsg (a datagram sent to ::1 and received) both
# take a few microseconds each, even under TCG: 100,000 + 20,000 blocks for
# each of the three header kinds, plus a run with a no-check option.
NSOCK=100000	# per header kind, through setsockopt
NCMSG=20000	# per header kind, through sendmsg
NPKT=3000	# per option, during the table flips
RCV=2001:db8:2::1
t0=$(date +%s)

# The administrator lets users send a few options with deep checks, so that
# many blocks are accepted; all of them are then canonical and must also pass
# the receive parser on ::1.
# The experimental types granted have action 00 (skip when unknown): a type
# with action 01 (0x7e, say) would be accepted for sending and then, as RFC
# 8200 says, dropped by every receiver that does not know it.
for cmd in "set ioam user=check" "set ra user=check" \
	"set 0x1e order=100 user=check class=hop,dst,rtdst align=8n+2 len=0-20 lenmult=4n+0" \
	"set 0x3e order=110 user=check class=hop,dst,rtdst align=4n+2 len=0-8"; do
	# shellcheck disable=SC2086
	must "admin: $cmd" ok "$PROBE" $cmd
done

total=0
seed=1
for h in hop dst rtdst; do
	out=$(as_user sender "$PROBE" hostile $h "$NSOCK" "$NCMSG" $seed 2>&1)
	seed=$((seed + 1))
	echo "$out"
	sum=$(grep "^hostile $h:" <<< "$out")
	if [ -z "$sum" ]; then
		not_ok "$h: hostile blocks ran" "$(tail -n 2 <<< "$out" | tr '\n' ' ')"
		continue
	fi
	total=$((total + NSOCK + NCMSG))
	# "setsockopt N blocks, A accepted, V violations, M mismatches; sendmsg ..."
	read -r sa sv sm ca cr cv cm < <(sed -E 's/.*setsockopt [0-9]+ blocks, ([0-9]+) accepted, ([0-9]+) violations, ([0-9]+) mismatches; sendmsg [0-9]+ blocks, ([0-9]+) accepted, ([0-9]+) received, ([0-9]+) violations, ([0-9]+) mismatches.*/\1 \2 \3 \4 \5 \6 \7/' <<< "$sum")
	if [ "$sv" = 0 ] && [ "$cv" = 0 ]; then
		ok "$h: the kernel accepted no block that libipeh refuses ($NSOCK setsockopt, $NCMSG sendmsg)"
	else
		not_ok "$h: the kernel accepted no block that libipeh refuses" "$sum"
	fi
	if [ "$sm" = 0 ] && [ "$cm" = 0 ]; then ok "$h: kernel and libipeh give the same verdict on every block"
	else not_ok "$h: kernel and libipeh give the same verdict on every block" "$sum"; fi
	if [ "$sa" -gt 0 ] && [ "$ca" -gt 0 ]; then ok "$h: some blocks were accepted ($sa setsockopt, $ca sendmsg)"
	else not_ok "$h: some blocks were accepted" "$sum"; fi
	if [ "$h" = rtdst ]; then
		: # without a routing header the kernel does not send IPV6_RTHDRDSTOPTS
	elif [ "$cr" = "$ca" ]; then ok "$h: every block accepted by sendmsg was received on ::1 ($cr)"
	else not_ok "$h: every block accepted by sendmsg was received on ::1" "$sum $(grep LOST <<< "$out" | head -n 3 | tr '\n' ' ')"; fi
done
# A no-check option: accepted as is (no padding or order checks around it),
# so only the verdicts are compared (the receiver may drop what it sends).
must "admin: 0x3e user=no-check" ok "$PROBE" set 0x3e user=no-check
for h in hop dst; do
	out=$(as_user sender "$PROBE" hostile $h 20000 5000 $seed 2>&1)
	seed=$((seed + 1))
	echo "$out"
	sum=$(grep "^hostile $h:" <<< "$out")
	total=$((total + 25000))
	if [[ $sum == *" 0 violations, 0 mismatches; sendmsg "*" 0 violations, 0 mismatches;"* ]]; then
		ok "$h with a no-check option: no violation, no mismatch (20000 setsockopt, 5000 sendmsg)"
	else
		not_ok "$h with a no-check option: no violation, no mismatch" "${sum:-$(tail -n 2 <<< "$out" | tr '\n' ' ')}"
	fi
done
# The same with small count and length limits in the sender's namespace, so
# that the rules on the header as a whole (count, trailing padding, length)
# meet headers of no-check options only, of checked ones only, and mixed.
in_ns sender sysctl -qw net.ipv6.max_hbh_opts_number=2 net.ipv6.max_dst_opts_number=2 \
	net.ipv6.max_hbh_length=24 net.ipv6.max_dst_opts_length=24
for h in hop dst rtdst; do
	out=$(as_user sender "$PROBE" hostile $h 10000 2000 $seed 2>&1)
	seed=$((seed + 1))
	echo "$out"
	sum=$(grep "^hostile $h:" <<< "$out")
	total=$((total + 12000))
	if [[ $sum == *" 0 violations, 0 mismatches; sendmsg "*" 0 violations, 0 mismatches;"* ]]; then
		ok "$h with a no-check option, count limit 2, length limit 24: no violation, no mismatch (10000 setsockopt, 2000 sendmsg)"
	else
		not_ok "$h with a no-check option, count limit 2, length limit 24: no violation, no mismatch" "${sum:-$(tail -n 2 <<< "$out" | tr '\n' ' ')}"
	fi
done
in_ns sender sysctl -qw net.ipv6.max_hbh_opts_number=8 net.ipv6.max_dst_opts_number=8 \
	net.ipv6.max_hbh_length=2147483647 net.ipv6.max_dst_opts_length=2147483647
echo "hostile blocks in total: $total ($(($(date +%s) - t0)) s)"
if [ "$total" -ge 100000 ]; then ok "at least 100,000 hostile blocks ($total)"
else not_ok "at least 100,000 hostile blocks" "$total"; fi
for t in ioam ra 0x1e 0x3e; do "$PROBE" unset $t > /dev/null; done

# ---- (2) table flips under traffic ----
IOAM1="0002""0100""310e""0000""007b""0801""80000000""00000000""01020000"
EXP3E="0000""3e04""deadbeef"
t1=$(date +%s)
# The receiver prints a line per datagram; it writes to tmpfs, and its socket
# buffer holds every datagram the senders could send, so that only the policy
# (and no slow reader) can make a datagram go missing.
rout=$(mktemp -d)/recv
rmem=$(sysctl -n net.core.rmem_default)
sysctl -qw net.core.rmem_default=8388608
in_ns receiver "$PROBE" recv 7000 10000000 10 > "$rout" 2>&1 &
rpid=$!
wait_for 20 grep -q ready "$rout"
rbuf0=$(in_ns receiver awk '$1 == "Udp6RcvbufErrors" { print $2 }' /proc/net/snmp6)
as_user sender "$PROBE" sendloop hop "$IOAM1" $RCV 7000 "$NPKT" 2000 > "$rout.hop" 2>&1 &
s1=$!
as_user sender "$PROBE" sendloop dst "$EXP3E" $RCV 7000 "$NPKT" 2000 > "$rout.dst" 2>&1 &
s2=$!
rounds=0 flipfail=0
while kill -0 $s1 2>/dev/null || kill -0 $s2 2>/dev/null; do
	f=$("$PROBE" flip 20 3000)
	rounds=$((rounds + 20))
	n=$(sed -n 's/.*, \([0-9]*\) failed requests/\1/p' <<< "$f")
	flipfail=$((flipfail + ${n:-1}))
done
wait $s1 $s2
wait $rpid
got=$(sed -n 's/^received //p' "$rout")
sysctl -qw net.core.rmem_default="$rmem"
rbuf1=$(in_ns receiver awk '$1 == "Udp6RcvbufErrors" { print $2 }' /proc/net/snmp6)
cat "$rout.hop" "$rout.dst"
sent=0
for f in "$rout.hop" "$rout.dst"; do
	n=$(sed -n 's/^sendloop \([0-9]*\) ok.*/\1/p' "$f")
	sent=$((sent + ${n:-0}))
done
echo "flips: $rounds rounds (4 requests each), $flipfail failed; sent $sent, received $got, receiver Udp6RcvbufErrors +$((rbuf1 - rbuf0)); $(($(date +%s) - t1)) s"
if [ "$rounds" -ge 20 ] && [ "$flipfail" = 0 ]; then ok "admin flipped the table $rounds times under traffic, every request succeeded"
else not_ok "admin flipped the table under traffic" "$rounds rounds, $flipfail failed requests"; fi
if grep -q "other [1-9]" "$rout.hop" "$rout.dst"; then
	not_ok "sendmsg verdicts under flips are only ok or EPERM" "$(cat "$rout.hop" "$rout.dst" | tr '\n' ' ')"
else
	ok "sendmsg verdicts under flips are only ok or EPERM"
fi
if [ "$sent" -gt 0 ] && [ "$got" = "$sent" ]; then ok "no lost packet that the policy allowed ($sent sent, $got received)"
else not_ok "no lost packet that the policy allowed" "$sent sent, $got received, Udp6RcvbufErrors +$((rbuf1 - rbuf0))"; fi
for t in ioam 0x3e; do "$PROBE" unset $t > /dev/null 2>&1; done
echo "51-hostile-procs: $(($(date +%s) - t0)) s in all"
