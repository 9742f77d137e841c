# ipeh: runs on stock
# The guest runs the kernel that ./dev built from kernel/patches/ (its release
# string is recorded by the host in /ipeh/stage/kernel-release); in the stock
# pass, the one built without them (kernel/config/stock.config).
want=$(cat /ipeh/stage/kernel-release 2>/dev/null)
have=$(uname -r)
built="built from kernel/patches"
[ "$IPEH_STOCK" = 1 ] && built="built without kernel/patches (stock)"
if [ -n "$want" ] && [ "$have" = "$want" ]; then
	ok "kernel release is the one $built ($have)"
else
	not_ok "kernel release is the one $built" "running '$have', built '$want'"
fi
if [ "$IPEH_STOCK" = 1 ]; then
	# the series' netlink family must not resolve: this really is stock 6.12
	# (ipeh-probe's own answer for a missing family, not any failure)
	out=$("$PROBE" family 2>&1)
	case "$out" in
	ENOENT*) ok "stock kernel has no ipv6-tlv netlink family" ;;
	*) not_ok "stock kernel has no ipv6-tlv netlink family" "ipeh-probe family said: $out" ;;
	esac
fi
case "$have" in
*-ipeh*) ok "kernel carries the -ipeh localversion" ;;
*) not_ok "kernel carries the -ipeh localversion" "uname -r is $have" ;;
esac
check "systemd is PID 1" test "$(cat /proc/1/comm)" = systemd
# what the guest runs is what the host staged, byte for byte
staged_same() {
	local f
	for f in usr/libexec/ipeh/ipeh-probe usr/sbin/tlvd usr/sbin/tlvctl; do
		cmp -s "/ipeh/stage/root/$f" "/$f" || { echo "/$f differs from the staged build"; return 1; }
	done
	f=$(cd /ipeh/stage/root && find . -name 'libipeh.so.*' -type f | head -n 1)
	[ -n "$f" ] && cmp -s "/ipeh/stage/root/$f" "/${f#./}" || { echo "libipeh ($f) differs"; return 1; }
}
check "the guest runs the staged build (probe, tlvd, tlvctl, libipeh)" staged_same
