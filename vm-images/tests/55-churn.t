# ipeh: debug pass only
# Issue 16 §2: stress under churn, on the debug kernel (KASAN, KFENCE,
# lockdep, PROVE_RCU, UBSAN; the runner fails on any splat on the console and
# scans kmemleak after the tests). For IPEH_CHURN_SECONDS (ipeh.churn=N on
# the kernel command line; 60 in ./dev test, MINUTES x 60 in ./dev stress),
# all at once, each worker in the background with a pid of its own:
#  (a) traffic both ways, sender <-> receiver through the router, sent by
#      the unprivileged user with Hop-by-Hop and Destination options, every
#      other datagram by sticky setsockopt() and by sendmsg() ancillary data
#      (ipeh-probe churnsend); each receiver (ipeh-probe churnrecv) compares
#      every datagram's options byte for byte with the copy its payload
#      carries (the option data varies with each datagram's sequence number);
#  (b) the host's and the receiver's policies replaced atomically in turn
#      (tlvctl apply of two policy files on the host, one REPLACE request in
#      the receiver's namespace), and (c) entry by entry (SET, UNSET), on the
#      same types, the two workers racing each other;
#  (d) the RFC 9268 module ip6_pmtu_opt loaded and unloaded under the
#      traffic, its sysctl switched on in the router each time, so the
#      handler runs on the forwarded Hop-by-Hop options;
#  (e) network namespaces made, given a policy of their own (or none),
#      used by the user (one datagram to ::1, checked byte for byte, or
#      EPERM where nothing was granted) and deleted;
#  (f) unprivileged processes setting and removing sticky options in the
#      host's and the receiver's namespaces.
# Every policy gives each type the same layout (order, alignment, lengths)
# and changes only who may send it, so every block the users send is
# canonical under every policy: EPERM is the one refusal allowed, any other
# errno is a failure. The Min-PMTU sent is 1400, the router's smallest
# egress MTU, so a router that runs the RFC 9268 handler leaves it as sent.

SECS=${IPEH_CHURN_SECONDS:-60}
SND=2001:db8:1::1
RCV=2001:db8:2::1
FWD_PORT=7300	# sender -> receiver
REV_PORT=7301	# receiver -> sender
W=$(mktemp -d /run/ipeh-55.XXXXXX)
chmod 755 "$W"
COUNTS=$IPEH_RESULTS/$IPEH_TEST-counts.txt
: > "$COUNTS"

# Canonical blocks under every policy below (built by libipeh for that
# layout; next header first): IOAM pre-allocated trace with 8 bytes of node
# data at 4n, Min-PMTU 1400 at 4n+2, 0x1e with 4 data bytes at 4n+2, 0x3e
# with 8 data bytes at 8n+2
H_IOAM=0002010031120000007b0802800000000000000000000000
H_PMTU=0000300405780000
H_IOAM_PMTU=0003010031120000007b08028000000000000000000000000100300405780000
H_ALL=0004010031120000007b0802800000000000000000000000010030040578000001001e04deadbeef
H_EXP=00021e04deadbeef01003e08010203040506070801020000
D_1E=00001e04deadbeef
D_3E=00013e08010203040506070801020000
D_EXP=00021e04deadbeef01003e08010203040506070801020000
SPECS=("hop=$H_IOAM" "hop=$H_PMTU" "hop=$H_IOAM_PMTU" "dst=$D_1E" "hop=$H_EXP" "dst=$D_3E"
	"hop=$H_PMTU,dst=$D_EXP" "hop=$H_ALL,dst=$D_1E")

pids=()
churn_cleanup() {
	local p ns
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	for ns in $(ip netns list | awk '/^ipeh-churn-/ { print $1 }'); do ip netns del "$ns"; done
	grep -q '^ip6_pmtu_opt ' /proc/modules && rmmod ip6_pmtu_opt
	"$PROBE" replace --reset > /dev/null 2>&1
	rm -rf "$W"
}
trap 'churn_cleanup; _ipeh_test_end' EXIT

