# Issue 7 §6: permissions and malformed attributes on the ipeh-tlv family.
# Requests are crafted attribute by attribute with `ipeh-probe rawnl CMD
# ATTR:HEX...` (ATTR is the attribute number of include/uapi/linux/ipeh.h:
# 1 TYPE u8, 2 ORDER u16, 3 ADMIN_PERM, 4 USER_PERM, 5 CLASS, 6 ALIGN_MULT,
# 7 ALIGN_OFF, 8 MIN_DATA_LEN, 9 MAX_DATA_LEN, 10 DATA_LEN_MULT,
# 11 DATA_LEN_OFF, all u8; HEX in wire order, so ORDER 100 is "6400"); it
# prints the errno name, the extack message, offset and missing attribute.

# nlx NAME WANT MSG CMD...: CMD's verdict is WANT and its extack carries a
# message containing MSG (MSG "-": a missing-attribute report instead;
# MSG "": no extack needed)
nlx() {
	local name=$1 want=$2 msg=$3 out
	shift 3
	out=$("$@" 2>&1)
	echo "$name: $out"
	if [ "${out%%[ $'\n']*}" != "$want" ]; then
		not_ok "$name" "want $want, got: $(head -n 2 <<< "$out" | tr '\n' ' ')"
	elif [ "$msg" = - ] && [[ $out != *miss_type=* ]]; then
		not_ok "$name" "no missing-attribute report in the extack: $out"
	elif [ -n "$msg" ] && [ "$msg" != - ] && [[ $out != *"msg=\""*"$msg"* ]]; then
		not_ok "$name" "extack message is not '$msg': $out"
	else
		ok "$name"
	fi
}
raw() { "$PROBE" rawnl "$@"; }
user_raw() { as_user sender "$PROBE" rawnl "$@"; }

before=$("$PROBE" dump)
"$PROBE" unset 0xbe > /dev/null 2>&1

# --- permissions: changing a netns's table needs CAP_NET_ADMIN over the user
# namespace that owns the netns (the initial one for the host's)
nlx "unprivileged raw SET -> EPERM" EPERM "" user_raw set 1:be 2:6e00 4:01
nlx "unprivileged raw UNSET -> EPERM" EPERM "" user_raw unset 1:31
nlx "unprivileged malformed SET -> EPERM (permission is checked first)" EPERM "" \
	user_raw set 1:be00 2:00 99:00
expect "unprivileged SET through libipeh -> EPERM" EPERM as_user sender "$PROBE" set 0xbe order=110 user=check
expect "unprivileged UNSET through libipeh -> EPERM" EPERM as_user sender "$PROBE" unset ioam
nlx "unprivileged GET is allowed" ok "" user_raw get 1:31
nlx "root in a new user namespace: SET -> EPERM" EPERM "" \
	as_user sender unshare --user --map-root-user "$PROBE" rawnl set 1:be 2:6e00 4:01
nlx "root in a new user namespace: UNSET -> EPERM" EPERM "" \
	as_user sender unshare --user --map-root-user "$PROBE" rawnl unset 1:31
# a new user and network namespace: root there has CAP_NET_ADMIN over its own
# netns, and changes that netns's table only (the host's is compared below)
nlx "root in a new user+net namespace: SET of its own netns's table -> ok" ok "" \
	as_user sender unshare --user --map-root-user --net "$PROBE" rawnl set 1:be 2:6e00 4:01
nlx "root in a new user+net namespace: UNSET of its own netns's table -> ok" ok "" \
	as_user sender unshare --user --map-root-user --net "$PROBE" rawnl unset 1:31

