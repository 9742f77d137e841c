#!/bin/bash
# RFC 9268 on the router: the module ip6_pmtu_opt (patch 15,
# CONFIG_IPV6_PMTU_OPTION=m) gives option 0x30 a Hop-by-Hop handler through
# ipeh_tlv_register() (patch 14); with net.ipv6.pmtu_option_update=1 in the
# router's namespace, ip6_forward() lowers Min-PMTU to the egress link's MTU
# (r1: 1400). Sourced by run-tests after topo_up; leaves the module unloaded.
#
# Checked:
#  - the module loads and unloads; its sysctl exists only while it is
#    loaded, per namespace, 0 by default;
#  - the examples, as user ipeh: pmtu-sender learns 1500 with the module
#    unloaded or the sysctl 0, and 1400 with it on (the router -> receiver
#    capture of that run is decoded by tshark on the host: ./dev test);
#  - packets written out by hand (ipeh-rawsend), as the receiver gets them
#    (ipeh-probe recv prints the Hop-by-Hop header, next header first):
#    Min-PMTU lowered only when larger than 1400, Rtn-PMTU and R never
#    changed, options whose data length is not 4 not processed;
#  - unloading and loading again under traffic: every packet is delivered
#    (the debug pass checks the console for splats);
#  - after the unload the option is unknown again: skipped, unchanged.
# shellcheck source=../../examples/guest-lib.sh
source "$IPEH_SRC/examples/guest-lib.sh"

R=$IPEH_RESULTS/$IPEH_TEST
RAWSEND=/usr/libexec/ipeh/ipeh-rawsend
SND=2001:db8:1::1
RCV=2001:db8:2::1
PORT=7100
KNOB=/proc/sys/net/ipv6/pmtu_option_update

tail_of() { tail -q -n 3 "$@" 2>/dev/null | tr '\n' ' ' | cut -c1-300; }
loaded() { grep -q '^ip6_pmtu_opt ' /proc/modules; }
knob() { in_ns router cat "$KNOB" 2>/dev/null; }

# ---- the module and its sysctl
if modinfo ip6_pmtu_opt > "$R-modinfo.txt" 2>&1; then
	ok "modinfo finds ip6_pmtu_opt for $(uname -r)"
else
	not_ok "modinfo finds ip6_pmtu_opt for $(uname -r)" "$(tail_of "$R-modinfo.txt")"
fi
if ! loaded && [ ! -e "$KNOB" ]; then
	ok "before modprobe: the module is not loaded and $KNOB does not exist"
else
	not_ok "before modprobe: the module is not loaded and $KNOB does not exist" "$(grep ip6_pmtu /proc/modules)"
fi
check "modprobe ip6_pmtu_opt" modprobe ip6_pmtu_opt
if loaded && [ "$(knob)" = 0 ] && [ "$(cat "$KNOB" 2>/dev/null)" = 0 ]; then
	ok "loaded: pmtu_option_update exists in the router's and the host's namespace, 0 by default"
else
	not_ok "loaded: pmtu_option_update exists in the router's and the host's namespace, 0 by default" \
		"router '$(knob)', host '$(cat "$KNOB" 2>&1)'"
fi
check_fails "pmtu_option_update refuses 2" in_ns router sysctl -qw net.ipv6.pmtu_option_update=2
check "rmmod ip6_pmtu_opt" rmmod ip6_pmtu_opt
if ! loaded && [ ! -e "$KNOB" ]; then
	ok "after rmmod: the module and its sysctl are gone"
else
	not_ok "after rmmod: the module and its sysctl are gone"
fi

