# ipeh: debug pass only
# Run by the debug pass of ./dev test (30 s per target) and, for longer, by
# ./dev kfuzz [SECONDS], on the debug kernel, which has KCOV
# (kernel/config/debug.config).
#
# Coverage-guided fuzzing of the series' kernel surface with ipeh-kfuzz
# (fuzz/README.md, "Kernel fuzzing"): for each target (nl: the ipeh-tlv
# family; opt: option headers through setsockopt()/sendmsg(), as root and
# as uid 1000), the repository's corpus is replayed once, then fuzzed for
# IPEH_KFUZZ_SECONDS (default 30). ipeh-kfuzz works in a network namespace
# of its own, so the host's table and sysctls are not touched. Bugs are
# reported by the kernel (KASAN, lockdep, UBSAN ...: the runner fails on any
# splat); ipeh-kfuzz also fails on a change of /proc/sys/kernel/tainted
# (exit 3, the input saved as crash-*). What the fuzzing found new is left
# in $IPEH_RESULTS/kfuzz/TARGET/ for the host to keep, and the kernel PCs
# the target reached in $IPEH_RESULTS/kfuzz/TARGET-pcs.txt (./dev kfuzz maps
# them onto the series' functions with vm-images/kfuzz-report.sh).

SECS=${IPEH_KFUZZ_SECONDS:-30}
KFUZZ=/usr/libexec/ipeh/ipeh-kfuzz
W=$(mktemp -d /run/ipeh-56.XXXXXX)
mounted_debugfs=0
kfuzz_cleanup() {
	[ "$mounted_debugfs" = 1 ] && umount /sys/kernel/debug
	rm -rf "$W"
}
trap 'kfuzz_cleanup; _ipeh_test_end' EXIT

# debugfs is where KCOV lives; systemd usually has it mounted already
if ! mountpoint -q /sys/kernel/debug && mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null; then
	mounted_debugfs=1
fi

# kfuzz_line FILE WHAT: the last stats line WHAT ("replay" or "done") of FILE
kfuzz_line() { grep "^kfuzz [a-z]* $2:" "$1" | tail -n 1; }

if [ ! -e /sys/kernel/debug/kcov ]; then
	not_ok "kernel fuzzing" "no /sys/kernel/debug/kcov: this kernel has no CONFIG_KCOV (kernel/config/debug.config has it)"
elif [ ! -x "$KFUZZ" ]; then
	not_ok "kernel fuzzing" "$KFUZZ is not installed"
else
	for t in nl opt; do
		mkdir -p "$W/$t" "$IPEH_RESULTS/kfuzz/$t"
		cp "$IPEH_SRC/fuzz/kcorpus/$t/"* "$W/$t/"
		find "$W/$t" -maxdepth 1 -type f -printf "%f\n" | sort > "$W/$t.before"

		"$KFUZZ" "$t" --corpus "$W/$t" --replay > "$W/$t-replay.log" 2>&1
		rc=$?
		if [ $rc = 0 ]; then
			ok "$t: the corpus replays ($(kfuzz_line "$W/$t-replay.log" replay))"
		else
			not_ok "$t: the corpus replays" "exit $rc: $(tail -n 3 "$W/$t-replay.log" | tr '\n' ' ')"
		fi

		"$KFUZZ" "$t" --corpus "$W/$t" --seconds "$SECS" --seed "$RANDOM" \
			--pcs "$IPEH_RESULTS/kfuzz/$t-pcs.txt" > "$W/$t-fuzz.log" 2>&1
		rc=$?
		line=$(kfuzz_line "$W/$t-fuzz.log" "done")
		if [ $rc = 0 ] && [ -n "$line" ]; then
			ok "$t: fuzzed $SECS s without a finding ($line)"
		else
			not_ok "$t: fuzzed $SECS s without a finding" \
				"exit $rc: $(grep -m 3 -e FINDING -e 'ipeh-kfuzz:' "$W/$t-fuzz.log" | tr '\n' ' ') $(tail -n 1 "$W/$t-fuzz.log")"
		fi
		cp "$W/$t-replay.log" "$W/$t-fuzz.log" "$IPEH_RESULTS/kfuzz/"
		# the inputs the run added (and any crash-*), for the host to keep
		find "$W/$t" -maxdepth 1 -type f -printf "%f\n" | sort | comm -13 "$W/$t.before" - | while read -r f; do
			cp "$W/$t/$f" "$IPEH_RESULTS/kfuzz/$t/"
		done
	done
fi
