# Issue 11 §2: the transmit policy is per network namespace. Each netns has
# its own TLV table, created from the built-in entries with the netns; SET,
# UNSET, GET, dumps and notifications concern the requester's netns only;
# changing a netns's table needs CAP_NET_ADMIN over the user namespace that
# owns it. The host is the sender (the guest's initial netns); the test makes
# namespaces of its own beside it.

# IOAM pre-allocated trace, 2 nodes (as in 12-tx-validation.t), and the
# RFC 4727 experimental option 0x1e with 4 bytes of data, at 4n+2
IOAM2="0002""0100""3112""0000""007b""0802""80000000""0000000000000000"
EXP_DST="0000""1e04""deadbeef"
# the entry of 0x1e the tests grant: users may send it, checked, in
# Destination options
SET_1E=(set 0x1e order=100 user=check class=dst align=4n+2 len=4-4)

A=ipeh-a B=ipeh-b C=ipeh-c
# under /run: a DynamicUser= unit has a /tmp of its own
W=$(mktemp -d /run/ipeh-53.XXXXXX)
chmod 755 "$W"
netns_cleanup() {
	systemctl stop tlvd-$A 2>/dev/null
	systemctl reset-failed tlvd-$A 2>/dev/null
	ip netns del $A 2>/dev/null
	ip netns del $B 2>/dev/null
	ip netns del $C 2>/dev/null
	"$PROBE" unset ioam > /dev/null 2>&1
	"$PROBE" unset 0x1e > /dev/null 2>&1
	rm -rf "$W"
}
trap 'netns_cleanup; _ipeh_test_end' EXIT
for ns in $A $B; do
	ip netns del $ns 2>/dev/null
	ip netns add $ns
	in_ns $ns ip link set lo up
done

# same NAME A B: ok if A and B are the same text
same() {
	if [ "$2" = "$3" ]; then ok "$1"
	else not_ok "$1" "$(diff <(echo "$2") <(echo "$3") | head -n 6 | tr '\n' ' ')"; fi
}

# The host's table at the start is the built-in one (the runner checks that
# every test leaves it so); so is that of a netns made before any change.
pristine=$("$PROBE" dump)
same "a new netns's table is the host's built-in table" "$pristine" "$(in_ns $B "$PROBE" dump)"

# --- the host grants IOAM; a netns made afterwards still starts from the
# built-in entries, and its users may not send IOAM
must "host: admin grants IOAM user=check" ok "$PROBE" set ioam user=check
host_granted=$("$PROBE" dump)
ip netns add $C
in_ns $C ip link set lo up
same "a netns made after the host's change starts from the built-in entries" \
	"$pristine" "$(in_ns $C "$PROBE" dump)"
expect "host: user sends IOAM (granted in the host's netns)" ok as_user sender "$PROBE" sockopt hop "$IOAM2"
expect "netns C: user may not send IOAM (not granted in C)" EPERM as_user $C "$PROBE" sockopt hop "$IOAM2"
expect "netns C: user may not send IOAM by sendmsg either" EPERM \
	as_user $C "$PROBE" send hop "$IOAM2" ::1 9 --cmsg
expect "netns B: user may not send IOAM" EPERM as_user $B "$PROBE" sockopt hop "$IOAM2"

# --- netns A grants 0x1e: only A's users may send it
must "netns A: admin grants 0x1e" ok in_ns $A "$PROBE" "${SET_1E[@]}"
expect "netns A: user sends 0x1e in a Destination header (setsockopt)" ok \
	as_user $A "$PROBE" sockopt dst "$EXP_DST"
expect "netns A: user sends 0x1e in a Destination header (sendmsg)" ok \
	as_user $A "$PROBE" send dst "$EXP_DST" ::1 9 --cmsg
expect "netns A: user may not send IOAM (the host's grant is not A's)" EPERM \
	as_user $A "$PROBE" sockopt hop "$IOAM2"
expect "netns B: user may not send 0x1e" EPERM as_user $B "$PROBE" sockopt dst "$EXP_DST"
expect "host: user may not send 0x1e" EPERM as_user sender "$PROBE" sockopt dst "$EXP_DST"
same "the host's table is unchanged by A's SET" "$host_granted" "$("$PROBE" dump)"
same "netns B's table is unchanged by A's SET" "$pristine" "$(in_ns $B "$PROBE" dump)"
out=$(in_ns $A "$PROBE" get 0x1e 2>&1)
case "$out" in
"0x1e order=100 admin=no-check user=check class=dst "*) ok "netns A: GET shows A's entry of 0x1e" ;;
*) not_ok "netns A: GET shows A's entry of 0x1e" "$out" ;;
esac

# --- notifications go to the listeners of the changed netns only
for ns in sender $A $B; do
	in_ns $ns "$PROBE" listen 6 1 > "$W/listen-$ns" 2>&1 &
	eval "lpid_${ns//-/_}=\$!"
done
if wait_for 20 grep -q '^listening' "$W/listen-sender" &&
	wait_for 20 grep -q '^listening' "$W/listen-$A" &&
	wait_for 20 grep -q '^listening' "$W/listen-$B"; then
	must "netns A: admin UNSET of 0x1e (notified)" ok in_ns $A "$PROBE" unset 0x1e
fi
# shellcheck disable=SC2154 # the lpid_* are set by the eval above
wait "$lpid_sender" "$lpid_ipeh_a" "$lpid_ipeh_b"
n_a=$(grep -c '^notify ' "$W/listen-$A")
n_host=$(grep -c '^notify ' "$W/listen-sender")
n_b=$(grep -c '^notify ' "$W/listen-$B")
if [ "$n_a" = 1 ] && grep -q '^notify cmd=6 ' "$W/listen-$A"; then
	ok "netns A's listener is told of A's UNSET of 0x1e"
