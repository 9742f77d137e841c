#!/bin/bash
# tlvd under systemd with the shipped policy (/etc/tlvd.conf, installed by
# meson): `systemctl start tlvd` makes the kernel table the policy, so that an
# ordinary user may set IOAM and PMTU options and no others; a reload with a
# broken file keeps the policy and shows file:line in `systemctl status`; a
# change made with tlvctl is reverted within the interval; stop keeps or
# restores the table as tlvd.conf(5) says; the unit's hardening leaves tlvd
# working.  Sourced by run-tests after topo_up; leaves tlvd stopped, the file
# as shipped and the table at the kernel's defaults.
#
# Option blocks written out by hand (RFC 9197 / 9486 / 9268, kernel/TLV-TABLE.md),
# each a whole Hop-by-Hop header, next-header byte first:
#   IOAM pre-allocated trace (0x31, 4n+0), namespace 123, 1 node of 4 bytes:
#     hdr(00 02) PadN(01 00) IOAM(31 0e: 00 00 | 00 7b 08 01 80 00 00 00 | 4 x 00)
#     trailing PadN(01 02 00 00): 24 bytes
IOAM="0002""0100""310e""0000""007b""0801""80000000""00000000""01020000"
#   Minimum Path MTU (0x30, 4n+2, 4 bytes: Min-PMTU 1500, Rtn-PMTU 0, R 0): 8 bytes
PMTU="0000""3004""05dc""0000"
#   both, in preferred order (IOAM 50 < PMTU 60): IOAM at 4, PadN, PMTU at 22,
#   trailing PadN: 32 bytes
IOAM_PMTU="0003""0100""310e""0000""007b""0801""80000000""00000000""0100""3004""05dc0000""01020000"
#   Router Alert (0x05, 2n+0, value 0) + trailing PadN: 8 bytes
RA="0000""0502""0000""0100"
#   an option type with no entry (0x3e, as in 12-tx-validation): 8 bytes
UNKNOWN="0000""3e04""01020304"
dst=2001:db8:2::1

# What the shipped policy says, as ipeh-probe (libipeh, not tlvd) prints the
# kernel's entries; and the kernel's built-in IOAM row (TLV-TABLE.md).
IOAM_POLICY="0x31 order=50 admin=no-check user=check class=hop align=4n+0 len=10-254 lenmult=4n+2"
PMTU_POLICY="0x30 order=60 admin=no-check user=check class=hop align=4n+2 len=4-4 lenmult=1n+0"
IOAM_DEFAULT="0x31 order=50 admin=no-check user=none class=hop align=4n+0 len=10-254 lenmult=4n+2"

conf=/etc/tlvd.conf
since=$(date '+%Y-%m-%d %H:%M:%S')
journal() { journalctl -u tlvd --since "$since" -o cat --no-pager 2>&1; }
logged() { journal | grep -qF -- "$1"; }
status_text() { systemctl show -p StatusText --value tlvd; }
status_has() { status_text | grep -qF -- "$1"; }
user_is() { "$PROBE" get "$1" | grep -q " user=$2 "; }
has_entry() { "$PROBE" get "$1" | grep -q '^0x[0-9a-f]* order=[1-9]'; }
# same NAME WANT CMD...: ok if CMD prints exactly WANT
same() {
	local name=$1 want=$2 out
	shift 2
	out=$("$@" 2>&1)
	if [ "$out" = "$want" ]; then ok "$name"; else not_ok "$name" "want '$want', got '$out'"; fi
}
# poll_ok NAME SECONDS CMD...: ok once CMD succeeds within SECONDS
poll_ok() {
	local name=$1 secs=$2
	shift 2
	if wait_for "$secs" "$@"; then
		ok "$name"
	else
		not_ok "$name" "not within $secs s; StatusText: $(status_text); journal: $(journal | tail -n 2 | tr '\n' ' ')"
	fi
}
# the users' verdicts on the blocks, through setsockopt and through a cmsg
user_verdicts() {
	local when=$1 want_allowed=$2 via
	for via in sockopt cmsg; do
		if [ $via = sockopt ]; then run() { as_user sender "$PROBE" sockopt "$@"; }
		else run() { as_user sender "$PROBE" send "$1" "$2" $dst 9 --cmsg; }; fi
		expect "$when, user ($via): IOAM" "$want_allowed" run hop "$IOAM"
		expect "$when, user ($via): PMTU" "$want_allowed" run hop "$PMTU"
		expect "$when, user ($via): IOAM + PMTU" "$want_allowed" run hop "$IOAM_PMTU"
		expect "$when, user ($via): Router Alert refused" EPERM run hop "$RA"
		expect "$when, user ($via): option 0x3e refused" EPERM run hop "$UNKNOWN"
	done
}

