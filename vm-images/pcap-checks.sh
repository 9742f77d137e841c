#!/usr/bin/env bash
# Captures of a guest run decoded on the host by tshark (Wireshark's
# dissectors, independent of ipeh), one result per line, named after the
# guest test that made the capture. Run by `./dev test` after the guest.
#   pcap-checks.sh OUTDIR [PREFIX]
# PREFIX ("debug: ", ...) is put before each result name, as the pass's own.
set -u
out=$1 prefix=${2:-}

# 41-pmtu-router: the router -> receiver capture of the run with ip6_pmtu_opt
# loaded and net.ipv6.pmtu_option_update=1 on the router. pmtu-sender sent
# Min-PMTU 1500 (its link), Rtn-PMTU 0 and R set; the router's egress link (r1) has MTU 1400.
if grep -q '^[a-z ]*ok 41-pmtu-router: ' "$out/all-results.txt" 2>/dev/null; then
	name="41-pmtu-router: tshark decodes Min-PMTU 1400 in every sender -> receiver packet of the lowered run (router -> receiver capture)"
	f=$out/pcap/41-pmtu-router-pmtu-lowered.pcap
	if [ ! -s "$f" ]; then
		echo "not ok $prefix$name -- no capture $f"
	elif ! vals=$(tshark -n -r "$f" -Y 'udp.dstport == 5001 && ipv6.opt.pmtu.min' \
		-T fields -e ipv6.opt.pmtu.min -e ipv6.opt.pmtu.rtn -e ipv6.opt.pmtu.r_flag 2> "$out/pcap-checks.tshark.err"); then
		echo "not ok $prefix$name -- tshark failed: $(grep -v '^Running as user' "$out/pcap-checks.tshark.err" | head -n 2 | tr '\n' ' ')"
	else
		n=$(grep -c . <<< "$vals")
		other=$(grep -cvP '^1400\t0\t(1|True)$' <<< "$vals")
		if [ "$n" -ge 3 ] && [ "$other" = 0 ]; then
			echo "ok $prefix$name"
		else
			echo "not ok $prefix$name -- $n packets with the option, $other not 'Min 1400, Rtn 0, R 1': $(sort -u <<< "$vals" | head -n 3 | tr '\t\n' ', ')"
		fi
	fi
fi
# 50-hostile-packets: the RFC 8883 cases (patch 16, series only) answer with
# ICMPv6 Parameter Problem codes 6, 9 and 10; the sender -> router capture
# holds the router's answers (Hop-by-Hop) and the receiver's (Destination).
# Every (source, code, pointer) seen must be one the test expects, and each
# expected one must be seen: none to ff02::1 or about an ICMPv6 error.
if grep -q '^[a-z ]*ok 50-hostile-packets: RFC 8883: ' "$out/all-results.txt" 2>/dev/null; then
	name="50-hostile-packets: tshark decodes the RFC 8883 Parameter Problems, codes and pointers (sender -> router capture)"
	f=$out/pcap/50-hostile-packets-sender-router.pcap
	want="2001:db8:1::2 10 42
2001:db8:1::2 10 49
2001:db8:1::2 6 48
2001:db8:1::2 9 46
2001:db8:1::2 9 50
2001:db8:2::1 10 42
2001:db8:2::1 10 49
2001:db8:2::1 6 48
2001:db8:2::1 9 46
2001:db8:2::1 9 50"
	if [ ! -s "$f" ]; then
		echo "not ok $prefix$name -- no capture $f"
	elif ! vals=$(tshark -n -r "$f" -Y 'icmpv6.type == 4 && icmpv6.code >= 4' \
		-T fields -E occurrence=f -e ipv6.src -e icmpv6.code -e icmpv6.pointer \
		2> "$out/pcap-checks.tshark.err"); then
		echo "not ok $prefix$name -- tshark failed: $(grep -v '^Running as user' "$out/pcap-checks.tshark.err" | head -n 2 | tr '\n' ' ')"
	else
		got=$(tr '\t' ' ' <<< "$vals" | LC_ALL=C sort -u)
		if [ "$got" = "$want" ]; then
			echo "ok $prefix$name"
		else
			echo "not ok $prefix$name -- $(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | head -n 4 | tr '\n' ' ')"
		fi
	fi
fi
exit 0
