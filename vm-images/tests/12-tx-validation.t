# (c)(d)(h) Options set by applications, through setsockopt() and through
# sendmsg() ancillary data. The blocks are written out by hand from RFC 9197 /
# RFC 9486 and kernel/TLV-TABLE.md, not produced by libipeh.
#
# IOAM pre-allocated trace, namespace 123, trace type bit 0 (4-byte nodes):
#   2 nodes: hdr(00 02) PadN(01 00) IOAM(31 12: 00 00 | 00 7b 08 02 80 00 00 00 | 8 x 00)
IOAM2="0002""0100""3112""0000""007b""0802""80000000""0000000000000000"
#   1 node, trailing PadN(01 02 00 00)
IOAM1="0002""0100""310e""0000""007b""0801""80000000""00000000""01020000"
# Not canonical (each breaks one rule):
MISALIGNED="0002""3112""0000""007b""0802""80000000""0000000000000000""0100"
TWO_PADS="0002""0000""3112""0000""007b""0802""80000000""0000000000000000"
NONZERO_TRAILING="0002""0100""310e""0000""007b""0801""80000000""00000000""010200ff"
PAD1_TRAILING="0002""0100""310e""0000""007b""0801""80000000""00000000""00000000"
BAD_LEN_MULT="0002""0100""3110""0000""007b""0802""80000000""000000000000""0100"
# RFC 4727 experimental option 0x1e, 4 bytes of data, at offset 2 (4n+2)
EXP_DST="0000""1e04""deadbeef"
EXP_HOP="0000""1e04""deadbeef"

dst=2001:db8:2::1

# Before the administrator allows anything, users may send nothing.
expect "user: IOAM in Hop-by-Hop refused by default (setsockopt)" EPERM as_user sender "$PROBE" sockopt hop "$IOAM2"
expect "user: IOAM in Hop-by-Hop refused by default (sendmsg)" EPERM as_user sender "$PROBE" send hop "$IOAM2" $dst 9 --cmsg
expect "user: experimental option in Destination refused by default" EPERM as_user sender "$PROBE" sockopt dst "$EXP_DST"
# While the table grants users nothing, EPERM comes before any look at the
# header, as on 6.12 (a 6-byte header is not a multiple of 8: EINVAL for root)
expect "user: a 6-byte header gives EPERM while nothing is granted (setsockopt)" EPERM \
	as_user sender "$PROBE" sockopt hop "00001e04dead"
expect "root: a 6-byte header gives EINVAL" EINVAL in_ns sender "$PROBE" sockopt hop "00001e04dead"

# The administrator grants user_perm=check.
must "admin grants IOAM user=check" ok "$PROBE" set ioam user=check
must "admin adds option 0x1e for Destination headers" ok \
	"$PROBE" set 0x1e order=100 user=check class=dst align=4n+2 len=4-4

for via in sockopt cmsg; do
	if [ $via = sockopt ]; then run() { as_user sender "$PROBE" sockopt "$@"; }
	else run() { as_user sender "$PROBE" send "$1" "$2" $dst 9 --cmsg; }; fi
	expect "user ($via): canonical IOAM, 2 nodes, accepted" ok run hop "$IOAM2"
	expect "user ($via): canonical IOAM, 1 node + trailing PadN, accepted" ok run hop "$IOAM1"
	expect "user ($via): canonical option 0x1e in Destination accepted" ok run dst "$EXP_DST"
	expect "user ($via): misaligned IOAM refused" EINVAL run hop "$MISALIGNED"
	expect "user ($via): two padding options before IOAM refused" EINVAL run hop "$TWO_PADS"
	expect "user ($via): non-zero trailing PadN refused" EINVAL run hop "$NONZERO_TRAILING"
	expect "user ($via): trailing Pad1 x4 refused" EINVAL run hop "$PAD1_TRAILING"
	expect "user ($via): IOAM data length 16 (not 4n+2) refused" EINVAL run hop "$BAD_LEN_MULT"
	expect "user ($via): option 0x1e in Hop-by-Hop (class) refused" EINVAL run hop "$EXP_HOP"
	expect "user ($via): option 0x1e with 0 data bytes (min 4) refused" EINVAL run dst "0000""1e00""0102""0000"
	# a header of padding only carries no option the user was granted
	expect "user ($via): Hop-by-Hop header of padding only refused" EPERM run hop "0000010400000000"
	expect "user ($via): Destination header of padding only refused" EPERM run dst "0000000000000000"
done
expect "user (sockopt): RTHDRDSTOPTS header of padding only refused" EPERM \
	as_user sender "$PROBE" sockopt rtdst "3c00010400000000"

# Limits from the sysctls, in the sender's namespace
in_ns sender sysctl -qw net.ipv6.max_hbh_opts_number=0
expect "user: more options than max_hbh_opts_number gives E2BIG" E2BIG as_user sender "$PROBE" sockopt hop "$IOAM2"
expect "user (cmsg): more options than max_hbh_opts_number gives E2BIG" E2BIG \
	as_user sender "$PROBE" send hop "$IOAM2" $dst 9 --cmsg
