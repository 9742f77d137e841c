#!/bin/bash
# The examples end to end, as the ordinary user 'ipeh' across sender ->
# router -> receiver: IOAM traces filled in by the router's mainline Linux
# IOAM, the RFC 9268 path MTU exchange, and clean EPERM failures when the
# TLV policy does not allow the options.  Sourced by run-tests after topo_up.
# shellcheck source=../../examples/guest-lib.sh
source "$IPEH_SRC/examples/guest-lib.sh"

R=$IPEH_RESULTS/$IPEH_TEST

# json_count FILE REGEX: lines of FILE matching REGEX (grep -E)
json_count() { grep -cE -- "$2" "$1" 2>/dev/null || true; }
# tail_of FILE...: the last lines of files, on one line, for not_ok reasons
tail_of() { tail -q -n 3 "$@" 2>/dev/null | tr '\n' ' ' | cut -c1-300; }

examples_installed() {
	local b missing=
	for b in ioam-sender ioam-receiver pmtu-sender pmtu-receiver; do
		command -v "$b" >/dev/null || missing+=" $b"
	done
	[ -n "$EX_POLICY" ] || missing+=" ipeh-example-policy"
	if [ -n "$missing" ]; then
		not_ok "the examples are installed" "missing:$missing"
		return 1
	fi
	ok "the examples are installed"
}

# The policy comes from tlvd alone: the tests use no fallback grant, so a
# tlvd that does not grant it fails here and in every example after.
grant_policy() {
	local grant_rc=0
	ex_policy_grant --strict > "$R-policy.log" 2>&1 || grant_rc=1
	if [ "$EX_POLICY_BY" = tlvd ] && [ $grant_rc = 0 ]; then
		ok "tlvd starts with the shipped policy (systemctl start tlvd)"
	else
		not_ok "tlvd starts with the shipped policy (systemctl start tlvd)" "$(tail_of "$R-policy.log")"
		return 1
	fi
	local t perm
	for t in ioam pmtu; do
		perm=$(ex_user_perm sender "$t")
		if [ "$perm" = check ]; then ok "the sender's namespace sees user=check for $t"
		else not_ok "the sender's namespace sees user=check for $t" "user=${perm:-unreadable}"; fi
	done
}

# ---- IOAM
test_ioam() {
	local f n rn complete mode=$1 count=$2 extra=()
	[ "$mode" = per-packet ] && extra=(--per-packet)
	ex_run_pair "ioam-$mode" \
		ioam-receiver --json --count "$count" --timeout 30 $EX_IOAM_PORT -- \
		ioam-sender --json "${extra[@]}" --count "$count" --interval 0.2 $EX_DST $EX_IOAM_PORT
	f=$R-ioam-$mode-receiver.out
	if [ "$EX_RC_SENDER" = 0 ]; then ok "ioam-sender ($mode) sends as user ipeh"; else
		not_ok "ioam-sender ($mode) sends as user ipeh" "exit $EX_RC_SENDER: $(tail_of "$R-ioam-$mode-sender.err")"; fi
	if [ "$EX_RC_RECEIVER" = 0 ]; then ok "ioam-receiver ($mode) got all $count datagrams"; else
		not_ok "ioam-receiver ($mode) got all $count datagrams" "exit $EX_RC_RECEIVER: $(tail_of "$R-ioam-$mode-receiver.err")"; fi
	n=$(json_count "$f" '"event":"packet"')
	rn=$(json_count "$f" '"node_id":'$EX_ROUTER_ID',')
	# every datagram crossed the router, so every trace must show it
	if [ "$n" = "$count" ] && [ "$rn" = "$n" ]; then
		ok "ioam ($mode): the receiver saw the router's node id $EX_ROUTER_ID in all $n traces"
	else
		not_ok "ioam ($mode): the receiver saw the router's node id $EX_ROUTER_ID in every trace" \
			"$rn of $n traces ($count sent); first: $(grep -m1 '"event":"packet"' "$f" | cut -c1-300)"
	fi
	[ "$mode" = sticky ] || return 0
	# The router's node (first hop) carries everything trace type 0xf00000
	# asks for: hop limit (64 - 1), node id, both interface ids, timestamp.
	complete=$(json_count "$f" '"nodes":\[\{"hop":1,"hop_limit":63,"node_id":'$EX_ROUTER_ID',"ingress_if":21,"egress_if":22,"ts_sec":[0-9]+,"ts_frac":[0-9]+,"unavailable":\[\]\}')
	if [ "$n" -gt 0 ] && [ "$complete" -eq "$n" ]; then
		ok "ioam: traces complete: the router's node has hop limit, node id, interface ids and timestamp in all $n"
	else
		not_ok "ioam: traces complete: the router's node has hop limit, node id, interface ids and timestamp" \
			"$complete of $n complete; first: $(grep -m1 '"event":"packet"' "$f" | cut -c1-300)"
	fi
	if [ "$(json_count "$f" '\},\{"hop":2,"hop_limit":62,"node_id":'$EX_RECEIVER_ID',"ingress_if":31,')" -eq "$n" ] && [ "$n" -gt 0 ]; then
		ok "ioam: the receiver's own node follows the router's (path order, hop limit 62)"
	else
		not_ok "ioam: the receiver's own node follows the router's (path order, hop limit 62)" \
			"$(grep -m1 '"event":"packet"' "$f" | cut -c1-300)"
	fi
	if [ "$(json_count "$f" '"overflow":true')" -eq 0 ]; then
		ok "ioam: no trace overflowed (room for 4 nodes, 2 filled)"
	else
		not_ok "ioam: no trace overflowed (room for 4 nodes, 2 filled)"
	fi
}