# same NAME A B: ok if A and B are the same text
same() {
	if [ "$2" = "$3" ]; then ok "$1"
	else not_ok "$1" "$(diff <(echo "$2") <(echo "$3") | head -n 6 | tr '\n' ' ')"; fi
}
# count FILE KEY: the number after "KEY " in FILE's summary line (0 if none)
count() { sed -n "s/.* $2 \([0-9][0-9]*\).*/\1/p" "$1" | tail -n 1 | grep . || echo 0; }

# ---- the two policies: the same layout, other permissions; and 32 other
# types (0x40..0x5f) whose orders all change, so that each switch changes
# 35 entries (Min-PMTU stays granted in both)
policy_file() { # 1|2
	local v=$1 t u_on u_off
	if [ "$v" = 1 ]; then u_on=check u_off=none; else u_on=none u_off=check; fi
	cat <<-EOF
	[global]
	unmentioned = keep
	[option ioam]
	class = hop
	order = 50
	admin = nocheck
	user = $u_on
	align = 4n+0
	length = 10-254
	length-mult = 4n+2
	[option pmtu]
	class = hop
	order = 60
	admin = nocheck
	user = check
	align = 4n+2
	length = 4
	[option 0x1e]
	class = hop,dst
	order = 100
	admin = nocheck
	user = $u_on
	align = 4n+2
	length = 4
	[option 0x3e]
	class = hop,dst
	order = 110
	admin = nocheck
	user = $u_off
	align = 8n+2
	length = 8
	EOF
	for t in $(seq 64 95); do
		printf '[option 0x%02x]\nclass = dst\norder = %d\nadmin = nocheck\nuser = %s\nalign = 4n+2\nlength = 4\n' \
			"$t" $((v * 1000 + t)) "$u_on"
	done
}
# the same as one REPLACE request (ipeh-probe replace; class 5 = hop,dst)
policy_entries() { # 1|2
	local v=$1 t u_on u_off
	if [ "$v" = 1 ]; then u_on=check u_off=none; else u_on=none u_off=check; fi
	echo "ioam,order=50,admin=no-check,user=$u_on,class=1,align=4n+0,len=10-254,lenmult=4n+2"
	echo "pmtu,order=60,admin=no-check,user=check,class=1,align=4n+2,len=4-4,lenmult=1n+0"
	echo "0x1e,order=100,admin=no-check,user=$u_on,class=5,align=4n+2,len=4-4,lenmult=1n+0"
	echo "0x3e,order=110,admin=no-check,user=$u_off,class=5,align=8n+2,len=8-8,lenmult=1n+0"
	for t in $(seq 64 95); do
		printf '0x%02x,order=%d,admin=no-check,user=%s,class=4,align=4n+2,len=4-4,lenmult=1n+0\n' \
			"$t" $((v * 1000 + t)) "$u_on"
	done
}
for v in 1 2; do
	policy_file $v > "$W/p$v.conf"
	mapfile -t "RP$v" < <(policy_entries $v)
done
chmod 644 "$W"/p*.conf
pristine=$("$PROBE" dump)
must_run "tlvctl apply p2 (host)" tlvctl apply "$W/p2.conf"
d2_host=$("$PROBE" dump)
must_run "tlvctl apply p1 (host)" tlvctl apply "$W/p1.conf"
d1_host=$("$PROBE" dump)
must "REPLACE p2 (receiver)" ok in_ns receiver "$PROBE" replace "${RP2[@]}"
d2_rcv=$(in_ns receiver "$PROBE" dump)
must "REPLACE p1 (receiver)" ok in_ns receiver "$PROBE" replace "${RP1[@]}"
d1_rcv=$(in_ns receiver "$PROBE" dump)
same "tlvctl apply p1 and REPLACE p1 give the same table" "$d1_host" "$d1_rcv"
if [ "$(diff <(echo "$d1_host") <(echo "$d2_host") | grep -c '^<')" = 35 ]; then
	ok "the two policies differ in 35 entries"
