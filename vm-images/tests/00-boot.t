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
	ENOENT*) ok "stock kernel has no ipeh-tlv netlink family" ;;
	*) not_ok "stock kernel has no ipeh-tlv netlink family" "ipeh-probe family said: $out" ;;
	esac
fi
case "$have" in
*-ipeh*) ok "kernel carries the -ipeh localversion" ;;
*) not_ok "kernel carries the -ipeh localversion" "uname -r is $have" ;;
esac
check "systemd is PID 1" test "$(cat /proc/1/comm)" = systemd
# what the guest runs is what the host built: each staged package installed
# at its version, its files as shipped (dpkg --verify), and the test-only
# ipeh-probe byte for byte
packages_installed() {
	local deb pkg ver have bad=
	for deb in /ipeh/stage/debs/*.deb; do
		[ -f "$deb" ] || { echo "no packages in /ipeh/stage/debs"; return 1; }
		pkg=$(dpkg-deb -f "$deb" Package)
		ver=$(dpkg-deb -f "$deb" Version)
		have=$(dpkg-query -W -f '${Version} ${db:Status-Status}' "$pkg" 2>&1)
		[ "$have" = "$ver installed" ] || bad+=" $pkg: want '$ver installed', have '$have';"
		dpkg --verify "$pkg" > /dev/null 2>&1 || bad+=" $pkg: dpkg --verify: $(dpkg --verify "$pkg" 2>&1 | head -n 2 | tr '\n' ' ');"
	done
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}
check "the guest runs the staged packages (dpkg -i, verified)" packages_installed
check "the guest runs the staged ipeh-probe" cmp /ipeh/stage/tests/usr/libexec/ipeh/ipeh-probe "$PROBE"
# Loadable modules: boot.sh mounts the booted kernel's modules (make
# modules_install on the host) on /lib/modules. dummy (CONFIG_DUMMY=m) is
# the module every kernel variant builds: loaded, used and unloaded, by
# modprobe and by the kernel's own autoloading (cmsg_ipv6.sh's dummy0 needs it).
module_loaded() { grep -q "^$1 " /proc/modules || { echo "no '$1' in /proc/modules"; return 1; }; }
modules_dir() {
	[ -s "/lib/modules/$have/modules.dep" ] ||
		{ echo "no /lib/modules/$have/modules.dep (the ipehmod share: see boot.sh's line on the console)"; return 1; }
}
check "the running kernel's modules are in /lib/modules/RELEASE (modules.dep)" modules_dir
! module_loaded dummy || must_run "rmmod dummy left loaded by the boot" rmmod dummy
check "modprobe dummy" modprobe dummy
check "dummy is a loaded module (/proc/modules)" module_loaded dummy
check "a dummy netdev can be made (ip link add type dummy)" ip link add ipehdummy0 type dummy
check "the dummy netdev is there" ip link show dev ipehdummy0
check "rmmod dummy" rmmod dummy
check_fails "dummy is unloaded (/proc/modules)" module_loaded dummy
check_fails "rmmod dummy took its netdev with it" ip link show dev ipehdummy0
# request_module: "ip link add type dummy" loads the module (rtnl-link-dummy)
check "ip link add type dummy in a netns autoloads dummy" ip netns exec router ip link add ipehdummy1 type dummy
check "dummy is loaded again (autoloaded)" module_loaded dummy
must_run "rmmod dummy after the autoload" rmmod dummy
