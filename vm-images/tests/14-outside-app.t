# libipeh's promise to applications outside this tree: the program printed in
# ipeh_sock(3)'s EXAMPLE, compiled by ./dev with only
# `cc send.c $(pkg-config --cflags --libs libipeh)` against the packages
# libipeh-dev and the library's (unpacked on the host; the guest has them installed),
# sends an IOAM + PMTU Hop-by-Hop header as an ordinary user.
app=/usr/libexec/ipeh/outside-send
check "the man page example was built with pkg-config and installed" test -x "$app"
must "admin grants IOAM user=check" ok "$PROBE" set ioam user=check
must "admin adds PMTU (0x30) for users, as tlvd.conf does" ok \
	"$PROBE" set pmtu order=60 user=check class=hop align=4n+2 len=4-4

out=$IPEH_RESULTS/$IPEH_TEST.recv
in_ns receiver "$PROBE" recv 5000 1 15 > "$out" &
rpid=$!
wait_for 10 grep -q ready "$out"
check "the example runs as user ipeh and exits 0" as_user sender "$app" 2001:db8:2::1
wait "$rpid"
got=$(sed -n 's/^packet hop=//p' "$out")
# Written out from RFC 9268 and RFC 9486, not from libipeh:
#   PMTU:  30 04 | Min-PMTU 05dc (1500) | Rtn-PMTU 0, R=1 -> 0001
#   IOAM:  31 22 (34 bytes) | 00 reserved | 00 pre-allocated | namespace 007b
case "$got" in
*300405dc0001*) ok "receiver got the PMTU option (Min-PMTU 1500, R set)" ;;
*) not_ok "receiver got the PMTU option (Min-PMTU 1500, R set)" "hop=$got" ;;
esac
case "$got" in
*31220000007b*) ok "receiver got the IOAM pre-allocated trace option (namespace 123)" ;;
*) not_ok "receiver got the IOAM pre-allocated trace option (namespace 123)" "hop=$got" ;;
esac
must "admin UNSET of PMTU" ok "$PROBE" unset pmtu
must "admin UNSET of IOAM" ok "$PROBE" unset ioam
expect "after UNSET users get EPERM for IOAM again" EPERM \
	as_user sender "$PROBE" sockopt hop "0002""0100""310e""0000""007b""0801""80000000""00000000""01020000"