else not_ok "the two policies differ in 35 entries" "$(diff <(echo "$d1_host") <(echo "$d2_host") | grep -c '^<')"; fi
expect "policy 1 lets the user send IOAM, Min-PMTU and 0x1e (one datagram to ::1, byte for byte)" ok \
	as_user sender "$PROBE" loopcheck "hop=$H_ALL,dst=$D_1E"
if ! modinfo ip6_pmtu_opt > /dev/null 2>&1; then
	not_ok "set-up: modinfo finds ip6_pmtu_opt" "$(modinfo ip6_pmtu_opt 2>&1 | head -n 1)"
fi
grep -q '^ip6_pmtu_opt ' /proc/modules && rmmod ip6_pmtu_opt

# ---- the workers; each runs for SECS and writes one summary line
end=$((SECONDS + SECS))
# bad LOG WHAT: record an unexpected outcome (the first 5 are kept)
bad() {
	nbad=$((nbad + 1))
	[ "$nbad" -gt 5 ] || echo "UNEXPECTED $*"
}

worker_atomic() {
	local rounds=0 nbad=0 v=2 out entries
	while [ $SECONDS -lt $end ]; do
		out=$(tlvctl apply "$W/p$v.conf" 2>&1) || bad "tlvctl apply p$v: $out"
		if [ $v = 1 ]; then entries=("${RP1[@]}"); else entries=("${RP2[@]}"); fi
		out=$(in_ns receiver "$PROBE" replace "${entries[@]}" 2>&1)
		[ "${out%% *}" = ok ] || bad "receiver REPLACE p$v: $out"
		rounds=$((rounds + 1))
		v=$((3 - v))
	done
	echo "atomic: rounds $rounds unexpected $nbad"
}