# --- malformed attributes, as root: each refused with an extack
# wrong sizes
nlx "TYPE as 2 bytes" EINVAL "length" raw set 1:be00 2:6e00
nlx "TYPE with no payload" EINVAL "length" raw set 1: 2:6e00
nlx "ORDER as 1 byte" EINVAL "length" raw set 1:be 2:6e
nlx "ORDER as 4 bytes" EINVAL "length" raw set 1:be 2:6e000000
nlx "USER_PERM as 4 bytes" EINVAL "length" raw set 1:31 4:01000000
nlx "CLASS as 2 bytes" EINVAL "length" raw set 1:31 5:0100
nlx "UNSET: TYPE as 4 bytes" EINVAL "length" raw unset 1:31000000
nlx "GET: TYPE as 2 bytes" EINVAL "length" raw get 1:3100
# out-of-range values (the policy's ranges)
nlx "TYPE 1 (PadN)" ERANGE "out of range" raw set 1:01 2:6e00
nlx "TYPE 0 (Pad1)" ERANGE "out of range" raw set 1:00 2:6e00
nlx "UNSET of TYPE 1" ERANGE "out of range" raw unset 1:01
nlx "ORDER 0" ERANGE "out of range" raw set 1:be 2:0000
nlx "ADMIN_PERM 3" ERANGE "out of range" raw set 1:31 3:03
nlx "USER_PERM 255" ERANGE "out of range" raw set 1:31 4:ff
nlx "ALIGN_MULT 0" ERANGE "out of range" raw set 1:31 6:00
nlx "ALIGN_MULT 17" ERANGE "out of range" raw set 1:31 6:11
nlx "ALIGN_OFF 16" ERANGE "out of range" raw set 1:31 7:10
nlx "DATA_LEN_MULT 0" ERANGE "out of range" raw set 1:31 10:00
nlx "DATA_LEN_MULT 17" ERANGE "out of range" raw set 1:31 10:11
nlx "DATA_LEN_OFF 16" ERANGE "out of range" raw set 1:31 11:10
# CLASS is a set of class bits (the policy's mask): another bit is EINVAL
nlx "CLASS 8 (a bit that is not a class)" EINVAL "reserved bit" raw set 1:31 5:08
nlx "CLASS 0x80 (a bit that is not a class)" EINVAL "reserved bit" raw set 1:31 5:80
# values that are in range one by one but not together
nlx "ALIGN_OFF >= ALIGN_MULT" EINVAL "Alignment offset must be less" raw set 1:31 6:04 7:04
nlx "MIN_DATA_LEN > MAX_DATA_LEN" EINVAL "Min data length" raw set 1:31 8:05 9:04
nlx "DATA_LEN_OFF >= DATA_LEN_MULT" EINVAL "Data length offset must be less" raw set 1:31 10:02 11:02
nlx "new type without ORDER" EINVAL "needs an order" raw set 1:be 4:01
nlx "new type with the ORDER of IOAM (50)" EALREADY "Order is used by another type" raw set 1:be 2:3200
# unknown attributes
nlx "unknown attribute 12 in SET" EINVAL "Unknown attribute" raw set 1:31 12:00
nlx "unknown attribute 200 in SET" EINVAL "Unknown attribute" raw set 1:31 200:00
nlx "attribute 0 (UNSPEC) in SET" EINVAL "attribute" raw set 1:31 0:00
nlx "ORDER in UNSET (not in its policy)" EINVAL "Unknown attribute" raw unset 1:31 2:6e00
# REPLACE (command 4), its policies generated from the spec: an attribute above
# RESET is unknown, one below it other than ENTRY unsupported; genetlink checks
# each ENTRY with the entry's policy and points the extack at the attribute in
# the nest (offset 32: nlmsghdr 16, genlmsghdr 4, ENTRY's header 4, TYPE 8);
# ENTRY is 13 | NLA_F_NESTED (0x8000), which strict validation requires
nlx "RX_CLASS (16) in REPLACE (above its policy)" EINVAL "Unknown attribute" raw 4 16:01
nlx "TYPE at the top of REPLACE (not in its policy)" EINVAL "Unsupported attribute" raw 4 1:31
nlx "ENTRY without NLA_F_NESTED" EINVAL "NLA_F_NESTED is missing" raw 4 13:0500010031000000
entry_bad_user=32781:05000100310000000500040007000000
nlx "USER_PERM 7 in an ENTRY of REPLACE" ERANGE "out of range" raw 4 $entry_bad_user
out=$(raw 4 $entry_bad_user)
if [[ $out == *" offs=32"* ]]; then
	ok "USER_PERM 7 in an ENTRY of REPLACE: extack offset at the attribute in the nest"
