# Shared helpers for the guest-side e2e tests (sourced, bash).
# Results go to $IPEH_RESULTS/results.txt (read by the host) and to the console.
# shellcheck disable=SC2034 # IPEH_FAILED is read by run-tests' wrapper of each test

: "${IPEH_RESULTS:=/ipeh/results}"
: "${IPEH_SRC:=/ipeh/src}"
: "${IPEH_TEST:=$(basename "$0" .t)}"
# 1: the guest runs stock 6.12 without the series (run-tests, ipeh.stock=1)
: "${IPEH_STOCK:=0}"
IPEH_RESULT_FILE=$IPEH_RESULTS/results.txt
IPEH_FAILED=0

_report() {
	echo "$*" >> "$IPEH_RESULT_FILE"
	echo "IPEH-RESULT: $*"
}
# ok NAME: one passing check; NAME is prefixed with the test script's name.
ok() { _report "ok $IPEH_TEST: $1"; }
# not_ok NAME [WHY]
not_ok() { IPEH_FAILED=1; _report "not ok $IPEH_TEST: $1${2:+ -- $2}"; }
# skip NAME WHY: a skip must say why
skip() { _report "skip $IPEH_TEST: $1 -- ${2:?skip needs a reason}"; }
# check NAME CMD...: ok if CMD succeeds, not_ok with its output otherwise
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$name"
	else
		not_ok "$name" "$(echo "$out" | tail -n 3 | tr '\n' ' ')"
	fi
}
# must NAME WANT CMD...: a set-up step; silent when the first word CMD prints
# is WANT, a failed check NAME otherwise (set-up is not a result of its own)
must() {
	local name=$1 want=$2 out
	shift 2
	out=$("$@" 2>&1)
	[ "${out%%[ $'\n']*}" = "$want" ] ||
		not_ok "set-up: $name" "want $want, got: $(echo "$out" | head -n 2 | tr '\n' ' ')"
}
# must_run NAME CMD...: a set-up step judged by CMD's exit status; silent when
# it succeeds, a failed check "set-up: NAME" with its output otherwise
must_run() {
	local name=$1 out
	shift
	out=$("$@" 2>&1) ||
		not_ok "set-up: $name" "$(echo "$out" | tail -n 3 | tr '\n' ' ')"
}
# check_fails NAME CMD...: ok if CMD fails
check_fails() {
	local name=$1
	shift
	if "$@" >/dev/null 2>&1; then not_ok "$name" "succeeded but must fail"; else ok "$name"; fi
}

# in_ns NS CMD...: run CMD inside network namespace NS. The sender is the
# guest's initial network namespace: the host whose policy tlvd and the
# tests' admin commands change (each netns has its own TLV table).
in_ns() {
	local ns=$1; shift
	if [ "$ns" = sender ]; then "$@"; else ip netns exec "$ns" "$@"; fi
}
# as_user NS CMD...: run CMD in NS as the unprivileged user 'ipeh' (uid 1000)
as_user() {
	local ns=$1; shift
	in_ns "$ns" setpriv --reuid=1000 --regid=1000 --init-groups \
		--inh-caps=-all --bounding-set=-all -- "$@"
}

# wait_for SECONDS CMD...: poll CMD until it succeeds, at most SECONDS of
# wall time (however long CMD itself takes)
wait_for() {
	local end=$((SECONDS + $1))
	shift
	while ! "$@" >/dev/null 2>&1; do
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.1
	done
}