worker_entries() {
	local requests=0 nbad=0 i=0 ns out
	local cmds=("set ioam user=check" "unset ioam"
		"set 0x1e order=100 user=check class=hop,dst align=4n+2 len=4-4 lenmult=1n+0"
		"set 0x3e order=110 user=check class=hop,dst align=8n+2 len=8-8 lenmult=1n+0"
		"unset 0x1e" "set ioam user=none"
		"set 0x3e order=110 user=none class=hop,dst align=8n+2 len=8-8 lenmult=1n+0"
		"unset pmtu" "set pmtu order=60 user=check class=hop align=4n+2 len=4-4 lenmult=1n+0")
	while [ $SECONDS -lt $end ]; do
		if [ $((i % 2)) = 0 ]; then ns=sender; else ns=receiver; fi
		# shellcheck disable=SC2086 # the command's words
		out=$(in_ns $ns "$PROBE" ${cmds[$((i / 2 % ${#cmds[@]}))]} 2>&1)
		[ "${out%% *}" = ok ] || bad "$ns: ${cmds[$((i / 2 % ${#cmds[@]}))]}: $out"
		requests=$((requests + 1))
		i=$((i + 1))
	done
	echo "entries: requests $requests unexpected $nbad"
}

worker_module() {
	local loads=0 unloads=0 refused=0 nbad=0 out
	while [ $SECONDS -lt $end ]; do
		if out=$(modprobe ip6_pmtu_opt 2>&1); then
			loads=$((loads + 1))
			out=$(in_ns router sysctl -qw net.ipv6.pmtu_option_update=1 2>&1) ||
				bad "router: pmtu_option_update=1 after modprobe: $out"
		else
			bad "modprobe ip6_pmtu_opt: $out"
		fi
		sleep 0.3	# forwarded traffic runs through the handler meanwhile
		if out=$(rmmod ip6_pmtu_opt 2>&1); then
			unloads=$((unloads + 1))
		elif [[ $out == *"in use"* || $out == *"busy"* ]]; then
			refused=$((refused + 1))
		else
			bad "rmmod ip6_pmtu_opt: $out"
		fi
		sleep 0.2
	done
	echo "module: loads $loads unloads $unloads refused $refused unexpected $nbad"
}

worker_netns() {
	local i=0 granted=0 nbad=0 ns want out
	while [ $SECONDS -lt $end ]; do
		ns=ipeh-churn-$i
		if ! out=$({ ip netns add $ns && ip -n $ns link set lo up; } 2>&1); then
			bad "$ns: ip netns add: $out"
			ip netns del $ns 2>/dev/null
			i=$((i + 1))
			continue
		fi
		# odd: a policy of its own (one REPLACE); even: none, so the
		# user's datagram must be refused, as in any new namespace
		want=EPERM
		if [ $((i % 2)) = 1 ]; then
			out=$(in_ns $ns "$PROBE" replace \
				0x1e,order=100,user=check,class=4,align=4n+2,len=4-4 \
				0x40,order=1064,user=check,class=4,align=4n+2,len=4-4 2>&1)
			[ "${out%% *}" = ok ] || bad "$ns: REPLACE: $out"
			want=ok granted=$((granted + 1))
		fi
		out=$(as_user $ns "$PROBE" loopcheck "dst=$D_1E" 2>&1)
		[ "${out%% *}" = "$want" ] || bad "$ns: user's datagram: want $want, got $out"
		out=$(ip netns del $ns 2>&1) || bad "$ns: ip netns del: $out"
		i=$((i + 1))
	done
	echo "netns: made-and-deleted $i with-policy $granted unexpected $nbad"
}

# receivers first (root: SO_RCVBUFFORCE), then the workers
in_ns receiver "$PROBE" churnrecv $FWD_PORT "$W/stop" > "$W/recv-fwd" 2>&1 &
rpids=($!)
"$PROBE" churnrecv $REV_PORT "$W/stop" > "$W/recv-rev" 2>&1 &
rpids+=($!)
pids+=("${rpids[@]}")
must_run "receiver of fwd ready" wait_for 30 grep -q ready "$W/recv-fwd"
must_run "receiver of rev ready" wait_for 30 grep -q ready "$W/recv-rev"
t0=$SECONDS
echo "churn: $SECS s, workers starting"
as_user sender "$PROBE" churnsend $RCV $FWD_PORT "$SECS" 3000 fwd "${SPECS[@]}" > "$W/send-fwd" 2>&1 &
wpids=($!)
as_user receiver "$PROBE" churnsend $SND $REV_PORT "$SECS" 3000 rev "${SPECS[@]}" > "$W/send-rev" 2>&1 &
wpids+=($!)
worker_atomic > "$W/atomic" 2>&1 &
wpids+=($!)
worker_entries > "$W/entries" 2>&1 &
wpids+=($!)
worker_module > "$W/module" 2>&1 &
wpids+=($!)
worker_netns > "$W/netns" 2>&1 &
wpids+=($!)
as_user sender "$PROBE" stickyloop "$SECS" 5000 "${SPECS[@]}" > "$W/sticky-host" 2>&1 &
wpids+=($!)
as_user receiver "$PROBE" stickyloop "$SECS" 5000 "${SPECS[@]}" > "$W/sticky-rcv" 2>&1 &
wpids+=($!)
pids+=("${wpids[@]}")
wnames=(send-fwd send-rev atomic entries module netns sticky-host sticky-rcv)

# each worker ends by itself after SECS (a shell worker after its last
# round): a hung one is a failure, and is ended
alive() { local p; for p in "$@"; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
limit=$((SECS + 60 + SECS / 4))
while alive "${wpids[@]}" && [ $((SECONDS - t0)) -lt $limit ]; do sleep 1; done
hung=()
for i in "${!wpids[@]}"; do
	if kill -0 "${wpids[$i]}" 2>/dev/null; then
		hung+=("${wnames[$i]}")
		kill "${wpids[$i]}" 2>/dev/null
	fi
	wait "${wpids[$i]}" 2>/dev/null
done
took=$((SECONDS - t0))
touch "$W/stop"
rlimit=$((SECONDS + 60))
while alive "${rpids[@]}" && [ $SECONDS -lt $rlimit ]; do sleep 0.5; done
for p in "${rpids[@]}"; do
	kill -0 "$p" 2>/dev/null && { hung+=("receiver"); kill "$p"; }
	wait "$p" 2>/dev/null
done
pids=()
if [ ${#hung[@]} = 0 ]; then ok "every worker ended by itself within $limit s (took $took s)"
else not_ok "every worker ended by itself within $limit s" "still running: ${hung[*]}"; fi

for f in "${wnames[@]}" recv-fwd recv-rev; do
	echo "---- $f"
	cat "$W/$f"
done
{
	echo "duration_s=$SECS took_s=$took"
	for f in "${wnames[@]}" recv-fwd recv-rev; do
		echo "$f: $(grep -v '^ready' "$W/$f" | tail -n 1)"
	done
} >> "$COUNTS"

# ---- (a) traffic: counts, byte-identical delivery both ways
for dir in fwd rev; do
	sent=$(count "$W/send-$dir" sent)
	eperm=$(count "$W/send-$dir" EPERM)
	other=$(count "$W/send-$dir" other)
	clearf=$(count "$W/send-$dir" clear-failed)
	got=$(count "$W/recv-$dir" "from $dir")
	same_n=$(count "$W/recv-$dir" identical)
	mism=$(count "$W/recv-$dir" mismatches)
	foreign=$(count "$W/recv-$dir" foreign)
	what="$dir ($([ $dir = fwd ] && echo sender to receiver || echo receiver to sender))"
	if [ "$sent" -gt 0 ] && [ "$got" = "$sent" ]; then
		ok "$what: every datagram sent was delivered ($sent, $eperm refused with EPERM)"
	else
		not_ok "$what: every datagram sent was delivered" \
			"sent $sent, received $got: $(tail -n 1 "$W/send-$dir") / $(tail -n 1 "$W/recv-$dir")"
	fi
	if [ "$mism" = 0 ] && [ "$foreign" = 0 ] && [ "$same_n" = "$got" ]; then
		ok "$what: every delivered datagram's options are byte-identical to what was sent ($same_n)"
	else
		not_ok "$what: every delivered datagram's options are byte-identical to what was sent" \
			"$mism mismatches, $foreign not ours: $(grep -m 3 MISMATCH "$W/recv-$dir" | tr '\n' ' ')"
	fi
	if [ "$other" = 0 ] && [ "$clearf" = 0 ] && grep -q '^churnsend ' "$W/send-$dir"; then
		ok "$what: the user's sendmsg/setsockopt verdicts were ok or EPERM only"
	else
		not_ok "$what: the user's sendmsg/setsockopt verdicts were ok or EPERM only" \
			"$(tail -n 2 "$W/send-$dir" | tr '\n' ' ')"
	fi
done

# ---- (b)-(e): iterations and unexpected outcomes of each worker
# worker_check NAME FILE WHAT KEY...: ok if every KEY counted > 0 and
# nothing unexpected
worker_check() {
	local name=$1 f=$W/$2 what=$3 k n zero=""
	shift 3
	for k in "$@"; do
		n=$(count "$f" "$k")
		[ "$n" -gt 0 ] || zero+=" $k"
	done
	if [ -z "$zero" ] && [ "$(count "$f" unexpected)" = 0 ] && ! grep -q UNEXPECTED "$f"; then
		ok "$name: $what ($(tail -n 1 "$f"))"
	else
		not_ok "$name: $what" "${zero:+none of:$zero; }$(grep -m 3 UNEXPECTED "$f" | tr '\n' ' ') $(tail -n 1 "$f")"
	fi
}
worker_check "policy replaced atomically" atomic \
	"tlvctl apply on the host, REPLACE in the receiver's namespace, every request succeeded" rounds
worker_check "policy changed entry by entry" entries \
	"SET and UNSET in both namespaces, every request succeeded" requests
worker_check "ip6_pmtu_opt loaded and unloaded under traffic" module \
	"modprobe, sysctl on in the router, rmmod (refused only as in use)" loads unloads
worker_check "namespaces made, given a policy, used, deleted" netns \
	"a new namespace's user is refused (EPERM) without a grant and sends byte for byte with one" \
	made-and-deleted with-policy
for w in sticky-host sticky-rcv; do
	f=$W/$w
	line=$(grep '^stickyloop' "$f")
	# "stickyloop: set ok A EPERM E other O; clear ok C EPERM F other G"
	read -r sok sperm soth _ cperm coth < <(sed -E \
		's/.*set ok ([0-9]+) EPERM ([0-9]+) other ([0-9]+).*clear ok ([0-9]+) EPERM ([0-9]+) other ([0-9]+).*/\1 \2 \3 \4 \5 \6/' <<< "$line")
	what="user sets and removes sticky options ($([ $w = sticky-host ] && echo host || echo "receiver's namespace"))"
	if [ "${sok:-0}" -gt 0 ] && [ "${sperm:-0}" -gt 0 ] && [ "$soth" = 0 ] && [ "$cperm" = 0 ] && [ "$coth" = 0 ]; then
		ok "$what: set ok or EPERM as the policy changed, removal always ok ($line)"
	else
		not_ok "$what: set ok or EPERM as the policy changed, removal always ok" "${line:-$(tail -n 2 "$f" | tr '\n' ' ')}"
	fi
done

# ---- the end state: the module goes, each table takes a whole policy
# exactly, then the built-in table
if grep -q '^ip6_pmtu_opt ' /proc/modules; then
	check "after the churn: rmmod ip6_pmtu_opt (no reference left behind)" rmmod ip6_pmtu_opt
else
	ok "after the churn: rmmod ip6_pmtu_opt (no reference left behind)"
fi
must_run "after the churn: tlvctl apply p1 (host)" tlvctl apply "$W/p1.conf"
same "after the churn: the host's table is exactly policy 1" "$d1_host" "$("$PROBE" dump)"
must "after the churn: REPLACE p2 (receiver)" ok in_ns receiver "$PROBE" replace "${RP2[@]}"
same "after the churn: the receiver's table is exactly policy 2" "$d2_rcv" "$(in_ns receiver "$PROBE" dump)"
must "after the churn: REPLACE with RESET (host)" ok "$PROBE" replace --reset
same "after the churn: the host's table is the built-in one again" "$pristine" "$("$PROBE" dump)"
left=$(ip netns list | grep -c '^ipeh-churn-')
if [ "$left" = 0 ]; then ok "after the churn: no namespace of the netns worker is left"
else not_ok "after the churn: no namespace of the netns worker is left" "$left left"; fi

# ---- the RFC 9268 handler still works after it: 9000 lowered to 1400
must_run "modprobe ip6_pmtu_opt (after the churn)" modprobe ip6_pmtu_opt
in_ns router sysctl -qw net.ipv6.pmtu_option_update=1
in_ns receiver "$PROBE" recv 7302 1 20 > "$W/pmtu" 2>&1 &
rp=$!
pids+=("$rp")
wait_for 20 grep -q ready "$W/pmtu"
"$PROBE" send hop 0000300423280000 $RCV 7302 > /dev/null
wait "$rp"
pids=()
if grep -q ' hop=1100300405780000$' "$W/pmtu"; then
	ok "after the churn: the router's ip6_pmtu_opt lowers Min-PMTU 9000 to 1400"
else not_ok "after the churn: the router's ip6_pmtu_opt lowers Min-PMTU 9000 to 1400" "$(tr '\n' ' ' < "$W/pmtu")"; fi
must_run "rmmod ip6_pmtu_opt (end)" rmmod ip6_pmtu_opt
cat "$COUNTS"
