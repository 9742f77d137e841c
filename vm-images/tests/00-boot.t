# The guest runs the kernel that ./dev built from kernel/patches/ (its release
# string is recorded by the host in /ipeh/stage/kernel-release).
want=$(cat /ipeh/stage/kernel-release 2>/dev/null)
have=$(uname -r)
if [ -n "$want" ] && [ "$have" = "$want" ]; then
	ok "kernel release is the one built from kernel/patches ($have)"
else
	not_ok "kernel release is the one built from kernel/patches" "running '$have', built '$want'"
fi
case "$have" in
*-ipeh*) ok "kernel carries the -ipeh localversion" ;;
*) not_ok "kernel carries the -ipeh localversion" "uname -r is $have" ;;
esac
check "systemd is PID 1" test "$(cat /proc/1/comm)" = systemd
check "the staged build is installed" test -f /ipeh/stage/build-id