else
	not_ok "USER_PERM 7 in an ENTRY of REPLACE: extack offset at the attribute in the nest" "got: $out"
fi
# missing TYPE
nlx "SET without TYPE" EINVAL - raw set 2:6e00 4:01
nlx "UNSET without TYPE" EINVAL - raw unset
nlx "SET with no attributes" EINVAL - raw set
nlx "unknown command 9" EOPNOTSUPP "" raw 9 1:31
nlx "command 0 (UNSPEC)" EOPNOTSUPP "" raw 0 1:31
# resv_start_op 0: every command has its header's reserved field checked
nlx "GET with the header's reserved field 1" EINVAL "reserved" raw get resv=1 1:31
nlx "SET with the header's reserved field 0x8000" EINVAL "reserved" raw set resv=32768 1:31 4:01
# GET of a type without an entry (0xbe was unset above): ENOENT, named
nlx "GET of a type without an entry -> ENOENT" ENOENT "no entry" raw get 1:be
out=$("$PROBE" get 0xbe 2>&1)
case "$out" in
"0xbe order=0 "*) ok "libipeh's GET of a type without an entry gives its no-entry parameters (order 0)" ;;
*) not_ok "libipeh's GET of a type without an entry gives its no-entry parameters (order 0)" "$out" ;;
esac

after=$("$PROBE" dump)
if [ "$before" = "$after" ]; then ok "the table is unchanged after every refused request"
else not_ok "the table is unchanged after every refused request" "$(diff <(echo "$before") <(echo "$after") | head -n 4 | tr '\n' ' ')"; fi
# and a well-formed raw request does work (the tool is not refusing everything)
nlx "well-formed raw SET of 0xbe" ok "" raw set 1:be 2:6e00 4:01 5:04 6:04 7:02 8:04 9:04
nlx "well-formed raw UNSET of 0xbe" ok "" raw unset 1:be
# CLASS 0, the empty set a new entry starts with, is accepted: a dump's entry
# can be written back as it is
nlx "raw SET of 0xbe with CLASS 0 (no header) -> ok" ok "" raw set 1:be 2:6e00 5:00
out=$("$PROBE" get 0xbe 2>&1)
case "$out" in
"0xbe order=110 "*" class=none "*) ok "0xbe has order 110 and class none after the SET with CLASS 0" ;;
*) not_ok "0xbe has order 110 and class none after the SET with CLASS 0" "$out" ;;
esac
must "UNSET of 0xbe" ok raw unset 1:be

# --- change notifications carry neither ADMIN_PERM (attribute 3) nor the port
# id and sequence number of the request that made the change; they go to the
# listeners of the changed netns only (53-netns-policy.t tests the isolation;
# here a user's root in a new user+net namespace, which could join
# "tlv-changes" of its own netns, is told nothing of the host's changes).
lout=$(mktemp) uout=$(mktemp)
"$PROBE" listen 30 2 > "$lout" 2>&1 &
lpid=$!
as_user sender unshare --user --map-root-user --net "$PROBE" listen 8 1 > "$uout" 2>&1 &
upid=$!
if wait_for 20 grep -q '^listening' "$lout" && wait_for 20 grep -q '^listening' "$uout"; then
	must "admin SET of 0xbe (notified)" ok "$PROBE" set 0xbe order=110 user=check admin=check
	must "admin UNSET of 0xbe (notified)" ok "$PROBE" unset 0xbe
