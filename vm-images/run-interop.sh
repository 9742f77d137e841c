#!/usr/bin/env bash
# Mixed kernels on one path (./dev interop): four QEMU guests in a chain, each
# with its own kernel, joined by QEMU dgram links (UDP on 127.0.0.1):
#
#   P1 (series) --L1-- S1 (stock) --L2-- P2 (series) --L3-- S2 (stock)
#
#   run-interop.sh --series KDIR --stock KDIR --image ROOTFS.img --src REPO
#                  --stage STAGEDIR --results OUTDIR --work DIR [--break WORDS]
#
# KDIR: a kernel tree of ./dev kernel (KDIR/build/arch/x86/boot/bzImage and
# KDIR/modules). The test kernels have no network driver (their guests use
# veths only), so virtio_net and the failover modules it needs are built
# from the tree's own sources as external modules into DIR (a few seconds;
# nothing in KDIR is written) and shared with the guest beside the tree's
# modules. What each node does is in guest/run-interop.
# Writes OUTDIR/NODE/ (console.log, results of each guest), OUTDIR/pcap/
# (every link end, QEMU's filter-dump) and OUTDIR/all-results.txt: one line
# "ok|not ok interop: ..." per check, including each guest's kernel splat
# check and whether its role finished. Exit status 0 when every guest ran to
# its end (the results say whether the checks passed).
set -euo pipefail

series="" stock="" image="" src="" stage="" results="" work="" brk=""
while [ $# -gt 0 ]; do
	case "$1" in
	--series) series=$2; shift ;;
	--stock) stock=$2; shift ;;
	--image) image=$2; shift ;;
	--src) src=$2; shift ;;
	--stage) stage=$2; shift ;;
	--results) results=$2; shift ;;
	--work) work=$2; shift ;;
	--break) brk=$2; shift ;;
	*) echo "run-interop: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
for v in series stock image src stage results work; do
	[ -n "${!v}" ] || { echo "run-interop: --$v is required" >&2; exit 2; }
done
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$results/pcap" "$work"
results=$(cd "$results" && pwd)

# modules KDIR: DIR/<tree>/lib/modules/RELEASE = the tree's modules plus
# virtio_net, net_failover and failover (extra/), depmod run; prints DIR/<tree>
modules() {
	local kdir=$1 rel m d mod
	rel=$(cat "$kdir/kernel-release")
	d=$work/$(basename "$kdir")
	m=$d/lib/modules/$rel
	if [ -s "$m/extra/virtio_net.ko" ] && [ "$m/extra/virtio_net.ko" -nt "$kdir/build/vmlinux" ]; then
		echo "$d"
		return
	fi
	rm -rf "$d" "$d.src"
	mkdir -p "$d.src" "$d/lib/modules"
	cp "$kdir/src/drivers/net/virtio_net.c" "$kdir/src/drivers/net/net_failover.c" \
		"$kdir/src/net/core/failover.c" "$d.src/"
	echo 'obj-m += failover.o net_failover.o virtio_net.o' > "$d.src/Kbuild"
	if ! make -C "$kdir/src" O="$kdir/build" M="$d.src" -j"$(nproc)" modules > "$d.build.log" 2>&1; then
		tail -n 20 "$d.build.log" >&2
		echo "run-interop: building virtio_net for $(basename "$kdir") failed (log: $d.build.log)" >&2
		return 1
	fi
	cp -a "$kdir/modules/lib/modules/$rel" "$m"
	rm -f "$m/build" "$m/source"
	mkdir -p "$m/extra"
	for mod in failover net_failover virtio_net; do
		strip --strip-debug -o "$m/extra/$mod.ko" "$d.src/$mod.ko"
	done
	depmod -b "$d" "$rel"
	echo "$d"
}
series_mods=$(modules "$series")
stock_mods=$(modules "$stock")

# six free UDP ports on 127.0.0.1, two per link
ports=()
for _ in $(seq 20); do
	base=$((20000 + RANDOM % 40000))
	ports=()
	for i in 0 1 2 3 4 5; do
		ss -Hlun "sport = :$((base + i))" | grep -q . && continue 2
		ports+=($((base + i)))
	done
	break
