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
exit 0
