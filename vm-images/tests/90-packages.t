#!/bin/bash
# The Debian packages as a user gets them (boot.sh installed them with
# dpkg -i from /ipeh/stage/debs): /etc/tlvd.conf is tlvd's conffile, as
# shipped; tlvd.service is installed disabled and not running (debian/rules
# says why) and `systemctl start tlvd` starts it; every man page and the
# bash completion are in place. Then `dpkg --purge` of all of them, with
# tlvd running, leaves nothing behind: no file of any package, no conffile,
# no unit or its enablement state, no running tlvd, no /run/tlvd. Last, the
# packages are installed again (this test runs last, but leaves the guest as
# it found it) and verified.  Sourced by run-tests after topo_up.

debs=(/ipeh/stage/debs/*.deb)
pkgs=()
for deb in "${debs[@]}"; do
	[ -f "$deb" ] && pkgs+=("$(dpkg-deb -f "$deb" Package)")
done
# the four user packages, whatever libipeh's SONAME
check "the staged packages are libipeh*, libipeh-dev, tlvd, ipeh-examples" \
	test "$(printf '%s\n' "${pkgs[@]}" | sed 's/^libipeh[0-9][0-9]*$/libipehN/' | sort | tr '\n' ' ')" = \
	"ipeh-examples libipeh-dev libipehN tlvd "

# --- installed ------------------------------------------------------------------
status_of() { dpkg-query -W -f '${db:Status-Status}' "$1" 2>/dev/null; }
all_installed() {
	local p bad=
	for p in "${pkgs[@]}"; do
		[ "$(status_of "$p")" = installed ] || bad+=" $p ($(status_of "$p"))"
	done
	[ -z "$bad" ] || { echo "not installed:$bad"; return 1; }
}
check "every package is installed" all_installed

conffile_as_shipped() {
	local listed md5
	listed=$(dpkg-query -W -f '${Conffiles}\n' tlvd | awk '$1 == "/etc/tlvd.conf" { print $2 }')
	[ -n "$listed" ] || { echo "/etc/tlvd.conf is not a conffile of tlvd"; return 1; }
	md5=$(md5sum < /etc/tlvd.conf | cut -d' ' -f1)
	[ "$md5" = "$listed" ] || { echo "/etc/tlvd.conf differs from the shipped one"; return 1; }
}
check "/etc/tlvd.conf is tlvd's conffile, as shipped" conffile_as_shipped

same_out() { # NAME WANT CMD...
	local name=$1 want=$2 out
	shift 2
	out=$("$@" 2>&1)
	if [ "$out" = "$want" ]; then ok "$name"; else not_ok "$name" "want '$want', got '$out'"; fi
}
same_out "tlvd.service is installed disabled" disabled systemctl is-enabled tlvd.service
same_out "installing did not start tlvd" inactive systemctl is-active tlvd.service
check "tlvd.service is the packaged unit" test "$(systemctl show -p FragmentPath --value tlvd)" = \
	"$(dpkg -L tlvd | grep '/systemd/system/tlvd.service$')"

man_pages=(man1/ioam-sender.1 man1/ioam-receiver.1 man1/pmtu-sender.1 man1/pmtu-receiver.1
	man3/libipeh.3 man3/ipeh_sock.3 man3/ipeh_sock_set.3 man3/ipeh_nl_replace.3
	man5/tlvd.conf.5 man8/tlvd.8 man8/tlvctl.8)
pages_present() {
	local page missing=
	for page in "${man_pages[@]}"; do
		# a readable page (a symlinked name page resolves to its group's page)
		zcat "/usr/share/man/$page.gz" 2>/dev/null | grep -q '^\.TH ' || missing+=" $page"
	done
	[ -z "$missing" ] || { echo "missing or not a page:$missing"; return 1; }
}
check "the man pages are installed (sections 1, 3, 5, 8)" pages_present
check "bash completion for tlvctl and tlvd" \
	test -f /usr/share/bash-completion/completions/tlvctl -a -e /usr/share/bash-completion/completions/tlvd
libipeh_from_package() {
	local lib owner
	lib=$(ldd /usr/sbin/tlvd | awk '$1 ~ /^libipeh\.so\./ { print $3 }')
	[ -n "$lib" ] || { echo "ldd: tlvd loads no libipeh"; return 1; }
	owner=$(dpkg -S "$(readlink -f "$lib")" 2>&1)
	[[ $owner == libipeh[0-9]*:* ]] || { echo "$lib ($(readlink -f "$lib")): $owner"; return 1; }
}
check "tlvd loads libipeh from the package libipehN" libipeh_from_package

check "systemctl start tlvd" systemctl start tlvd
check "tlvd is running with its runtime directory /run/tlvd" test -d /run/tlvd

# --- purged -----------------------------------------------------------------------
# every file and symlink the packages own; not directories, which may be
# shared (nor /lib, a symlink to usr/lib on Debian 12)
owned=$(mktemp)
for p in "${pkgs[@]}"; do
	dpkg -L "$p" 2>/dev/null
done | while read -r f; do
	[ ! -d "$f" ] && { [ -f "$f" ] || [ -L "$f" ]; } && echo "$f"
done > "$owned"
check "the packages own files ($(wc -l < "$owned") before the purge)" test -s "$owned"
check "dpkg --purge of every package (tlvd running)" dpkg --purge "${pkgs[@]}"

leftovers() {
	local f left=
	while read -r f; do
		[ -e "$f" ] || [ -L "$f" ] && left+=" $f"
	done < "$owned"
	[ -z "$left" ] || { echo "left:$(echo "$left" | cut -c1-200)"; return 1; }
}
check "purged: none of the packages' files is left" leftovers
check "purged: /etc/tlvd.conf is gone" test ! -e /etc/tlvd.conf
none_known() {
	local p s bad=
	for p in "${pkgs[@]}"; do
		s=$(status_of "$p")
		[ -z "$s" ] || [ "$s" = not-installed ] || bad+=" $p ($s)"
	done
	[ -z "$bad" ] || { echo "dpkg still knows:$bad"; return 1; }
}
check "purged: dpkg knows none of the packages (no config-files state)" none_known
check_fails "purged: no tlvd.service unit" systemctl cat tlvd.service
unit_state_gone() {
	local left
	left=$(find /etc/systemd/system /var/lib/systemd/deb-systemd-helper-enabled \
		/var/lib/systemd/deb-systemd-helper-masked -name 'tlvd.service*' 2>/dev/null)
	[ -z "$left" ] || { echo "left: $left"; return 1; }
}
check "purged: no enablement state of tlvd.service" unit_state_gone
check_fails "purged: tlvd was stopped (no tlvd process)" pgrep -x tlvd
check "purged: /run/tlvd is gone" test ! -e /run/tlvd

# --- installed again ----------------------------------------------------------------
check "dpkg -i of the packages again" dpkg -i "${debs[@]}"
check "every package is installed again" all_installed
verify_clean() {
	local out
	out=$(dpkg --verify "${pkgs[@]}" 2>&1)
	[ -z "$out" ] || { echo "$out"; return 1; }
}
check "reinstalled files as shipped (dpkg --verify)" verify_clean
same_out "reinstalled tlvd.service is disabled again" disabled systemctl is-enabled tlvd.service
same_out "reinstalling did not start tlvd" inactive systemctl is-active tlvd.service
# tlvd's shipped "on-stop = keep" left its policy in the kernel's table when
# the purge stopped it (tlvd.conf(5)): runtime state, not a file. Put the
# default back (ipeh-probe needs libipeh, installed again).
table_reset
rm -f "$owned"
