# Guest-side helpers for the examples (bash, sourced after
# vm-images/guest/lib.sh and topo_up): the TLV policy that lets ordinary
# users send IOAM (0x31) and PMTU (0x30) options, the IOAM set-up of the
# router and the receiver, and runs of the examples as the user 'ipeh'.
# Used by vm-images/guest/run-demo and vm-images/tests/40-examples.t.
# shellcheck disable=SC2034 # the EX_* variables are for the scripts that source this

EX_DST=2001:db8:2::1
EX_IOAM_PORT=5000
EX_PMTU_PORT=5001
EX_IOAM_NS=123
# Node ids: router 2 (interfaces r0 21, r1 22), receiver 3 (v0 31).
EX_ROUTER_ID=2
EX_RECEIVER_ID=3
EX_POLICY=
for p in /usr/libexec/ipeh/ipeh-example-policy /usr/local/libexec/ipeh/ipeh-example-policy; do
	[ -x "$p" ] && { EX_POLICY=$p; break; }
done
# How the policy was granted: tlvd, fallback, or empty.
EX_POLICY_BY=
EX_TLVD_WAS_ACTIVE=0

ex_say() { echo "IPEH-DEMO: $*"; }

ex_have_tlvd() {
	[ -x /usr/sbin/tlvd ] && systemctl cat tlvd.service >/dev/null 2>&1
}

# ex_tlvd_in_ns NS: a second tlvd with the shipped policy, inside network
# namespace NS, as a container would run it: each netns has its own TLV
# table, so the host's tlvd does not reach NS. A transient unit,
# tlvd-NS.service, joined to /run/netns/NS, CAP_NET_ADMIN alone; started
# (READY=1) once the policy is in NS's table.
ex_tlvd_in_ns() {
	systemctl stop "tlvd-$1" 2>/dev/null
	systemctl reset-failed "tlvd-$1" 2>/dev/null
	systemd-run --quiet --unit="tlvd-$1" --service-type=notify \
		-p NetworkNamespacePath="/run/netns/$1" -p DynamicUser=yes \
		-p AmbientCapabilities=CAP_NET_ADMIN \
		-p CapabilityBoundingSet=CAP_NET_ADMIN \
		/usr/sbin/tlvd --config /etc/tlvd.conf
}

# ex_tlvd_in_ns_stop NS: stop it (its netns then goes with topo_down)
ex_tlvd_in_ns_stop() {
	systemctl stop "tlvd-$1" 2>/dev/null
	systemctl reset-failed "tlvd-$1" 2>/dev/null
	return 0
}

# ex_user_perm NS TYPE: the user permission the kernel's table shows for
# TYPE (ioam|pmtu) seen from network namespace NS ("" if unreadable).
ex_user_perm() {
	local out
	[ -n "$EX_POLICY" ] || return 0
	out=$(in_ns "$1" "$EX_POLICY" show "$2" 2>/dev/null) || return 0
	sed -n 's/.* user=\([a-z?-]*\) .*/\1/p' <<< "$out"
}

# ex_policy_fallback_grant: what tlvd would do, with the example helper.
ex_policy_fallback_grant() {
	[ -n "$EX_POLICY" ] || { echo "ipeh-example-policy is not installed" >&2; return 1; }
	"$EX_POLICY" grant ioam pmtu
}