if ! command -v tlvd >/dev/null || ! command -v tlvctl >/dev/null || [ ! -f "$conf" ] ||
	! systemctl cat tlvd.service >/dev/null 2>&1; then
	not_ok "tlvd, tlvctl, /etc/tlvd.conf and tlvd.service are installed" \
		"$(command -v tlvd tlvctl | tr '\n' ' ')$(ls -l "$conf" 2>&1)"
	return 0
fi
orig=$(mktemp)
cp "$conf" "$orig"
systemctl stop tlvd 2>/dev/null
systemctl reset-failed tlvd 2>/dev/null

check "/etc/tlvd.conf is the shipped tlvd/tlvd.conf" cmp "$IPEH_SRC/tlvd/tlvd.conf" "$conf"
check "tlvd --check accepts the shipped policy" tlvd --check "$conf"
user_verdicts "before tlvd" EPERM

# --- start ------------------------------------------------------------------
check "systemctl start tlvd" systemctl start tlvd
check "tlvd is active (Type=notify: READY=1 received)" systemctl is-active --quiet tlvd
poll_ok "StatusText names the policy's types" 10 status_has "$conf: 2 types (pmtu ioam)"
out=$(tlvctl diff "$conf" 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ -z "$out" ]; then ok "tlvctl diff: the kernel table is the policy"
else not_ok "tlvctl diff: the kernel table is the policy" "exit $rc: $out"; fi
same "kernel IOAM entry as the policy says" "$IOAM_POLICY" "$PROBE" get ioam
same "kernel PMTU entry as the policy says" "$PMTU_POLICY" "$PROBE" get pmtu
check "Router Alert (not in the policy) still user none" user_is ra none
poll_ok "journal: one line per change (pmtu)" 10 logged "set pmtu (0x30): new entry"
poll_ok "journal: one line per change (ioam)" 10 logged "set ioam (0x31): user none -> check"
user_verdicts "tlvd running" ok

# --- hardening ----------------------------------------------------------------
pid=$(systemctl show -p MainPID --value tlvd)
st=/proc/$pid/status
check "tlvd runs as a dynamic user, not root" awk '/^Uid:/ { exit ($2 == 0) }' "$st"
check "tlvd's effective capabilities: CAP_NET_ADMIN alone" grep -q '^CapEff:[[:space:]]*0000000000001000$' "$st"
check "tlvd's bounding set: CAP_NET_ADMIN alone" grep -q '^CapBnd:[[:space:]]*0000000000001000$' "$st"
check "tlvd has no_new_privs" grep -q '^NoNewPrivs:[[:space:]]*1$' "$st"
check "tlvd runs under a seccomp filter" grep -q '^Seccomp:[[:space:]]*2$' "$st"
rss=$(awk '/^VmRSS:/ { print $2 }' "$st")
check "tlvd RSS ${rss:-?} kB < 5 MB" test "${rss:-99999}" -lt 5120

# --- reload with a broken file ------------------------------------------------
lines=$(wc -l < "$conf")
echo 'bogus line' >> "$conf"
want=$(tlvd --check "$conf" 2>&1)
case $want in
"$conf:$((lines + 1)): "*) ok "tlvd --check: the broken file's error is $conf:$((lines + 1))" ;;
*) not_ok "tlvd --check: the broken file's error is $conf:$((lines + 1))" "$want" ;;
esac
# the reload is synchronous (ExecReload=tlvd --reload $MAINPID): it fails,
# and says why with the file:line (issue 14 §7)
out=$(systemctl reload tlvd 2>&1)
rc=$?
if [ $rc -ne 0 ]; then ok "systemctl reload tlvd (broken file) fails (exit $rc)"
else not_ok "systemctl reload tlvd (broken file) fails" "exit 0: $out"; fi
poll_ok "journal: the reload's error with its file:line, from ExecReload" 10 \
	bash -c 'journalctl -u tlvd --no-pager -o cat | grep -qxF -- "$1"' _ "$want"