# ---- PMTU
test_pmtu() {
	local s r seen learned reply kernel mode=$1 extra=()
	[ "$mode" = per-packet ] && extra=(--per-packet --no-probe)
	ex_run_pair "pmtu-$mode" \
		pmtu-receiver --json --count 3 --timeout 30 $EX_PMTU_PORT -- \
		pmtu-sender --json "${extra[@]}" --count 3 --interval 0.2 $EX_DST $EX_PMTU_PORT
	s=$R-pmtu-$mode-sender.out
	r=$R-pmtu-$mode-receiver.out
	if [ "$EX_RC_SENDER" = 0 ] && [ "$EX_RC_RECEIVER" = 0 ]; then
		ok "pmtu ($mode): sender and receiver run as user ipeh"
	else
		not_ok "pmtu ($mode): sender and receiver run as user ipeh" \
			"sender exit $EX_RC_SENDER, receiver exit $EX_RC_RECEIVER: $(tail_of "$R-pmtu-$mode-sender.err" "$R-pmtu-$mode-receiver.err")"
	fi
	seen=$(sed -n 's/.*"pmtu_option":true,"min_pmtu":\([0-9]*\),"rtn_pmtu":0,"r":true.*/\1/p' "$r" | head -n 1)
	learned=$(sed -n 's/.*"event":"result".*"learned_pmtu":\([0-9]*\).*/\1/p' "$s")
	if [ "$seen" = 1500 ] && [ "$learned" = "$seen" ]; then
		ok "pmtu ($mode): the sender learned the Min-PMTU the receiver reported ($learned; the router runs without ip6_pmtu_opt)"
	else
		not_ok "pmtu ($mode): the sender learned the Min-PMTU the receiver reported" \
			"receiver saw '${seen}', sender learned '${learned}' (want 1500 both)"
	fi
	[ "$mode" = sticky ] || return 0
	reply=$(json_count "$r" '"reply":\{"min_pmtu":1400,"rtn_pmtu":1500,"r":false\}')
	if [ "$reply" -ge 1 ]; then
		ok "pmtu: the receiver returned Rtn-PMTU 1500 with its own Min-PMTU 1400 and R clear"
	else
		not_ok "pmtu: the receiver returned Rtn-PMTU 1500 with its own Min-PMTU 1400 and R clear" "$(grep -m1 '"event":"packet"' "$r" | cut -c1-300)"
	fi
	kernel=$(grep '"event":"kernel-pmtu"' "$s")
	case "$kernel" in
	*'"ptb_mtu":1400,'*'"after":1400,'*)
		ok "pmtu: the kernel's own path MTU discovery learned 1400 from the router's Packet Too Big" ;;
	*) not_ok "pmtu: the kernel's own path MTU discovery learned 1400 from the router's Packet Too Big" "${kernel:-no kernel-pmtu line}" ;;
	esac
}

# ---- the policy says no
# expect_eperm NAME LABEL CMD...: CMD (as user ipeh in the sender namespace)
# exits 1 with the EPERM explanation, not a crash.
expect_eperm() {
	local name=$1 label=$2 rc err
	shift 2
	as_user sender "$@" > "$R-eperm.out" 2> "$R-eperm.err"
	rc=$?
	err=$(cat "$R-eperm.err")
	if [ "$rc" -eq 1 ] &&
		grep -q "the kernel refused the $label option (EPERM)" <<< "$err" &&
		grep -q "tlvd.conf: user = check" <<< "$err"; then
		ok "$name"
	else
		not_ok "$name" "exit $rc: $(echo "$err" | tail -n 3 | tr '\n' ' ' | cut -c1-300)"
	fi
}