# a negative count (drop unknown options on receive) limits by its absolute value
in_ns sender sysctl -qw net.ipv6.max_hbh_opts_number=-1
expect "user: max_hbh_opts_number -1 allows one option" ok as_user sender "$PROBE" sockopt hop "$IOAM2"
in_ns sender sysctl -qw net.ipv6.max_hbh_opts_number=8 net.ipv6.max_hbh_length=16
expect "user: header longer than max_hbh_length gives EMSGSIZE" EMSGSIZE as_user sender "$PROBE" sockopt hop "$IOAM2"
expect "user (cmsg): header longer than max_hbh_length gives EMSGSIZE" EMSGSIZE \
	as_user sender "$PROBE" send hop "$IOAM2" $dst 9 --cmsg
# a negative length limit drops every header on receive; users may send none
in_ns sender sysctl -qw net.ipv6.max_hbh_length=-1
expect "user (sockopt): max_hbh_length -1 refuses every header (EMSGSIZE)" EMSGSIZE \
	as_user sender "$PROBE" sockopt hop "$IOAM2"
expect "user (cmsg): max_hbh_length -1 refuses every header (EMSGSIZE)" EMSGSIZE \
	as_user sender "$PROBE" send hop "$IOAM2" $dst 9 --cmsg
expect "libipeh: max_hbh_length -1 refuses every header (EMSGSIZE)" EMSGSIZE \
	in_ns sender "$PROBE" validate hop "$IOAM2"
in_ns sender sysctl -qw net.ipv6.max_hbh_length=2147483647

# (h) CAP_NET_RAW may still set what it could on stock 6.12: non-canonical
# padding, unknown types, options of any class.
expect "root: misaligned IOAM accepted" ok in_ns sender "$PROBE" sockopt hop "$MISALIGNED"
expect "root: trailing Pad1 x4 accepted" ok in_ns sender "$PROBE" sockopt hop "$PAD1_TRAILING"
expect "root: unknown option 0x3e accepted in Hop-by-Hop" ok in_ns sender "$PROBE" sockopt hop "0000""3e04""01020304"
expect "root: unknown option via sendmsg accepted" ok in_ns sender "$PROBE" send dst "0000""3e04""01020304" $dst 9 --cmsg
# Structure is checked for everyone: an option or a PadN running past the
# header is EINVAL also for CAP_NET_RAW (kernel/TLV-TABLE.md)
for via in sockopt cmsg; do
	if [ $via = sockopt ]; then run() { in_ns sender "$PROBE" sockopt "$@"; }
	else run() { in_ns sender "$PROBE" send "$1" "$2" $dst 9 --cmsg; }; fi
	expect "root ($via): an option running past the header gives EINVAL" EINVAL \
		run dst "0000""1e08""00000000"
	expect "root ($via): a PadN running past the header gives EINVAL" EINVAL \
		run hop "0000""0108""00000000"
done

# Removing sticky options is allowed to everyone, also after the permission
# to send them was revoked: it can only take options off one's own packets.
hold_then_clear() { # NAME WHO PERM: WHO sets IOAM, admin sets PERM, WHO clears
	local name=$1 who=$2 perm=$3 flag out
	flag=$(mktemp -u)
	out=$(mktemp)
	if [ "$who" = user ]; then as_user sender "$PROBE" sockhold hop "$IOAM2" "$flag" > "$out" 2>&1 &
	else in_ns sender "$PROBE" sockhold hop "$IOAM2" "$flag" > "$out" 2>&1 & fi
	local pid=$!
	wait_for 20 grep -q '^set ' "$out"
	must "admin revokes IOAM ($perm)" ok "$PROBE" set ioam "$perm"
	touch "$flag"
	wait $pid
	if [ "$(tr '\n' ' ' < "$out")" = "set ok clear ok " ]; then ok "$name"
	else not_ok "$name" "$(tr '\n' ' ' < "$out")"; fi
	must "admin grants IOAM again" ok "$PROBE" set ioam user=check admin=no-check
	rm -f "$flag" "$out"
}
hold_then_clear "user: removes its own IOAM option after user=none" user user=none
hold_then_clear "root: removes its own IOAM option after admin=none" root admin=none

# Restoring the defaults takes the permission away again.
expect "admin UNSET of IOAM restores the default" ok "$PROBE" unset ioam
expect "user: IOAM refused again after UNSET" EPERM as_user sender "$PROBE" sockopt hop "$IOAM2"
must "admin UNSET of 0x1e" ok "$PROBE" unset 0x1e

# The same when the revocation leaves the table granting users nothing at all:
# 6.12's early "no option may be sent" refusal must not reach a removal
# (mutant K09 of ./dev mutate survived every test before this one).
must "admin grants IOAM user=check (the only grant)" ok "$PROBE" set ioam user=check
hold_then_clear "user: removes its own IOAM option when the table then grants users nothing" user user=none
must "admin UNSET of IOAM" ok "$PROBE" unset ioam

