# (a) The ipeh-tlv generic netlink family resolves, and its dump is the
# default table of kernel/TLV-TABLE.md, as libipeh knows it.
expect "ipeh-tlv family resolves" ok "$PROBE" family
dump=$("$PROBE" dump 2>&1)
# The dump lists every type 2..255; those without an entry have order 0.
# each of 0x02..0xff exactly once, in order
want_types=$(for ((t = 2; t < 256; t++)); do printf '0x%02x\n' "$t"; done)
got_types=$(grep -o '^0x[0-9a-f]*' <<< "$dump")
if [ "$got_types" = "$want_types" ]; then ok "the dump lists each option type 0x02..0xff once, in order"
else not_ok "the dump lists each option type 0x02..0xff once, in order" \
	"$(diff <(echo "$want_types") <(echo "$got_types") | head -n 4 | tr '\n' ' ')"; fi
kernel=$(grep -v ' order=0 ' <<< "$dump")
builtin=$(builtin_table 2>&1)
if [ -n "$kernel" ] && [ "$kernel" = "$builtin" ]; then
	ok "kernel dump equals libipeh's built-in default table ($(echo "$kernel" | wc -l) entries)"
else
	not_ok "kernel dump equals libipeh's built-in default table" \
		"$(diff <(echo "$kernel") <(echo "$builtin") | head -n 6 | tr '\n' ' ')"
fi
unset_line="order=0 admin=no-check user=none class=none align=4n+2 len=0-255 lenmult=1n+0"
check "a type with no entry shows the documented defaults (kernel/TLV-TABLE.md)" \
	grep -qx "0x3e $unset_line" <<< "$dump"
for t in 0x05 0x07 0x31 0xc2 0xc9; do
	if [ $t = 0xc9 ] && [ "$IPEH_NOMIP6" = 1 ]; then
		check_fails "without CONFIG_IPV6_MIP6 the table has no HAO (0xc9) entry" \
			grep -q "^$t " <<< "$kernel"
		continue
	fi
	check "default table has option $t" grep -q "^$t " <<< "$kernel"
done
# the IOAM row of kernel/TLV-TABLE.md, as ipeh-probe prints an entry
IOAM_ROW="0x31 order=50 admin=no-check user=none class=hop align=4n+0 len=10-254 lenmult=4n+2"
out=$("$PROBE" get ioam 2>&1)
if [ "$out" = "$IOAM_ROW" ]; then ok "GET of one built-in type (IOAM) returns its documented entry"
else not_ok "GET of one built-in type (IOAM) returns its documented entry" "got: $out"; fi
# libipeh reads the ACK its GET asked for (it used to return on the reply and
# leave the ACK queued for the next reader of the socket)
expect "after a GET, nothing is left queued on the socket" ok "$PROBE" get ioam --drained

# A change of any one field alone changes the entry, through SET, REPLACE and
# UNSET: the kernel skips a request whose entry equals the current one
# (tlv_params_equal()), and a field left out of that comparison would turn a
# real change into "nothing to do" (./dev mutate's K11 left out align_off and
# no test saw it). 0x1e starts from BASE each time.
BASE="order=100 admin=no-check user=check class=dst align=4n+2 len=4-4 lenmult=2n+0"
for change in order=101 admin=check user=no-check class=hop align=4n+0 align=8n+2 \
	len=2-4 len=4-6 lenmult=4n+0 lenmult=2n+1; do
	# shellcheck disable=SC2086
	must "0x1e is set to $BASE" ok "$PROBE" set 0x1e $BASE
	field=${change%%=*}
	want="0x1e $(sed -E "s/(^| )$field=[^ ]*/\1$change/" <<< "$BASE")"
	must "SET 0x1e $change" ok "$PROBE" set 0x1e "$change"
	out=$("$PROBE" get 0x1e 2>&1)
	if [ "$out" = "$want" ]; then ok "SET of $change alone changes the entry"
	else not_ok "SET of $change alone changes the entry" "got: $out"; fi
done
# shellcheck disable=SC2086
must "0x1e is set to $BASE" ok "$PROBE" set 0x1e $BASE
must "REPLACE 0x1e align=4n+0" ok "$PROBE" replace 0x1e,align=4n+0
out=$("$PROBE" get 0x1e 2>&1)
if [ "$out" = "0x1e ${BASE/align=4n+2/align=4n+0}" ]; then ok "REPLACE of the alignment offset alone changes the entry"
else not_ok "REPLACE of the alignment offset alone changes the entry" "got: $out"; fi
must "admin UNSET of 0x1e" ok "$PROBE" unset 0x1e
# a built-in entry that differs from its default in the offset alone is reset by UNSET
must "IOAM moved to 4n+2" ok "$PROBE" set ioam align=4n+2
must "admin UNSET of IOAM" ok "$PROBE" unset ioam
out=$("$PROBE" get ioam 2>&1)
if [ "$out" = "$IOAM_ROW" ]; then ok "UNSET restores a built-in entry that differs in the alignment offset alone"
else not_ok "UNSET restores a built-in entry that differs in the alignment offset alone" "got: $out"; fi
