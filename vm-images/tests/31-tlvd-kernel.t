# ipeh: runs on stock
# `systemctl start tlvd` on either kernel. With the series it runs; on stock
# 6.12 there is no ipeh-tlv family: tlvd must fail at once with exit status 1,
# say why, and systemd must not restart it (RestartPreventExitStatus=1), so
# that a host booted into a kernel without the series is told, not flooded.
since=$(date '+%Y-%m-%d %H:%M:%S')
systemctl start tlvd > /dev/null 2>&1
rc=$?
result=$(systemctl show -p Result --value tlvd)
status=$(systemctl show -p ExecMainStatus --value tlvd)
if [ "$IPEH_STOCK" = 1 ]; then
	if [ $rc != 0 ] && [ "$result" = exit-code ] && [ "$status" = 1 ]; then
		ok "stock: systemctl start tlvd fails, tlvd exits 1"
	else
		not_ok "stock: systemctl start tlvd fails, tlvd exits 1" "start rc $rc, Result=$result, ExecMainStatus=$status"
	fi
	# a restart would be scheduled at once (SubState auto-restart), and
	# happen after RestartSec
	sub=$(systemctl show -p SubState --value tlvd)
	restarts=$(systemctl show -p NRestarts --value tlvd)
	if [ "$sub" = failed ] && [ "$restarts" = 0 ]; then
		ok "stock: systemd does not restart tlvd (failed, no restart scheduled)"
	else
		not_ok "stock: systemd does not restart tlvd" "SubState=$sub NRestarts=$restarts"
	fi
	journal() { journalctl -u tlvd --since "$since" -o cat --no-pager 2>&1; }
	says_no_family() { journal | grep -qF "kernel has no ipeh-tlv netlink family"; }
	if wait_for 5 says_no_family; then
		ok "stock: the journal says the kernel has no ipeh-tlv family"
	else
		not_ok "stock: the journal says the kernel has no ipeh-tlv family" "$(journal | tail -n 3 | tr '\n' ' ')"
	fi
	systemctl reset-failed tlvd 2>/dev/null
else
	if [ $rc = 0 ] && [ "$(systemctl is-active tlvd)" = active ]; then
		ok "series: systemctl start tlvd runs it"
	else
		not_ok "series: systemctl start tlvd runs it" "start rc $rc, Result=$result, ExecMainStatus=$status"
	fi
	systemctl stop tlvd
	# the shipped on-stop = keep leaves the policy: back to the built-in table
	must_run "the built-in table again" "$PROBE" replace --reset
fi