# ---- the examples, as user ipeh
# pmtu_pair NAME WANT: run pmtu-sender/receiver, check what the sender learned
pmtu_pair() {
	local name=$1 want=$2 learned
	ex_run_pair "$name" \
		pmtu-receiver --json --count 3 --timeout 30 $EX_PMTU_PORT -- \
		pmtu-sender --json --count 3 --interval 0.2 $EX_DST $EX_PMTU_PORT
	learned=$(sed -n 's/.*"event":"result".*"learned_pmtu":\([0-9]*\).*/\1/p' "$R-$name-sender.out")
	if [ "$EX_RC_SENDER" = 0 ] && [ "$EX_RC_RECEIVER" = 0 ] && [ "$learned" = "$want" ]; then
		ok "pmtu-sender learns $want ($name)"
	else
		not_ok "pmtu-sender learns $want ($name)" \
			"learned '${learned}', exits $EX_RC_SENDER/$EX_RC_RECEIVER: $(tail_of "$R-$name-sender.err" "$R-$name-receiver.err")"
	fi
}

if ex_policy_grant --strict > "$R-policy.log" 2>&1; then
	ok "users may send option 0x30 (the shipped tlvd policy)"
	pmtu_pair unloaded 1500
	must_run "modprobe ip6_pmtu_opt (examples)" modprobe ip6_pmtu_opt
	pmtu_pair loaded-sysctl-0 1500
	in_ns router sysctl -qw net.ipv6.pmtu_option_update=1
	# the capture the host decodes with tshark (vm-images/pcap-checks.sh):
	# this run's packets only ("ip netns exec" execs tcpdump: $! is its pid)
	mkdir -p "$IPEH_RESULTS/pcap"
	cap=$IPEH_RESULTS/pcap/$IPEH_TEST-pmtu-lowered.pcap
	ip netns exec router tcpdump -Z root -i r1 -U -n -s 0 -w "$cap" \
		> /dev/null 2>&1 &
	cap_pid=$!
	wait_for 10 test -s "$cap" || not_ok "set-up: tcpdump on r1" "no capture file"
	pmtu_pair loaded-sysctl-1 1400
	kill "$cap_pid" 2>/dev/null
	wait "$cap_pid" 2>/dev/null
	must_run "rmmod ip6_pmtu_opt (examples)" rmmod ip6_pmtu_opt
	pmtu_pair unloaded-again 1500
else
	not_ok "users may send option 0x30 (the shipped tlvd policy)" "$(tail_of "$R-policy.log")"
fi
ex_policy_restore

# ---- packets written out by hand, as the receiver gets them
R_OUT=$R.recv
in_ns receiver "$PROBE" recv $PORT 100000 900 > "$R_OUT" 2>&1 &
RPID=$!
must_run "the receiver's UDP listener is ready" wait_for 20 grep -q ready "$R_OUT"
npk() { grep -c '^packet' "$R_OUT"; }
grew() { [ "$(npk)" -gt "$1" ]; }

# fw NAME SENT WANT: send the Hop-by-Hop header SENT (hex, next header
# first: ipeh-rawsend fills it in) and check the receiver gets WANT (with
# next header 11, UDP)
fw() {
	local name=$1 sent=$2 want=11${3:2} n0 got
	n0=$(npk)
	in_ns sender "$RAWSEND" --hop "$sent" --udp 7101 $PORT --dev s0 $SND $RCV > /dev/null 2>&1
	if ! wait_for 5 grew "$n0"; then
		not_ok "$name" "not delivered"
		return
	fi
	got=$(grep '^packet' "$R_OUT" | tail -n 1 | sed -n 's/.* hop=\([0-9a-f]*\).*/\1/p')
	if [ "$got" = "$want" ]; then
		ok "$name"
	else
		not_ok "$name" "receiver got hop=$got, want $want"
	fi
}

