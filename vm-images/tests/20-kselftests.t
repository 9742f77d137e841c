# (g) The kernel's own selftests that touch extension headers, and the one the
# series adds, from the same patched tree, pass unchanged (their scripts and
# lib.sh are copied as they are). No script's exit status is enough alone:
# ioam6.sh exits 0 after "Setup FAILED" and whatever its test count, so each
# is judged by its own result lines as well.
cd /usr/libexec/ipeh/kselftests/net || { not_ok "kernel selftests are staged" "no /usr/libexec/ipeh/kselftests/net"; return 0; }
# They make their own namespaces; ours are not needed.
topo_down

log=$IPEH_RESULTS/$IPEH_TEST-ioam6.log
timeout 900 bash ./ioam6.sh > "$log" 2>&1
rc=$?
passed=$(sed -n 's/^- Tests passed: \([0-9]*\)$/\1/p' "$log" | tail -n 1)
failed=$(sed -n 's/^- Tests failed: \([0-9]*\)$/\1/p' "$log" | tail -n 1)
nok=$(grep -c '^TEST: .*\[ OK \]$' "$log")
nfail=$(grep -c '^TEST: .*\[FAIL\]$' "$log")
if [ "$rc" = 0 ] && [ "${passed:-0}" -gt 0 ] && [ "$failed" = 0 ] && [ "$nfail" = 0 ] &&
	[ "$nok" = "$passed" ] && ! grep -q 'Setup FAILED' "$log"; then
	ok "selftests/net/ioam6.sh: $passed tests passed, 0 failed"
else
	not_ok "selftests/net/ioam6.sh: every test passed" \
		"exit $rc, passed '${passed:-none}', failed '${failed:-none}', $nok OK and $nfail FAIL lines: $(grep -E 'FAIL|SKIP' "$log" | head -n 3 | tr '\n' ' ')"
fi

log=$IPEH_RESULTS/$IPEH_TEST-cmsg_ipv6.log
timeout 900 bash ./cmsg_ipv6.sh > "$log" 2>&1
rc=$?
bad=$(grep -c '^  Case .* returned' "$log")
if [ "$rc" = 0 ] && [ "$(tail -n 1 "$log")" = OK ] && [ "$bad" = 0 ]; then
	ok "selftests/net/cmsg_ipv6.sh: every case passed (its last line is OK)"
else
	not_ok "selftests/net/cmsg_ipv6.sh: every case passed" \
		"exit $rc, last line '$(tail -n 1 "$log")', $bad failed cases: $(grep -E 'FAIL|Case|SKIP' "$log" | head -n 3 | tr '\n' ' ')"
fi

# The series' own (patch 21): the ipeh-tlv family and what unprivileged users
# may send, in namespaces of its own. lib.sh's "TEST: ... [ OK ]" line per test,
# then its counts; it exits 4 (SKIP) without the family, 1 if a test failed.
log=$IPEH_RESULTS/$IPEH_TEST-ipeh_tlv.log
timeout 900 bash ./ipeh_tlv.sh > "$log" 2>&1
rc=$?
passed=$(sed -n 's/^Tests passed: \([0-9]*\)$/\1/p' "$log" | tail -n 1)
failed=$(sed -n 's/^Tests failed: \([0-9]*\)$/\1/p' "$log" | tail -n 1)
nok=$(grep -c '^TEST: .*\[ OK \]$' "$log")
nfail=$(grep -c '^TEST: .*\[FAIL\]$' "$log")
ntest=$(grep -c '^TEST: ' "$log")
if [ "$rc" = 0 ] && [ "${passed:-0}" -gt 0 ] && [ "$failed" = 0 ] && [ "$nfail" = 0 ] &&
	[ "$nok" = "$passed" ] && [ "$ntest" = "$nok" ]; then
	ok "selftests/net/ipeh_tlv.sh: $passed tests passed, 0 failed"
else
	not_ok "selftests/net/ipeh_tlv.sh: every test passed" \
		"exit $rc, passed '${passed:-none}', failed '${failed:-none}', $nok OK and $nfail FAIL of $ntest TEST lines: $(grep -E 'FAIL|SKIP|expected' "$log" | head -n 3 | tr '\n' ' ')"
fi