IPEH_CAPTURES=()
# topo_up: sender -- router -- receiver, see vm-images/README.md
topo_up() {
	topo_down
	local ns
	for ns in sender router receiver; do
		[ "$ns" = sender ] || ip netns add "$ns"
		in_ns "$ns" ip link set lo up
		in_ns "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0
	done
	ip link add s0 type veth peer name r0 netns router
	ip link add r1 netns router type veth peer name v0 netns receiver
	in_ns router sysctl -qw net.ipv6.conf.all.forwarding=1
	in_ns sender ip -6 addr add 2001:db8:1::1/64 dev s0 nodad
	in_ns router ip -6 addr add 2001:db8:1::2/64 dev r0 nodad
	in_ns router ip -6 addr add 2001:db8:2::2/64 dev r1 nodad
	in_ns receiver ip -6 addr add 2001:db8:2::1/64 dev v0 nodad
	in_ns router ip link set r1 mtu 1400
	in_ns receiver ip link set v0 mtu 1400
	in_ns sender ip link set s0 up
	in_ns router ip link set r0 up
	in_ns router ip link set r1 up
	in_ns receiver ip link set v0 up
	in_ns sender ip -6 route add default via 2001:db8:1::2
	in_ns receiver ip -6 route add default via 2001:db8:2::2
	capture_start router r0 sender-router
	capture_start router r1 router-receiver
}

# capture_start NS DEV LINK: tcpdump DEV in NS to $IPEH_RESULTS/pcap/<test>-<link>.pcap
capture_start() {
	local ns=$1 dev=$2 link=$3 file pid
	mkdir -p "$IPEH_RESULTS/pcap"
	file=$IPEH_RESULTS/pcap/$IPEH_TEST-$link.pcap
	# -U: write each packet at once; tcpdump writes to the 9p share directly
	in_ns "$ns" tcpdump -Z root -i "$dev" -U -n -s 0 -w "$file" >/dev/null 2>&1 &
	pid=$!
	IPEH_CAPTURES+=("$pid")
	# tcpdump has the interface open once the file exists and has its header
	wait_for 10 test -s "$file" || true
}

# EXIT trap of each test (run-tests): a test that did not reach its last line
# (an exit, or bash giving up half-way) failed, whatever it reported so far.
_ipeh_test_end() {
	[ "${IPEH_COMPLETED:-0}" = 1 ] ||
		not_ok "the test ended before its last line (exit, a top-level return or a fatal error in the script)"
	topo_down
}
topo_down() {
	local pid ns
	for pid in "${IPEH_CAPTURES[@]}"; do
		kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	done
	IPEH_CAPTURES=()
	for ns in router receiver; do
		ip netns del "$ns" 2>/dev/null
	done
	ip link del s0 2>/dev/null
	return 0
}

# The e2e test program (vm-images/tests/prog/ipeh-probe.c), staged apart from
# the packages (build/stage/tests), which never carry it.
PROBE=/usr/libexec/ipeh/ipeh-probe
# expect NAME WANT CMD...: ok if CMD's first output word is WANT ("ok", "EPERM", ...)
expect() {
	local name=$1 want=$2 out
	shift 2
	out=$("$@" 2>&1)
	if [ "${out%%[ $'\n']*}" = "$want" ]; then
		ok "$name"
	else
		not_ok "$name" "want $want, got: $(echo "$out" | head -n 2 | tr '\n' ' ')"
	fi
}

# The kernel's TLV table entries (types with an order), as ipeh-probe prints them.
table_entries() { "$PROBE" dump 2>/dev/null | grep -v ' order=0 '; }
# builtin_table: libipeh's built-in default table for this kernel (no HAO
# without CONFIG_IPV6_MIP6: ipeh.nomip6=1)
builtin_table() {
	if [ "${IPEH_NOMIP6:-0}" = 1 ]; then "$PROBE" default --no-mip6; else "$PROBE" default; fi
}
# table_is_default: the kernel's table equals libipeh's built-in default table
table_is_default() { [ "$(table_entries)" = "$(builtin_table 2>&1)" ]; }
# table_reset: UNSET every entry (twice: a built-in type's order may be held by
# another type until that one is unset)
table_reset() {
	local t
	for _ in 1 2; do
		for t in $(table_entries | cut -d' ' -f1); do
			"$PROBE" unset "$t" >/dev/null 2>&1
		done
	done
}