# every case with the module in the state under test
cases() {
	local st=$1 lowered=$2 low
	# Min-PMTU 9000 (0x2328) becomes 1400 (0x0578) when lowered
	if [ "$lowered" = 1 ]; then low=0578; else low=2328; fi
	fw "$st: Min-PMTU 9000, Rtn-PMTU 0 -> $((16#$low))" \
		"0000""3004""2328""0000" "0000""3004""$low""0000"
	fw "$st: Min-PMTU 9000, Rtn-PMTU 1500 with R -> Min $((16#$low)), Rtn-PMTU and R unchanged" \
		"0000""3004""2328""05dd" "0000""3004""$low""05dd"
	fw "$st: Min-PMTU 1400 (the egress MTU) unchanged" \
		"0000""3004""0578""0000" "0000""3004""0578""0000"
	fw "$st: Min-PMTU 1300 (below the egress MTU) unchanged" \
		"0000""3004""0514""0000" "0000""3004""0514""0000"
	fw "$st: Min-PMTU 65535 -> $([ "$lowered" = 1 ] && echo 1400 || echo 65535)" \
		"0000""3004""ffff""0000" "0000""3004""$([ "$lowered" = 1 ] && echo 0578 || echo ffff)""0000"
	fw "$st: option of 3 data bytes (too short) skipped, unchanged" \
		"0000""3003""232800""00" "0000""3003""232800""00"
	fw "$st: option of 6 data bytes (too long) skipped, unchanged" \
		"0001""3006""2328""0000""0000""0104""00000000" "0001""3006""2328""0000""0000""0104""00000000"
	fw "$st: option after an unknown skippable option, lowered as the first" \
		"0001""1e02""0000""3004""2328""0000""0102""0000" \
		"0001""1e02""0000""3004""$low""0000""0102""0000"
}

cases "unloaded (as stock)" 0
must_run "modprobe ip6_pmtu_opt (hand-written packets)" modprobe ip6_pmtu_opt
cases "loaded, sysctl 0" 0
in_ns router sysctl -qw net.ipv6.pmtu_option_update=1
# the option only changes on forwarding: the sysctl of the receiver's namespace
# (which the packet is for) stays 0, and the router's forwards
cases "loaded, sysctl 1" 1

# ---- unload and load again under traffic
n0=$(npk)
sent=0
(
	i=0
	while [ $i -lt 300 ]; do
		in_ns sender "$RAWSEND" --hop "0000""3004""2328""0000" --udp 7101 $PORT \
			--dev s0 $SND $RCV > /dev/null 2>&1
		i=$((i + 1))
	done
) &
TPID=$!
cycles=0 cycle_err=""
while kill -0 "$TPID" 2>/dev/null; do
	if loaded; then
		rmmod ip6_pmtu_opt 2>> "$R-cycles.err" || cycle_err="rmmod failed"
	else
		modprobe ip6_pmtu_opt 2>> "$R-cycles.err" || cycle_err="modprobe failed"
		in_ns router sysctl -qw net.ipv6.pmtu_option_update=1 2>/dev/null
	fi
	cycles=$((cycles + 1))
done
wait "$TPID"
sent=300
grew_to() { [ "$(npk)" -ge "$1" ]; }
wait_for 30 grew_to $((n0 + sent)) || true
got=$(( $(npk) - n0 ))
if [ "$got" = "$sent" ] && [ -z "$cycle_err" ] && [ "$cycles" -ge 4 ]; then
	ok "unload/load $cycles times under traffic: all $sent packets delivered"
else
	not_ok "unload/load under traffic: all packets delivered" \
		"$got of $sent delivered, $cycles cycles${cycle_err:+, $cycle_err}: $(tail_of "$R-cycles.err")"
fi
# each delivered packet carries Min-PMTU 9000 or 1400, nothing else
bad=$(grep '^packet' "$R_OUT" | tail -n "$got" | grep -cv ' hop=1100300\(42328\|40578\)0000' || true)
if [ "$bad" = 0 ]; then
	ok "under traffic: every packet arrived with Min-PMTU 9000 or 1400"
else
	not_ok "under traffic: every packet arrived with Min-PMTU 9000 or 1400" "$bad other"
fi

# ---- unloaded again: the option is unknown, skipped
loaded && must_run "rmmod ip6_pmtu_opt (end)" rmmod ip6_pmtu_opt
cases "unloaded again" 0

kill "$RPID" 2>/dev/null
wait "$RPID" 2>/dev/null
true
