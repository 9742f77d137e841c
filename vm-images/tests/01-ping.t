# ipeh: runs on stock
# The topology forwards in both directions: sender <-> router <-> receiver.
check "sender pings receiver via router" in_ns sender ping -6 -c 2 -W 5 -i 0.2 2001:db8:2::1
check "receiver pings sender via router" in_ns receiver ping -6 -c 2 -W 5 -i 0.2 2001:db8:1::1
# The router really forwarded: hop limit seen by the receiver is one less than sent.
out=$(in_ns sender ping -6 -c 1 -W 5 -t 64 2001:db8:2::1 2>&1)
case "$out" in
*"ttl=63"* | *"hlim=63"*) ok "reply crossed one router (hop limit 63)" ;;
*) not_ok "reply crossed one router (hop limit 63)" "$(echo "$out" | head -2 | tr '\n' ' ')" ;;
esac
must_run "router -> receiver link has MTU 1400" test "$(in_ns receiver cat /sys/class/net/v0/mtu)" = 1400
