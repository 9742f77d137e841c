#!/usr/bin/env bash
# Boot the ipeh guest under QEMU (TCG) and collect what it did.
#
#   run-qemu.sh --mode test|demo|kbench|interop|shell --kernel BZIMAGE --image ROOTFS.img \
#               --src REPO --stage STAGEDIR --results OUTDIR \
#               [--modules MODDIR] [--cmdline 'extra kernel args'] [--timeout SECONDS]
#               [--interactive] [--icount] [--net 'QEMU ARGS']
#
# --modules: the kernel's modules as `make modules_install INSTALL_MOD_PATH=MODDIR`
# put them; MODDIR/lib/modules is shared read-only (9p tag ipehmod) and the
# guest mounts it on /lib/modules (guest/boot.sh). Left out when MODDIR has
# no lib/modules (a kernel without CONFIG_MODULES).
#
# --icount: QEMU's -icount shift=3, guest time counts instructions (8 ns
# each), for kernel benchmarks (mode kbench).
#
# --net: QEMU arguments for the guest's network devices (-netdev ... -device
# ...), split on spaces; ./dev interop (vm-images/run-interop.sh) joins its
# guests with them. Without it the guest has no network device.
#
# Non-interactive runs write OUTDIR/console.log, and OUTDIR/all-results.txt with
# one line per result ("ok NAME", "not ok NAME", "skip NAME -- why"): KUnit cases
# parsed from the console's TAP, kernel splats (panic, Oops, BUG, WARN, KASAN,
# UBSAN, lockdep, RCU), and the guest's own e2e results. The guest has no network
# device to the outside (-nic none): its only links are veths inside it.
set -euo pipefail

mode='' kernel='' image='' src='' stage='' results='' modules='' cmdline='' timeout='' interactive=0 icount=0 net=''
while [ $# -gt 0 ]; do
	case "$1" in
	--mode) mode=$2; shift ;;
	--kernel) kernel=$2; shift ;;
	--image) image=$2; shift ;;
	--src) src=$2; shift ;;
	--stage) stage=$2; shift ;;
	--results) results=$2; shift ;;
	--modules) modules=$2; shift ;;
	--cmdline) cmdline=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--interactive) interactive=1 ;;
	--icount) icount=1 ;;
	--net) net=$2; shift ;;
	*) echo "run-qemu: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
for v in mode kernel image src stage results; do
	[ -n "${!v}" ] || { echo "run-qemu: --$v is required" >&2; exit 2; }
done
[ -f "$kernel" ] || { echo "run-qemu: no kernel at $kernel" >&2; exit 2; }
[ -f "$image" ] || { echo "run-qemu: no image at $image" >&2; exit 2; }
case "$mode" in
test) : "${timeout:=1500}" ;;	# ./dev passes its own per kernel (variant_timeout)
demo | kbench) : "${timeout:=1200}" ;;
interop) : "${timeout:=900}" ;;
*) : "${timeout:=0}" ;;
esac
mkdir -p "$results"
results=$(cd "$results" && pwd)

# KVM hangs on these machines: always TCG. The root disk is opened with
# snapshot=on, so a guest never changes the cached image.
qemu=(qemu-system-x86_64 -accel tcg -cpu max -m 2048 -smp 1 -no-reboot
	-kernel "$kernel"
	-append "console=ttyS0,115200 root=/dev/vda rw panic=-1 oops=panic ipeh.mode=$mode $cmdline"
	-drive "file=$image,format=raw,if=virtio,snapshot=on"
	-virtfs "local,path=$src,mount_tag=ipehsrc,security_model=none,readonly=on,id=src"
	-virtfs "local,path=$stage,mount_tag=ipehstage,security_model=none,readonly=on,id=stage"
	-virtfs "local,path=$results,mount_tag=ipehres,security_model=none,id=res"
	-nic none -display none -device virtio-rng-pci)
[ "$icount" -eq 0 ] || qemu+=(-icount shift=3)
if [ -n "$net" ]; then
	read -ra netargs <<< "$net"
	qemu+=("${netargs[@]}")