# One rule for no-check options (kernel/TLV-TABLE.md, "Examples of the rule"):
# a no-check option skips only its own checks; for a user, the count,
# trailing-padding and length rules hold for every header, wherever a checked
# option stands. Each block is also given to libipeh's validator, which must
# give the same verdict.
must "admin grants Router Alert user=check" ok "$PROBE" set ra user=check
must "admin adds 0x1e user=check" ok "$PROBE" set 0x1e order=100 user=check \
	class=hop,dst,rtdst align=8n+2 len=0-20 lenmult=4n+0
must "admin adds 0x3e user=no-check" ok "$PROBE" set 0x3e order=110 user=no-check \
	class=hop,dst,rtdst
nocheck_case() { # NAME SYSCTL=VALUE WANT HDR HEX
	local name=$1 sysctl=$2 want=$3 hdr=$4 hex=$5 old via
	old=$(in_ns sender sysctl -n "${sysctl%%=*}")
	in_ns sender sysctl -qw "$sysctl"
	expect "user (sockopt): $name gives $want" "$want" as_user sender "$PROBE" sockopt "$hdr" "$hex"
	# without a routing header the kernel does not send IPV6_RTHDRDSTOPTS
	[ "$hdr" = rtdst ] || expect "user (cmsg): $name gives $want" "$want" \
		as_user sender "$PROBE" send "$hdr" "$hex" $dst 9 --cmsg
	expect "libipeh: $name gives $want" "$want" in_ns sender "$PROBE" validate "$hdr" "$hex"
	in_ns sender sysctl -qw "${sysctl%%=*}=$old"
}
nocheck_case "three no-check options, max_hbh_opts_number 2" \
	net.ipv6.max_hbh_opts_number=2 E2BIG hop "00003e003e003e00"
nocheck_case "RA + three no-check options, max_hbh_opts_number 2" \
	net.ipv6.max_hbh_opts_number=2 E2BIG hop "0001050200003e003e003e0001020000"
nocheck_case "RA, two no-check options, RA, max_hbh_opts_number 2" \
	net.ipv6.max_hbh_opts_number=2 E2BIG hop "0001050200003e003e00050200000100"
nocheck_case "RA + three no-check options, max_hbh_opts_number 4" \
	net.ipv6.max_hbh_opts_number=4 ok hop "0001050200003e003e003e0001020000"
nocheck_case "two Pad1 after a no-check option" \
	net.ipv6.max_hbh_opts_number=8 EINVAL hop "09003e0201990000"
nocheck_case "non-zero trailing PadN after 0x1e and a no-check option" \
	net.ipv6.max_dst_opts_number=8 EINVAL dst "00011e04342664b001003e0001020100"
nocheck_case "zero trailing PadN after 0x1e and a no-check option" \
	net.ipv6.max_dst_opts_number=8 ok dst "00011e04342664b001003e0001020000"
# (padding only: no option a user was granted, so EPERM before the length)
nocheck_case "padding only, max_dst_opts_length 4" \
	net.ipv6.max_dst_opts_length=4 EPERM rtdst "3c00010400000000"
nocheck_case "one no-check option, max_dst_opts_length 4" \
	net.ipv6.max_dst_opts_length=4 EMSGSIZE rtdst "00003e0001020000"
nocheck_case "one no-check option, max_dst_opts_length 8" \
	net.ipv6.max_dst_opts_length=8 ok rtdst "00003e0001020000"
# Data length outside the entry's min..max (0x1e: len=0-20, lenmult=4n+0),
# the preferred order (RA 20 < 0x1e 100), and one type twice (equal
# orders are allowed: non-decreasing)
nocheck_case "option 0x1e with 24 data bytes (max 20)" \
	net.ipv6.max_dst_opts_number=8 EINVAL dst "0003""1e18""000000000000000000000000000000000000000000000000""0102""0000"
nocheck_case "option 0x1e with 2 data bytes (not 4n+0)" \
	net.ipv6.max_dst_opts_number=8 EINVAL dst "0000""1e02""0000""0100"
nocheck_case "RA then 0x1e (in preferred order)" \
	net.ipv6.max_hbh_opts_number=8 ok hop "0001""0502""0000""0102""0000""1e04""01020304"
nocheck_case "0x1e then RA (out of preferred order)" \
	net.ipv6.max_hbh_opts_number=8 EINVAL hop "0001""1e04""01020304""0502""0000""0102""0000"
nocheck_case "option 0x1e twice" \
	net.ipv6.max_dst_opts_number=8 ok dst "0001""1e04""01020304""0100""1e04""05060708"
# a privileged sender's header with no checked option is held to nothing
in_ns sender sysctl -qw net.ipv6.max_hbh_opts_number=2
expect "root: three no-check options, max_hbh_opts_number 2, accepted" ok \
	in_ns sender "$PROBE" sockopt hop "00003e003e003e00"
in_ns sender sysctl -qw net.ipv6.max_hbh_opts_number=8
for t in ra 0x1e 0x3e; do must "admin UNSET of $t" ok "$PROBE" unset $t; done