poll_ok "StatusText shows the file:line error" 10 status_has "last error: $want"
if systemctl status tlvd --no-pager --full 2>&1 | grep '^ *Status:' | grep -qF -- "$want"; then
	ok "systemctl status tlvd shows the file:line error"
else
	not_ok "systemctl status tlvd shows the file:line error" "$(systemctl status tlvd --no-pager --full 2>&1 | head -n 8 | tr '\n' ' ')"
fi
check "tlvd still active after the broken reload" systemctl is-active --quiet tlvd
check "tlvd was not restarted" test "$(systemctl show -p NRestarts --value tlvd)" = 0
same "policy kept after the broken reload (IOAM)" "$IOAM_POLICY" "$PROBE" get ioam
same "policy kept after the broken reload (PMTU)" "$PMTU_POLICY" "$PROBE" get pmtu
poll_ok "journal: reload failed, policy kept, with file:line" 10 \
	logged "reload failed, keeping the current policy: $want"

# --- drift: a short interval through the file ---------------------------------
sed 's/^interval = .*/interval = 2/' "$orig" > "$conf"
must_run "systemctl reload tlvd (good file, interval = 2)" systemctl reload tlvd
poll_ok "a good reload clears the error" 10 status_has "last error: none"
# ra first: the check that reverts ioam then has seen ra changed too
must_run "tlvctl set ra user check (a type the policy does not name)" tlvctl set ra user check
out=$(tlvctl set ioam user none 2>&1)
rc=$?
case "$rc:$out" in
"0:tlvctl: warning: tlvd (pid $(systemctl show -p MainPID --value tlvd)) manages ioam (0x31) ($conf): its next check puts the policy's entry back"*)
	ok "tlvctl set ioam user none (behind tlvd's back): done, with a warning that tlvd will undo it" ;;
*) not_ok "tlvctl set ioam user none (behind tlvd's back): done, with a warning that tlvd will undo it" "exit $rc: $out" ;;
esac
poll_ok "drift reverted by tlvd within the interval (2 s)" 5 user_is ioam check
poll_ok "journal: the drift is logged" 10 \
	logged "drift: 1 type differs from the policy (ioam), re-asserting"
check "a type the policy does not name is left alone (unmentioned = keep)" user_is ra check
must_run "tlvctl unset ra (back to its built-in row)" tlvctl unset ra
check "Router Alert back to user none" user_is ra none

# --- drift seen through a change notification: the timer is an hour away ------
applied_count() { journal | grep -cF "policy $conf applied"; }
applied_more() { [ "$(applied_count)" -gt "$1" ]; }
n0=$(applied_count)
sed 's/^interval = .*/interval = 3600/' "$orig" > "$conf"
must_run "systemctl reload tlvd (interval = 3600)" systemctl reload tlvd
must_run "the reload with interval = 3600 is applied" wait_for 10 applied_more "$n0"
must_run "tlvctl set ioam user none (behind tlvd's back, its timer an hour away)" tlvctl set ioam user none
poll_ok "drift reverted within 5 s: tlvd acted on the tlv-changes notification" 5 user_is ioam check

# --- a section removed on reload: the type goes back to its default ----------
n0=$(applied_count)
sed '/^\[option pmtu\]/,$d' "$orig" > "$conf"
must_run "systemctl reload tlvd (the [option pmtu] section removed)" systemctl reload tlvd
must_run "the reload without pmtu is applied" wait_for 10 applied_more "$n0"
check_fails "a removed section: PMTU has no entry any more (issue 14 §8)" has_entry pmtu
same "a removed section: IOAM keeps the policy" "$IOAM_POLICY" "$PROBE" get ioam
n0=$(applied_count)
cp "$orig" "$conf"
must_run "systemctl reload tlvd (the shipped file again)" systemctl reload tlvd
must_run "the shipped file is applied again" wait_for 10 applied_more "$n0"
same "PMTU has the policy's entry again" "$PMTU_POLICY" "$PROBE" get pmtu