fi
if [ -n "$modules" ] && [ -d "$modules/lib/modules" ]; then
	qemu+=(-virtfs "local,path=$modules/lib/modules,mount_tag=ipehmod,security_model=none,readonly=on,id=mod")
fi

if [ "$interactive" -eq 1 ]; then
	exec "${qemu[@]}" -serial mon:stdio
fi

console=$results/console.log
: > "$console"
"${qemu[@]}" -serial "file:$console" -monitor none < /dev/null > "$results/qemu.log" 2>&1 &
qpid=$!
# ended (./dev test ends a guest it runs in the background when it stops
# early): end the guest too
trap 'kill "$qpid" 2>/dev/null; exit 143' TERM INT
t0=$(date +%s)
shown=0
timed_out=0
show_progress() {
	# guest progress lines, as they arrive
	local n
	n=$(wc -l < "$console")
	if [ "$n" -gt "$shown" ]; then
		sed -n "$((shown + 1)),${n}p" "$console" | tr -d '\r' |
			grep -aoE 'IPEH-(GUEST|DEMO|RESULT): .*' | sed 's/^IPEH-[A-Z]*: /    guest: /' >&2 || true
		shown=$n
	fi
}
while kill -0 "$qpid" 2>/dev/null; do
	sleep 2
	show_progress
	if [ "$timeout" -gt 0 ] && [ $(($(date +%s) - t0)) -ge "$timeout" ]; then
		echo "run-qemu: guest still running after ${timeout}s: killing qemu (pid $qpid)" >&2
		kill "$qpid" 2>/dev/null || true
		sleep 2
		kill -9 "$qpid" 2>/dev/null || true
		timed_out=1
		break
	fi
done
wait "$qpid" 2>/dev/null || true
show_progress
echo "    guest ran $(($(date +%s) - t0))s (TCG)" >&2

all=$results/all-results.txt
: > "$all"
# Kernel lines carry a printk timestamp: strip it, keep the rest.
tr -d '\r' < "$console" | sed -n 's/^\[ *[0-9]*\.[0-9]*\] //p' > "$results/kernel.log"

# KUnit TAP: cases are the result lines one level below a top-level suite.
awk '
	/^    # Subtest: / { suite = substr($0, 16); next }
	/^    (not )?ok [0-9]+ / {
		line = substr($0, 5)
		status = "ok"
		if (line ~ /^not ok/) { status = "not ok"; line = substr(line, 8) } else { line = substr(line, 4) }
		sub(/^[0-9]+ /, "", line)
		name = line; reason = ""
		if (index(line, " # SKIP")) {
			name = substr(line, 1, index(line, " # SKIP") - 1)
			reason = substr(line, index(line, " # SKIP") + 7)
			sub(/^ */, "", reason)
			if (reason == "") reason = "skipped by KUnit"
			print "skip kunit: " suite "." name " -- " reason
			next
		}
		print status " kunit: " suite "." name
	}' "$results/kernel.log" >> "$all"

# A built-in KUnit suite that printed nothing is a failure, not a pass; so is
# every case of vm-images/kunit-cases.txt that reported no result, and a
# patched tree (net/ipv6/exthdrs_kunit.c) that defines other cases than it.
kbuild=$(dirname "$kernel")/../../..
if grep -q '^CONFIG_KUNIT=y' "$kbuild/.config" 2>/dev/null &&
	grep -qE '^CONFIG_[A-Z0-9_]*KUNIT_TEST=y' "$kbuild/.config" &&
	[ "$mode" = test ] && ! grep -q 'kunit.enable=0' <<< "$cmdline"; then
	if ! grep -q ' kunit: ' "$all"; then
		echo "not ok kunit: KUnit suites are built in but no TAP result reached the console" >> "$all"
	fi
	if grep -q '^CONFIG_IPV6_EXTHDRS_KUNIT_TEST=y' "$kbuild/.config"; then
		# the cases the patched tree defines must be the pinned list, and
		# each must report a result
		pinned=$(dirname "$0")/kunit-cases.txt
		if ! "$(dirname "$0")/kunit-expected.sh" "$kbuild/../src/net/ipv6/exthdrs_kunit.c" > "$results/kunit-expected.txt"; then
			echo "not ok kunit: the list of the series' KUnit cases could not be read from exthdrs_kunit.c" >> "$all"
		elif ! grep -v '^#' "$pinned" | diff - "$results/kunit-expected.txt" > "$results/kunit-cases.diff"; then
			echo "not ok kunit: the series defines other KUnit cases than vm-images/kunit-cases.txt: $(grep '^[<>]' "$results/kunit-cases.diff" | head -n 4 | tr '\n' ' ')" >> "$all"
		fi
		while read -r case; do
			grep -qE "^(ok|not ok|skip) kunit: ${case//./\\.}( |$)" "$all" ||
				echo "not ok kunit: $case defined by the series but reported no result" >> "$all"
		done < <(grep -v '^#' "$pinned")
	fi
