# (g) The kernel's own selftests that touch extension headers, from the same
# patched tree, pass unchanged (their scripts and lib.sh are copied as they are).
cd /usr/libexec/ipeh/kselftests/net || { not_ok "kernel selftests are staged" "no /usr/libexec/ipeh/kselftests/net"; exit 0; }
# They make their own namespaces; ours are not needed.
topo_down
for t in ioam6.sh cmsg_ipv6.sh; do
	log=$IPEH_RESULTS/$IPEH_TEST-${t%.sh}.log
	timeout 900 bash "./$t" > "$log" 2>&1
	rc=$?
	case $rc in
	0) ok "selftests/net/$t passes ($(grep -ciE 'ok|pass' "$log") ok lines)" ;;
	4) not_ok "selftests/net/$t passes" "it skipped itself: $(grep -m1 -i skip "$log")" ;;
	*) not_ok "selftests/net/$t passes" "exit $rc: $(grep -iE 'fail|returned' "$log" | head -n 3 | tr '\n' ' ')" ;;
	esac
done
