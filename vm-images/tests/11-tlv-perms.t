# (b) Changing the table needs CAP_NET_ADMIN; GET hides admin_perm from
# unprivileged callers.
expect "unprivileged SET is refused" EPERM as_user sender "$PROBE" set ioam user=check
expect "unprivileged UNSET is refused" EPERM as_user sender "$PROBE" unset ioam
out=$(as_user sender "$PROBE" get ioam 2>&1)
case "$out" in
*admin=hidden*) ok "unprivileged GET hides admin_perm" ;;
*) not_ok "unprivileged GET hides admin_perm" "$out" ;;
esac
out=$(as_user sender "$PROBE" dump 2>&1)
n=$(grep -c '^0x' <<< "$out")
shown=$(grep '^0x' <<< "$out" | grep -v ' admin=hidden ' | head -n 2 | tr '\n' ';')
if [ "$n" -eq 254 ] && [ -z "$shown" ]; then
	ok "unprivileged dump hides admin_perm in all 254 entries"
else
	not_ok "unprivileged dump hides admin_perm in all 254 entries" "$n lines; shown: $shown"
fi
before=$("$PROBE" get ioam 2>&1)
case "$before" in
"0x31 order=50 admin=no-check "*) ok "privileged GET shows admin_perm" ;;
*) not_ok "privileged GET shows admin_perm" "$before" ;;
esac
expect "root in a new user namespace cannot SET" EPERM \
	as_user sender unshare --user --map-root-user "$PROBE" set ioam user=check
after=$("$PROBE" get ioam 2>&1)
if [ "$after" = "$before" ] && [[ $after == *" user=none "* ]]; then
	ok "the IOAM entry is unchanged after the refused requests (user=none)"
else
	not_ok "the IOAM entry is unchanged after the refused requests (user=none)" "before: $before; after: $after"
fi
