# (a) The ipv6-tlv generic netlink family resolves, and its dump is the
# default table of kernel/TLV-TABLE.md, as libipeh knows it.
expect "ipv6-tlv family resolves" ok "$PROBE" family
dump=$("$PROBE" dump 2>&1)
# The dump lists every type 2..255; those without an entry have order 0.
check "the dump lists all 254 option types" test "$(grep -c '^0x' <<< "$dump")" -eq 254
kernel=$(grep -v ' order=0 ' <<< "$dump")
builtin=$("$PROBE" default 2>&1)
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
	check "default table has option $t" grep -q "^$t " <<< "$kernel"
done
expect "GET of one built-in type" 0x31 "$PROBE" get ioam