test_eperm() {
	local t perm rc err
	if ! ex_policy_revoke ioam pmtu > "$R-revoke.log" 2>&1; then
		not_ok "the user permission of ioam and pmtu can be set to none" "$(tail_of "$R-revoke.log")"
		return
	fi
	for t in ioam pmtu; do
		perm=$(ex_user_perm sender "$t")
		[ -z "$perm" ] || [ "$perm" = none ] ||
			not_ok "the sender's namespace sees user=none for $t after revoking" "user=$perm"
	done
	expect_eperm "ioam-sender fails cleanly, EPERM explained, when users may not send 0x31 (setsockopt)" \
		IOAM ioam-sender --count 1 $EX_DST $EX_IOAM_PORT
	expect_eperm "ioam-sender fails cleanly, EPERM explained, when users may not send 0x31 (--per-packet sendmsg)" \
		IOAM ioam-sender --per-packet --count 1 $EX_DST $EX_IOAM_PORT
	expect_eperm "pmtu-sender fails cleanly, EPERM explained, when users may not send 0x30 (setsockopt)" \
		PMTU pmtu-sender --count 1 --no-probe $EX_DST $EX_PMTU_PORT
	expect_eperm "pmtu-sender fails cleanly, EPERM explained, when users may not send 0x30 (--per-packet sendmsg)" \
		PMTU pmtu-sender --per-packet --count 1 --no-probe $EX_DST $EX_PMTU_PORT
	# The receiver's reply needs the option too.  root (CAP_NET_RAW: the
	# admin permission, still no-check) sends the request.
	as_user receiver pmtu-receiver --count 1 --timeout 20 $EX_PMTU_PORT \
		> "$R-eperm-receiver.out" 2> "$R-eperm-receiver.err" &
	local rpid=$!
	ex_wait_listening "$R-eperm-receiver.out" "$rpid"
	in_ns sender pmtu-sender --count 1 --timeout 3 --no-probe $EX_DST $EX_PMTU_PORT \
		> "$R-eperm-root-sender.out" 2>&1
	wait "$rpid"
	rc=$?
	err=$(cat "$R-eperm-receiver.err")
	if [ "$rc" -eq 1 ] && grep -q "the kernel refused the PMTU option (EPERM)" <<< "$err"; then
		ok "pmtu-receiver fails cleanly, EPERM explained, when users may not send 0x30 in its reply"
	else
		not_ok "pmtu-receiver fails cleanly, EPERM explained, when users may not send 0x30 in its reply" \
			"exit $rc: $(echo "$err" | tail -n 3 | tr '\n' ' ' | cut -c1-300)"
	fi
}

# Exit status 3 (EX_TIMEOUT): nothing, or not enough, arrived in time.
# Port 5999 has no listener and no sender.
test_timeouts() {
	local rc t0 took b
	for b in ioam-receiver pmtu-receiver; do
		t0=$SECONDS
		as_user receiver $b --count 1 --timeout 1 5999 > "$R-timeout-$b.out" 2>&1
		rc=$? took=$((SECONDS - t0))
		if [ $rc = 3 ] && [ $took -le 10 ]; then
			ok "$b: nothing within --timeout 1 gives exit 3"
		else
			not_ok "$b: nothing within --timeout 1 gives exit 3" "exit $rc after ${took}s: $(tail_of "$R-timeout-$b.out")"
		fi
	done
	# the sender with no receiver: port unreachable, then no reply in time
	as_user sender pmtu-sender --count 1 --timeout 1 $EX_DST 5999 > "$R-timeout-pmtu-sender.out" 2>&1
	rc=$?
	if [ $rc = 3 ]; then
		ok "pmtu-sender: no reply within --timeout 1 gives exit 3"
	else
		not_ok "pmtu-sender: no reply within --timeout 1 gives exit 3" "exit $rc: $(tail_of "$R-timeout-pmtu-sender.out")"
	fi
}

if examples_installed; then
	if grant_policy; then
		must_run "the router (and receiver) run mainline Linux IOAM for namespace $EX_IOAM_NS" ex_ioam_setup
		test_ioam sticky 5
		test_ioam per-packet 3
		test_pmtu sticky
		test_pmtu per-packet
		test_timeouts
	fi
	test_eperm
	ex_policy_restore
fi