# ex_policy_grant [--strict]: tlvd with the shipped policy if installed, else
# the fallback.  The kernel keeps one table per network namespace: tlvd.service
# keeps the host's (the sender's), and a second tlvd runs inside the receiver's
# namespace (ex_tlvd_in_ns).  Then make sure the sender's and the receiver's
# namespaces see user = check (if one does not, grant there too, loudly).
# Sets EX_POLICY_BY.  Returns non-zero if tlvd is installed but failed.
# --strict (the tests): no fallback and no grant of our own anywhere; the
# policy is tlvd's or it is missing, and a namespace that does not see it
# makes the call fail.
ex_policy_grant() {
	local rc=0 ns t perm strict=0
	[ "${1:-}" = --strict ] && strict=1
	systemctl is-active --quiet tlvd 2>/dev/null && EX_TLVD_WAS_ACTIVE=1
	if ex_have_tlvd; then
		ex_say "policy: systemctl start tlvd (policy /etc/tlvd.conf: ioam and pmtu, user = check)"
		# an unmet Condition (no /etc/tlvd.conf) also "starts" successfully
		if systemctl start tlvd && systemctl is-active --quiet tlvd; then
			EX_POLICY_BY=tlvd
			ex_say "policy: tlvd is $(systemctl is-active tlvd); $(systemctl show -p StatusText --value tlvd 2>/dev/null)"
			ex_say "policy: a second tlvd inside the receiver's network namespace (systemd-run --unit=tlvd-receiver -p NetworkNamespacePath=/run/netns/receiver)"
			if ! ex_tlvd_in_ns receiver; then
				rc=1
				ex_say "policy: !!! tlvd in the receiver's namespace FAILED; its journal:"
				journalctl -u tlvd-receiver -n 20 --no-pager 2>&1 | sed 's/^/IPEH-DEMO:     /'
			fi
		else
			rc=1
			ex_say "policy: !!! systemctl start tlvd FAILED (tlvd is $(systemctl is-active tlvd)); its journal:"
			journalctl -u tlvd -n 20 --no-pager 2>&1 | sed 's/^/IPEH-DEMO:     /'
		fi
	fi
	if [ "$EX_POLICY_BY" != tlvd ] && [ $strict = 1 ]; then
		ex_say "policy: !!! tlvd did not grant the policy (not installed or not started); no fallback"
		return 1
	fi
	if [ "$EX_POLICY_BY" != tlvd ]; then
		ex_say "policy: ****************************************************************"
		if ex_have_tlvd; then
			ex_say "policy: * tlvd did not start: FALLBACK to ipeh-example-policy grant    *"
		else
			ex_say "policy: * tlvd is NOT INSTALLED: FALLBACK to ipeh-example-policy grant *"
		fi
		ex_say "policy: * (the same ioam/pmtu entries as tlvd.conf, set over netlink)  *"
		ex_say "policy: ****************************************************************"
		local out
		if out=$(ex_policy_fallback_grant 2>&1); then
			EX_POLICY_BY=fallback
		fi
		sed 's/^/IPEH-DEMO:     /' <<< "$out"
		[ -n "$EX_POLICY_BY" ] || ex_say "policy: !!! the fallback grant FAILED"
		[ -n "$EX_POLICY_BY" ] || rc=1
	fi
	for ns in sender receiver; do
		for t in ioam pmtu; do
			perm=$(ex_user_perm "$ns" "$t")
			if [ -z "$perm" ]; then
				ex_say "policy: cannot read the TLV table from namespace $ns (family not reachable there?)"
				[ $strict = 1 ] && rc=1
				break
			fi
			if [ "$perm" != check ] && [ $strict = 1 ]; then
				ex_say "policy: !!! namespace $ns sees user=$perm for $t: no grant of our own (--strict)"
				rc=1
				break
			fi
			if [ "$perm" != check ]; then
				ex_say "policy: !!! namespace $ns sees user=$perm for $t: the table seems to be per"
				ex_say "policy: !!! network namespace; granting inside $ns with ipeh-example-policy"
				in_ns "$ns" "$EX_POLICY" grant ioam pmtu 2>&1 | sed 's/^/IPEH-DEMO:     /'
				break
			fi
		done
	done
	return $rc
}

# ex_policy_revoke TYPE...: user permission none, everywhere we can reach.
# tlvd is stopped first (it would put its policy back at its next check).
ex_policy_revoke() {
	local ns
	systemctl stop tlvd 2>/dev/null
	ex_tlvd_in_ns_stop receiver
	for ns in sender receiver; do
		in_ns "$ns" "$EX_POLICY" revoke "$@" || return 1
	done
	return 0
}

# ex_policy_restore: leave the table as tests after us expect it.
ex_policy_restore() {
	ex_tlvd_in_ns_stop receiver
	if [ "$EX_TLVD_WAS_ACTIVE" = 1 ]; then
		systemctl restart tlvd
	else
		systemctl stop tlvd 2>/dev/null
		[ -n "$EX_POLICY" ] && "$EX_POLICY" reset ioam pmtu >/dev/null
	fi
	return 0
}

# ex_ioam_setup: mainline Linux IOAM (6.12 ioam6) on the router, and on the
# receiver so that the trace also shows the node that delivered it.
ex_ioam_setup() {
	in_ns router ip ioam namespace add $EX_IOAM_NS &&
	in_ns router sysctl -qw net.ipv6.ioam6_id=$EX_ROUTER_ID \
		net.ipv6.conf.r0.ioam6_enabled=1 net.ipv6.conf.r0.ioam6_id=21 \
		net.ipv6.conf.r1.ioam6_id=22 &&
	in_ns receiver ip ioam namespace add $EX_IOAM_NS &&
	in_ns receiver sysctl -qw net.ipv6.ioam6_id=$EX_RECEIVER_ID \
		net.ipv6.conf.v0.ioam6_enabled=1 net.ipv6.conf.v0.ioam6_id=31
}

# ex_wait_listening FILE PID: until the receiver writing FILE listens, at
# most 10 s of wall time
ex_wait_listening() {
	local end=$((SECONDS + 10))
	while [ "$SECONDS" -lt "$end" ]; do
		grep -q listening "$1" 2>/dev/null && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	grep -q listening "$1" 2>/dev/null
}

# ex_run_pair NAME RECEIVER_CMD -- SENDER_CMD: run the receiver as user
# 'ipeh' in the receiver namespace, then the sender in the sender
# namespace; outputs in $IPEH_RESULTS/$IPEH_TEST-NAME-{receiver,sender}.out
# (stdout) and .err (stderr); exit codes in EX_RC_RECEIVER / EX_RC_SENDER.
ex_run_pair() {
	local name=$1 rcmd=() scmd=() rpid base
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do rcmd+=("$1"); shift; done
	shift
	scmd=("$@")
	base=$IPEH_RESULTS/$IPEH_TEST-$name
	as_user receiver "${rcmd[@]}" > "$base-receiver.out" 2> "$base-receiver.err" &
	rpid=$!
	if ! ex_wait_listening "$base-receiver.out" "$rpid"; then
		EX_RC_SENDER=-1
		wait "$rpid"
		EX_RC_RECEIVER=$?
		return 1
	fi
	as_user sender "${scmd[@]}" > "$base-sender.out" 2> "$base-sender.err"
	EX_RC_SENDER=$?
	wait "$rpid"
	EX_RC_RECEIVER=$?
	return 0
}