done
[ ${#ports[@]} -eq 6 ] || { echo "run-interop: no six free UDP ports found" >&2; exit 1; }

# end NODE LINK: one end of a link, QEMU arguments (node NN, link LL: MAC
# 52:54:00:1f:LL:NN, the guest finds its NICs by it); the left node of
# link L listens on ports[2L-2], the right one on ports[2L-1]
declare -A NODE_NO=([P1]=1 [S1]=2 [P2]=3 [S2]=4)
end() {
	local node=$1 link=$2 n=${NODE_NO[$1]} me peer
	if [ "$n" -eq "$link" ]; then
		me=${ports[2 * link - 2]} peer=${ports[2 * link - 1]}
	else
		me=${ports[2 * link - 1]} peer=${ports[2 * link - 2]}
	fi
	echo "-netdev dgram,id=l$link,local.type=inet,local.host=127.0.0.1,local.port=$me,remote.type=inet,remote.host=127.0.0.1,remote.port=$peer" \
		"-device virtio-net-pci,netdev=l$link,mac=52:54:00:1f:0$link:0$n" \
		"-object filter-dump,id=d$link,netdev=l$link,file=$results/pcap/$node-L$link.pcap"
}

pids=()
# shellcheck disable=SC2317 # run by the trap
stop_all() {
	local p
	for p in "${pids[@]}"; do
		kill -TERM "$p" 2>/dev/null || true
	done
}
trap 'stop_all; exit 143' TERM INT

echo "    interop: links on 127.0.0.1 UDP ports ${ports[*]}; break: ${brk:-none}" >&2
for node in P1 S1 P2 S2; do
	case $node in
	P1) kdir=$series mods=$series_mods net="$(end P1 1)" ;;
	S1) kdir=$stock mods=$stock_mods net="$(end S1 1) $(end S1 2)" ;;
	P2) kdir=$series mods=$series_mods net="$(end P2 2) $(end P2 3)" ;;
	S2) kdir=$stock mods=$stock_mods net="$(end S2 3)" ;;
	esac
	mkdir -p "$results/$node"
	"$here/run-qemu.sh" --mode interop --kernel "$kdir/build/arch/x86/boot/bzImage" \
		--modules "$mods" --image "$image" --src "$src" --stage "$stage" \
		--results "$results/$node" --net "$net" \
		--cmdline "kunit.enable=0 ipeh.role=$node${brk:+ ipeh.break=$brk}" \
		${IPEH_VM_TIMEOUT:+--timeout "$IPEH_VM_TIMEOUT"} \
		> "$results/$node/progress.log" 2>&1 &
	pids+=($!)
done

rc=0
all=$results/all-results.txt
: > "$all"
i=0
for node in P1 S1 P2 S2; do
	r=0
	wait "${pids[$i]}" || r=$?
	i=$((i + 1))
	grep -E '^    guest ran|run-qemu:' "$results/$node/progress.log" | sed "s/^ */    $node: /" >&2 || true
	# the guest's own lines are "interop: ..."; the runner's (kernel
	# splats, role finished) get the node's name
	sed -E "/^(ok|not ok|skip) interop: /! s/^(ok|not ok|skip) /\1 interop: $node /" \
		"$results/$node/all-results.txt" >> "$all" 2>/dev/null || true
	if [ "$r" -ne 0 ]; then
		echo "not ok interop: $node guest run (runner exit $r; see $node/console.log)" >> "$all"
		rc=1
	fi
done
trap - TERM INT

# The wire, decoded by tshark (Wireshark's dissectors, independent of ipeh):
# the PMTU option of the requests to port 5001 as each link carried them.
# pmtu_wire NAME PCAP SRC WANT: every request from SRC has Min-PMTU WANT
pmtu_wire() {
	local vals n other
	if ! vals=$(tshark -n -r "$results/pcap/$2" -Y "!icmpv6 && udp.dstport == 5001 && ipv6.src == $3 && ipv6.opt.pmtu.min" \
		-T fields -e ipv6.opt.pmtu.min 2> "$results/pcap/tshark.err"); then
		echo "not ok interop: wire: $1 -- tshark failed: $(grep -v '^Running as user' "$results/pcap/tshark.err" | head -n 2 | tr '\n' ' ')"
		return
	fi
	n=$(grep -c . <<< "$vals" || true)
	other=$(grep -cvx "$4" <<< "$vals" || true)
	if [ "$n" -ge 3 ] && [ "$other" = 0 ]; then
		echo "ok interop: wire: $1"
	else
		echo "not ok interop: wire: $1 -- $n requests with the option, $other not $4: $(sort -u <<< "$vals" | tr '\n' ' ')"
	fi
}
{
	pmtu_wire "A: P1's requests leave stock S1 for P2 with Min-PMTU 1500 (tshark, S1-L2.pcap)" S1-L2.pcap 2001:db8:1::1 1500
	pmtu_wire "B: S1's requests reach P2 with Min-PMTU 1450 (tshark, S1-L2.pcap)" S1-L2.pcap 2001:db8:2::1 1450
	pmtu_wire "B: P2 forwards them to S2 with Min-PMTU 1400 (tshark, P2-L3.pcap)" P2-L3.pcap 2001:db8:2::1 1400
} >> "$all"
exit "$rc"