else not_ok "netns A's listener is told of A's UNSET of 0x1e" "$(tr '\n' ' ' < "$W/listen-$A")"; fi
if [ "$n_host" = 0 ] && [ "$n_b" = 0 ]; then
	ok "the host's and netns B's listeners are told nothing of A's change"
else
	not_ok "the host's and netns B's listeners are told nothing of A's change" \
		"host: $(tr '\n' ' ' < "$W/listen-sender"); B: $(tr '\n' ' ' < "$W/listen-$B")"
fi

# --- who may change a netns's table: CAP_NET_ADMIN over its owning user ns
expect "netns A: an unprivileged user may not SET A's table" EPERM \
	as_user $A "$PROBE" "${SET_1E[@]}"
# root of a new user namespace, in a new netns that user namespace owns:
# it may change that netns's table (and could send any option there anyway)
cat > "$W/userns.sh" <<EOF
"$PROBE" ${SET_1E[*]} || exit 1
"$PROBE" get 0x1e
EOF
out=$(as_user sender unshare --user --map-root-user --net bash "$W/userns.sh" 2>&1)
case "$out" in
"ok"*"0x1e order=100 admin=no-check user=check class=dst "*)
	ok "root of a new user+net namespace may SET its own netns's table (and sees admin_perm)" ;;
*) not_ok "root of a new user+net namespace may SET its own netns's table (and sees admin_perm)" "$(tr '\n' ' ' <<< "$out")" ;;
esac
same "the host's table is unchanged by the user namespace's SET" "$host_granted" "$("$PROBE" dump)"
# the same root may not change a netns owned by the initial user namespace
expect "root of a new user namespace may not SET the host's table" EPERM \
	as_user sender unshare --user --map-root-user "$PROBE" "${SET_1E[@]}"

# --- tlvctl in a netns (ip netns exec NS tlvctl ...)
cat > "$W/policy-1e.conf" <<'EOF'
[global]
unmentioned = keep
on-stop = keep
[option 0x1e]
class = dst
order = 100
admin = nocheck
user = check
align = 4n+2
length = 4
EOF
chmod 644 "$W/policy-1e.conf"
out=$(in_ns $B tlvctl apply "$W/policy-1e.conf" 2>&1)
echo "$out"
expect "netns B: user sends 0x1e after 'ip netns exec B tlvctl apply'" ok \
	as_user $B "$PROBE" sockopt dst "$EXP_DST"
out=$(in_ns $B tlvctl show 0x1e --json 2>&1)
if [[ $out == *'"order":100,'* && $out == *'"user":"check"'* ]]; then
	ok "netns B: tlvctl show 0x1e shows order 100, user check"
else not_ok "netns B: tlvctl show 0x1e shows order 100, user check" "$(tr '\n' ' ' <<< "$out")"; fi
if tlvctl diff "$W/policy-1e.conf" > /dev/null 2>&1; then
	not_ok "host: tlvctl diff still finds 0x1e to change (B's apply did not reach the host)"
else ok "host: tlvctl diff still finds 0x1e to change (B's apply did not reach the host)"; fi
same "the host's table is unchanged by B's tlvctl apply" "$host_granted" "$("$PROBE" dump)"

# --- tlvd inside a netns, as a container runs it: a transient unit joined
# to netns A, the policy file of its own, CAP_NET_ADMIN alone
in_ns $A "$PROBE" unset 0x1e > /dev/null 2>&1
if systemd-run --quiet --unit=tlvd-$A --service-type=notify \
	-p NetworkNamespacePath=/run/netns/$A -p DynamicUser=yes \
	-p AmbientCapabilities=CAP_NET_ADMIN -p CapabilityBoundingSet=CAP_NET_ADMIN \
	/usr/sbin/tlvd --config "$W/policy-1e.conf"; then
	ok "tlvd starts inside netns A (systemd-run, NetworkNamespacePath=/run/netns/$A)"
else
	not_ok "tlvd starts inside netns A (systemd-run, NetworkNamespacePath=/run/netns/$A)" \
		"$(journalctl -u tlvd-$A -n 5 --no-pager 2>&1 | tr '\n' ' ')"
fi
expect "netns A: user sends 0x1e under A's tlvd" ok as_user $A "$PROBE" sockopt dst "$EXP_DST"
expect "netns C: user may still not send 0x1e" EPERM as_user $C "$PROBE" sockopt dst "$EXP_DST"
same "the host's table is unchanged by A's tlvd" "$host_granted" "$("$PROBE" dump)"
systemctl stop tlvd-$A

# --- tearing namespaces down: their tables go with them (KASAN in the debug
# pass); a netns of the same name made again starts from the built-in entries
ip netns del $A
ip netns add $A
same "netns A made again starts from the built-in entries" "$pristine" "$(in_ns $A "$PROBE" dump)"
for i in $(seq 20); do
	ip netns add ipeh-churn-$i &&
	ip netns exec ipeh-churn-$i "$PROBE" set 0x1e order=100 user=check class=dst > /dev/null &&
	ip netns del ipeh-churn-$i || break
done
if [ "$i" = 20 ]; then ok "20 namespaces made, given a policy and deleted"
else not_ok "20 namespaces made, given a policy and deleted" "stopped at $i"; ip netns del ipeh-churn-$i 2>/dev/null; fi
same "the host's table is what the host set, after all of it" "$host_granted" "$("$PROBE" dump)"
must "host: admin gives IOAM back its default" ok "$PROBE" unset ioam