fi

# Kernel splats anywhere on the console fail the run, with the report shown.
# The kernel's own report headers (as syzkaller and kselftest's dmesg checks
# look for them): panics, Oops, BUG and WARNING (lockdep's reports start with
# one), KASAN/KFENCE/UBSAN/kmemleak, RCU stalls, hung tasks, soft lockups,
# lockdep's non-static key report (an INFO, not a WARNING) and SLUB's object
# reports ("BUG kmalloc-64 (Tainted: …): Redzone overwritten").
if grep -nE '^(Kernel panic|Oops|BUG: |WARNING: |kernel BUG at|general protection fault|KASAN|KFENCE: |UBSAN: |kmemleak: [0-9]+ new suspected|INFO: task .* blocked|INFO: rcu_|rcu: INFO: |rcu: .*detected stalls|INFO: trying to register non-static key|BUG [^ ]+ \((Not tainted|Tainted)|watchdog: BUG|Unable to handle kernel|divide error: |invalid opcode: |stack segment: |refcount_t: |list_(add|del) corruption|RTNL: assertion failed|unregister_netdevice: waiting for)' \
	"$results/kernel.log" > "$results/splats.txt"; then
	first=$(head -n 1 "$results/splats.txt" | cut -d: -f2- | cut -c1-120)
	echo "not ok kernel: no panic/Oops/BUG/WARN/KASAN/lockdep report on the console -- $first" >> "$all"
	line=$(head -n 1 "$results/splats.txt" | cut -d: -f1)
	{
		echo "---- kernel report (kernel.log line $line) ----"
		sed -n "$((line > 5 ? line - 5 : 1)),$((line + 40))p" "$results/kernel.log"
		echo "----"
	} >&2
elif [ "$mode" = test ] || [ "$mode" = interop ]; then
	echo "ok kernel: no panic/Oops/BUG/WARN/KASAN/lockdep report on the console" >> "$all"
fi

if [ -f "$results/results.txt" ]; then
	cat "$results/results.txt" >> "$all"
fi
if [ "$mode" = test ]; then
	if tr -d '\r' < "$console" | grep -q 'IPEH-GUEST: tests finished'; then
		echo "ok guest: e2e runner finished" >> "$all"
	elif [ "$timed_out" -eq 1 ]; then
		echo "not ok guest: e2e runner finished -- killed after ${timeout}s (see $console)" >> "$all"
	else
		echo "not ok guest: e2e runner finished -- guest stopped early (see $console)" >> "$all"
		tr -d '\r' < "$console" | tail -n 30 >&2
	fi
fi
if [ "$mode" = interop ]; then
	if tr -d '\r' < "$console" | grep -q 'IPEH-GUEST: interop role finished'; then
		echo "ok guest: interop role finished" >> "$all"
	else
		echo "not ok guest: interop role finished -- $([ "$timed_out" -eq 1 ] && echo "killed after ${timeout}s" || echo "guest stopped early") (see $console)" >> "$all"
	fi
fi
[ "$timed_out" -eq 0 ]
