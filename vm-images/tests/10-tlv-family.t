# (a) The ipv6-tlv generic netlink family resolves, and its dump is the
# default table of kernel/TLV-TABLE.md, as libipeh knows it.
expect "ipv6-tlv family resolves" ok "$PROBE" family
kernel=$("$PROBE" dump 2>&1)
builtin=$("$PROBE" default 2>&1)
if [ -n "$kernel" ] && [ "$kernel" = "$builtin" ]; then
	ok "kernel dump equals libipeh's built-in default table ($(echo "$kernel" | wc -l) entries)"
else
	not_ok "kernel dump equals libipeh's built-in default table" \
		"$(diff <(echo "$kernel") <(echo "$builtin") | head -n 6 | tr '\n' ' ')"
fi
for t in 0x05 0x07 0x31 0xc2 0xc9; do
	check "default table has option $t" grep -q "^$t " <<< "$kernel"
done
expect "GET of one built-in type" 0x31 "$PROBE" get ioam