# --- unmentioned = reset: the types the file does not name go back to the
# built-in table (a built-in row, or no entry) and are kept so -----------------
must_run "tlvctl set ra user check (not in the policy)" tlvctl set ra user check
must_run "tlvctl set 0x3e (no built-in entry, not in the policy)" \
	tlvctl set 0x3e order 300 class dst user check
n0=$(applied_count)
sed 's/^unmentioned = .*/unmentioned = reset/' "$orig" > "$conf"
must_run "systemctl reload tlvd (unmentioned = reset)" systemctl reload tlvd
must_run "the reload with unmentioned = reset is applied" wait_for 10 applied_more "$n0"
check "unmentioned = reset: Router Alert back to its built-in row (user none)" user_is ra none
check_fails "unmentioned = reset: 0x3e has no entry any more" has_entry 0x3e
same "unmentioned = reset: IOAM keeps the policy" "$IOAM_POLICY" "$PROBE" get ioam
must_run "tlvctl set ra user check (behind tlvd's back)" tlvctl set ra user check
poll_ok "unmentioned = reset: tlvd puts Router Alert back (it watches every type)" 10 user_is ra none
n0=$(applied_count)
cp "$orig" "$conf"
must_run "systemctl reload tlvd (the shipped file again)" systemctl reload tlvd
must_run "the shipped file is applied again" wait_for 10 applied_more "$n0"

# --- stop, on-stop = keep (shipped) -------------------------------------------
check "systemctl stop tlvd (on-stop = keep)" systemctl stop tlvd
check_fails "tlvd did not fail on stop" systemctl is-failed --quiet tlvd
poll_ok "journal: SIGTERM handled, the policy stays" 10 logged "stopping, the policy stays in the kernel"
same "on-stop = keep: IOAM entry stays" "$IOAM_POLICY" "$PROBE" get ioam
same "on-stop = keep: PMTU entry stays" "$PMTU_POLICY" "$PROBE" get pmtu
expect "on-stop = keep: user may still set IOAM" ok as_user sender "$PROBE" sockopt hop "$IOAM"

# --- stop, on-stop = restore ---------------------------------------------------
sed 's/^on-stop = .*/on-stop = restore/' "$orig" > "$conf"
check "systemctl start tlvd (on-stop = restore)" systemctl start tlvd
check "systemctl stop tlvd (on-stop = restore)" systemctl stop tlvd
check_fails "tlvd did not fail on stop (restore)" systemctl is-failed --quiet tlvd
same "on-stop = restore: IOAM back to the kernel default" "$IOAM_DEFAULT" "$PROBE" get ioam
check_fails "on-stop = restore: PMTU has no entry" has_entry pmtu
expect "on-stop = restore: user refused IOAM again" EPERM as_user sender "$PROBE" sockopt hop "$IOAM"

# --- failure paths -------------------------------------------------------------
out=$(timeout 20 setpriv --bounding-set=-net_admin --inh-caps=-net_admin tlvd -c "$orig" 2>&1)
rc=$?
case "$rc:$out" in
1:*"needs CAP_NET_ADMIN"*) ok "tlvd without CAP_NET_ADMIN: exit 1, clear message" ;;
*) not_ok "tlvd without CAP_NET_ADMIN: exit 1, clear message" "exit $rc: $out" ;;
esac
out=$(as_user sender tlvctl set ioam user check 2>&1)
rc=$?
case "$rc:$out" in
1:*"needs CAP_NET_ADMIN"*) ok "user tlvctl set: exit 1, clear message" ;;
*) not_ok "user tlvctl set: exit 1, clear message" "exit $rc: $out" ;;
esac

# --- leave things as they were --------------------------------------------------
systemctl stop tlvd 2>/dev/null
systemctl reset-failed tlvd 2>/dev/null
cp "$orig" "$conf"
rm -f "$orig"
# (the runner checks after every test that the table is the default again)
for t in pmtu ioam ra; do "$PROBE" unset "$t" >/dev/null 2>&1; done
