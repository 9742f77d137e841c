#!/bin/bash
# Runs at every guest boot (ipeh-guest.service): installs the project's Debian
# packages and the test programs the host staged, then does what the
# host asked on the kernel command line with ipeh.mode=test|demo|kbench|interop|shell
# (ipeh.only=GLOB: only these tests; ipeh.stock=1: the kernel is stock 6.12,
# without the series: only the tests marked to run on stock; ipeh.nomip6=1:
# the kernel has no CONFIG_IPV6_MIP6; ipeh.debug=1: the debug kernel, which
# runs the tests marked "# ipeh: debug pass only"; ipeh.churn=SECONDS: how
# long 55-churn churns, ipeh.churn_corrupt=N: its senders corrupt every Nth
# copy of what they sent, to see its checks fail; ipeh.kfuzz=SECONDS: how
# long 56-kfuzz fuzzes each target).
set -u

mode=shell
only=
stock=0
nomip6=0
debug=0
churn=
churn_corrupt=
kfuzz=
read -ra words < /proc/cmdline
for word in "${words[@]}"; do
	case "$word" in
	ipeh.mode=*) mode=${word#ipeh.mode=} ;;
	ipeh.only=*) only=${word#ipeh.only=} ;;
	ipeh.stock=1) stock=1 ;;
	ipeh.nomip6=1) nomip6=1 ;;
	ipeh.debug=1) debug=1 ;;
	ipeh.churn=*) churn=${word#ipeh.churn=} ;;
	ipeh.churn_corrupt=*) churn_corrupt=${word#ipeh.churn_corrupt=} ;;
	ipeh.kfuzz=*) kfuzz=${word#ipeh.kfuzz=} ;;
	esac
done

say() { echo "IPEH-GUEST: $*"; }

# The booted kernel's modules (make modules_install on the host, shared by
# run-qemu.sh --modules as ipehmod) are /lib/modules, read-only: modprobe,
# rmmod and the kernel's autoloading (request_module) find them there. The
# image has no kernel, so nothing of its own is hidden by the mount.
if [ -e /proc/modules ]; then
	mkdir -p /lib/modules
	if ! out=$(mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144 ipehmod /lib/modules 2>&1); then
		say "the kernel has modules but there is no modules share ipehmod: $out"
	elif [ ! -s "/lib/modules/$(uname -r)/modules.dep" ]; then
		say "the modules share has no modules.dep for $(uname -r) (it has: $(find /lib/modules -mindepth 1 -maxdepth 1 -printf '%f '))"
	else
		say "modules of $(uname -r): $(wc -l < "/lib/modules/$(uname -r)/modules.order") in /lib/modules"
	fi
fi

# The userspace as a user installs it: the host's Debian packages (./dev
# build stages the user packages in /ipeh/stage/debs). The root disk is a
# snapshot, so every boot starts from the image without them (dpkg -i takes
# about 15 s under TCG; the line below says how long it took).
if compgen -G '/ipeh/stage/debs/*.deb' > /dev/null; then
	t0=$SECONDS
	if ! dpkg -i /ipeh/stage/debs/*.deb > /run/ipeh-dpkg.log 2>&1; then
		say "dpkg -i of the staged packages FAILED: $(tail -n 3 /run/ipeh-dpkg.log | tr '\n' ' ')"
	fi
	say "installed $(cd /ipeh/stage/debs && echo *.deb) in $((SECONDS - t0)) s ($(cat /ipeh/stage/build-id 2>/dev/null || echo unknown))"
else
	say "no packages under /ipeh/stage/debs (shares missing?)"
fi
# Programs only the tests use (never in a package): copied as they are.
if [ -d /ipeh/stage/tests ]; then
	# tar, not cp: /lib, /bin and /sbin are symlinks into /usr on Debian 12
	# and must stay so (cp -a refuses to put a directory over them)
	if ! tar -C /ipeh/stage/tests -cf - . | tar -C / -xf - --keep-directory-symlink; then
		say "installing the staged test programs FAILED"
	fi
fi

finish() {
	sync
	say "done, rebooting (qemu exits)"
	# -no-reboot on the qemu side turns the reboot into a clean exit
	systemctl reboot --force --force
}

case "$mode" in
test)
	IPEH_ONLY=$only IPEH_STOCK=$stock IPEH_NOMIP6=$nomip6 IPEH_DEBUG=$debug \
		IPEH_CHURN_SECONDS=$churn IPEH_CHURN_CORRUPT=$churn_corrupt \
		IPEH_KFUZZ_SECONDS=$kfuzz \
		/ipeh/src/vm-images/guest/run-tests
	finish
	;;
demo)
	/ipeh/src/vm-images/guest/run-demo
	finish
	;;
kbench)
	/ipeh/src/vm-images/guest/run-kbench
	finish
	;;
interop)
	# one node of ./dev interop (ipeh.role=P1|S1|P2|S2)
	/ipeh/src/vm-images/guest/run-interop
	finish
	;;
shell)
	say "shell mode: log in on the console (root, no password); 'reboot' ends the session"
	;;
*)
	say "unknown ipeh.mode=$mode"
	finish
	;;
esac
exit 0