fi
wait $lpid $upid
cat "$lout" "$uout"
nlines=$(grep -c '^notify ' "$lout")
if [ "$nlines" = 2 ] && [ "$(grep '^notify ' "$lout" | cut -d' ' -f2 | tr '\n' ' ')" = "cmd=5 cmd=6 " ]; then
	ok "a listener in the host's netns is told of a SET and an UNSET, in that order"
else not_ok "a listener in the host's netns is told of a SET and an UNSET, in that order" "$(tr '\n' ' ' < "$lout")"; fi
if grep -q '^listening' "$uout" && ! grep -q '^notify ' "$uout"; then
	ok "a listener in its own user+net namespace is told nothing of the host's changes"
else not_ok "a listener in its own user+net namespace is told nothing of the host's changes" "$(tr '\n' ' ' < "$uout")"; fi
if [ "$nlines" -gt 0 ] && ! grep '^notify ' "$lout" | grep -Eq 'attrs=([0-9,]*,)?3(,|$)'; then
	ok "notifications carry no ADMIN_PERM"
else
	not_ok "notifications carry no ADMIN_PERM" "$(grep '^notify ' "$lout" | tr '\n' ' ')"
fi
if [ "$nlines" -gt 0 ] && ! grep '^notify ' "$lout" | grep -vq ' pid=0 seq=0 '; then
	ok "notifications carry no requester port id or sequence number"
else
	not_ok "notifications carry no requester port id or sequence number" "$(grep '^notify ' "$lout" | tr '\n' ' ')"
fi
rm -f "$lout" "$uout"

# --- the transcript the unit tests' fake kernels answer from -------------------
# Each request of unit/kernel-replies.txt, sent to this kernel from the
# built-in table: its errno and extack message must be the recorded ones.
# What the kernel said is written out as a transcript of the same format.
replies=$IPEH_SRC/unit/kernel-replies.txt
seen=$IPEH_RESULTS/kernel-replies.txt
grep '^#' "$replies" > "$seen"
n=0
while IFS='|' read -r rule who req want_err want_msg; do
	rule=$(echo $rule) who=$(echo $who) want_err=$(echo $want_err)
	want_msg=$(sed 's/^ *//; s/ *$//' <<< "$want_msg")
	all_req=$(echo $req)
	# set-up steps before the last ";" must succeed
	while [[ $req == *";"* ]]; do
		# shellcheck disable=SC2086
		must "set-up of '$rule': ${req%%;*}" ok raw ${req%%;*}
		req=${req#*;}
	done
	# shellcheck disable=SC2086
	if [ "$who" = user ]; then out=$(user_raw $req 2>&1); else out=$(raw $req 2>&1); fi
	got_err=${out%%[ $'\n']*}
	got_msg=$(sed -n 's/.* msg="\([^"]*\)".*/\1/p' <<< "$out")
	printf '%-15s| %-4s | %-39s | %-6s | %s\n' "$rule" "$who" "$all_req" "$got_err" "$got_msg" >> "$seen"
	if [ "$got_err" = "$want_err" ] && [ "$got_msg" = "$want_msg" ]; then
		ok "the kernel's reply to '$rule' is the one the unit fakes give ($want_err${want_msg:+, \"$want_msg\"})"
	else
		not_ok "the kernel's reply to '$rule' is the one the unit fakes give" \
			"recorded $want_err \"$want_msg\", kernel said: $out (update unit/kernel-replies.txt from $seen)"
	fi
	n=$((n + 1))
	"$PROBE" unset 0xbe > /dev/null 2>&1
	"$PROBE" unset 0x31 > /dev/null 2>&1
	"$PROBE" unset 0x05 > /dev/null 2>&1
done < <(grep -v '^#' "$replies")
[ "$n" -ge 17 ] || not_ok "unit/kernel-replies.txt has its 17 rules" "read $n"
