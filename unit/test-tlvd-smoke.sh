#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Host smoke test of the real tlvd and tlvctl binaries.
#
# The kernel side is replaced by an LD_PRELOAD stand-in for libipeh's
# netlink client (test-tlvd-fakenl.c) whose table is a file, shared by tlvd
# and tlvctl; sd_notify() messages are collected by test-tlvd-notify.c.
# Checks: start + READY=1 + STATUS=, the table as the shipped policy says,
# SIGHUP with a broken file (policy kept, file:line in STATUS, still
# running), drift made with tlvctl corrected within the interval, RSS, clean
# SIGTERM, on-stop = restore, rollback of a failed first apply, missing
# family, no CAP_NET_ADMIN, and tlvctl's commands and exit codes.
#
# usage: test-tlvd-smoke.sh TLVD TLVCTL PRELOAD NOTIFY SHIPPED_CONF [--no-rss]
# Exit 77 (skipped) when not root.
set -u

if [ $# -lt 5 ]; then
	echo "usage: $0 TLVD TLVCTL PRELOAD NOTIFY SHIPPED_CONF [--no-rss]" >&2
	exit 2
fi
TLVD=$1 TLVCTL=$2 PRELOAD=$3 NOTIFY=$4 SHIPPED=$5
CHECK_RSS=1
[ "${6:-}" = --no-rss ] && CHECK_RSS=0

if [ "$(id -u)" -ne 0 ]; then
	echo "not root: tlvd needs CAP_NET_ADMIN; skipped"
	exit 77
fi

checks=0 failures=0
# report STATUS WHAT: one check, passed when STATUS is 0
report() {
	checks=$((checks + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok   $2"
	else
		echo "FAIL $2"
		failures=$((failures + 1))
	fi
}

# poll SECONDS CMD...: run CMD until it succeeds, for at most SECONDS
poll() {
	local end=$((${EPOCHREALTIME//[!0-9]/} + $1 * 1000000))
	shift
	until "$@"; do
		[ "${EPOCHREALTIME//[!0-9]/}" -lt "$end" ] || return 1
		sleep 0.05
	done
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tlvd-smoke.XXXXXX") || exit 1
pid='' npid=''
cleanup() {
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	[ -n "$npid" ] && kill "$npid" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# "${fake_env[@]}" [VAR=VALUE...] CMD...: CMD against the fake kernel table (only
# CMD gets the preload: a sanitizer build's module would not suit timeout or setpriv)
fake_env=(env -u JOURNAL_STREAM LD_PRELOAD="$PRELOAD" TLVD_FAKE_TABLE="$tmp/table"
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0:detect_leaks=0")

# run CMD...: sets rc, out and err (trailing newlines dropped)
run() {
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(<"$tmp/out")
	err=$(<"$tmp/err")
}

# tlvctl [VAR=VALUE...] ARGS...
tlvctl() {
	local envs=()
	while [[ ${1:-} == [A-Z_]*=* ]]; do envs+=("$1"); shift; done
	run timeout 30 "${fake_env[@]}" "${envs[@]}" "$TLVCTL" "$@"
}

# show TYPE: tlvctl's one-line JSON object for TYPE
show() {
	timeout 30 "${fake_env[@]}" "$TLVCTL" --json show "$1" 2>&1
}

# field JSON KEY: the scalar value of KEY in a flat JSON object (unquoted)
field() {
	local v=${1#*\""$2"\":}
	[ "$v" != "$1" ] || return 1
	v=${v%%[,\}]*}
	v=${v#\"}
	echo "${v%\"}"
}

# user_is TYPE PERM: TYPE's user permission in the table is PERM
user_is() { [ "$(field "$(show "$1")" user)" = "$2" ]; }
has_entry() { [ "$(field "$(show "$1")" entry)" = true ]; }

# --- sd_notify messages ---------------------------------------------------
# One receiver per tlvd start (as systemd gives each start a fresh view).
# notify_wait consumes the first message not yet taken that contains a
# string, as a service manager would see it.
nseq=0 nfile='' msg=''
taken=()
notify_start() {
	if [ -n "$npid" ]; then
		kill "$npid" 2>/dev/null
		wait "$npid" 2>/dev/null
	fi
	rm -f "$tmp/notify"
	nseq=$((nseq + 1))
	nfile=$tmp/notify.$nseq
	taken=()
	"$NOTIFY" "$tmp/notify" >"$nfile" &
	npid=$!
	if ! poll 10 test -S "$tmp/notify"; then
		echo "FAIL the notify receiver did not bind $tmp/notify"
		exit 1
	fi
}
notify_take() {
	local n=0 line
	while IFS= read -r line; do
		n=$((n + 1))
		if [ -z "${taken[n]:-}" ] && [[ $line == *"$1"* ]]; then
			taken[n]=1
			msg=$line
			return 0
		fi
	done <"$nfile"
	return 1
}
# notify_wait STRING: sets msg to the message (empty when none in 15 s)
notify_wait() {
	msg=
	poll 15 notify_take "$1"
}

# --- tlvd in the background -------------------------------------------------
# start_tlvd [VAR=VALUE...] ARGS...: pid, log in $tmp/tlvd.log
start_tlvd() {
	local envs=()
	while [[ ${1:-} == [A-Z_]*=* ]]; do envs+=("$1"); shift; done
	notify_start
	"${fake_env[@]}" NOTIFY_SOCKET="$tmp/notify" "${envs[@]}" "$TLVD" "$@" >"$tmp/tlvd.log" 2>&1 &
	pid=$!
}
running() {
	local stat
	read -r stat 2>/dev/null <"/proc/$pid/stat" || return 1
	[[ ${stat##*) } != Z* ]]
}
stopped() { ! running; }
# wait_exit SECONDS: rc = tlvd's exit status, or "timeout" (then it is killed)
wait_exit() {
	if poll "$1" stopped; then
		wait "$pid"
		rc=$?
	else
		kill -9 "$pid"
		wait "$pid"
		rc=timeout
	fi
	pid=
}
logged() { grep -qF -- "$1" "$tmp/tlvd.log"; }

conf=$tmp/tlvd.conf
cp "$SHIPPED" "$conf"

# --- start ----------------------------------------------------------------------
mkdir -p "$tmp/run"
start_tlvd RUNTIME_DIRECTORY="$tmp/run" -c "$conf" --interval 1
notify_wait READY=1
report $? "tlvd sends READY=1"
[[ $msg == *STATUS=* && $msg == *"2 types (pmtu ioam)"* ]]
report $? "STATUS names the applied types: '$msg'"
ioam=$(show ioam)
[ "$(field "$ioam" user)" = check ] && [ "$(field "$ioam" align)" = 4n+0 ] &&
	[ "$(field "$ioam" min_length)" = 10 ] && [ "$(field "$ioam" max_length)" = 254 ] &&
	[ "$(field "$ioam" length_mult)" = 4n+2 ]
report $? "IOAM as the shipped policy says: $ioam"
pmtu=$(show pmtu)
[ "$(field "$pmtu" entry)" = true ] && [ "$(field "$pmtu" user)" = check ] &&
	[ "$(field "$pmtu" align)" = 4n+2 ] && [ "$(field "$pmtu" min_length)" = 4 ] &&
	[ "$(field "$pmtu" max_length)" = 4 ]
report $? "PMTU as the shipped policy says: $pmtu"
user_is ra none
report $? "Router Alert untouched"
poll 5 logged "set ioam (0x31): user none -> check"
report $? "one log line per change"

# --- RSS ------------------------------------------------------------------------
if [ $CHECK_RSS = 1 ]; then
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
	[ "${rss:-99999}" -lt $((5 * 1024)) ]
	report $? "RSS ${rss:-?} kB < 5 MB"
fi

# --- reload with a broken file ------------------------------------------
printf '[option pmtu]\nuser = all\n' >>"$conf"
kill -HUP "$pid"
notify_wait RELOADING=1
report $? "SIGHUP sends RELOADING=1"
notify_wait READY=1
mapfile -t lines <"$SHIPPED"
pmtu_line=$(grep -nxF '[option pmtu]' "$SHIPPED" | head -n 1 | cut -d: -f1)
want="$conf:$((${#lines[@]} + 1)): option pmtu already has a section at line $pmtu_line"
[[ -n $msg && $msg == *"$want"* ]]
report $? "STATUS shows the file:line error: '$msg'"
running
report $? "tlvd still runs after a broken reload"
user_is pmtu check
report $? "policy kept after a broken reload"
poll 5 logged "$want"
report $? "the error is logged"

# --- synchronous reload: tlvd.service's ExecReload=tlvd --reload $MAINPID ------
run timeout 70 env RUNTIME_DIRECTORY="$tmp/run" "$TLVD" --reload "$pid"
[ "$rc" -eq 1 ] && [[ $err == *"$want"* ]]
report $? "tlvd --reload with a broken file: exit 1 and its file:line (rc $rc: '$err')"
cp "$SHIPPED" "$conf"
run timeout 70 env RUNTIME_DIRECTORY="$tmp/run" "$TLVD" --reload "$pid"
[ "$rc" -eq 0 ] && [ "$out" = "policy applied" ]
report $? "tlvd --reload with a good file: exit 0, 'policy applied' (rc $rc: '$out' '$err')"
run timeout 10 env -u RUNTIME_DIRECTORY "$TLVD" --reload "$pid"
[ "$rc" -eq 2 ] && [[ $err == *"RUNTIME_DIRECTORY is not set"* ]]
report $? "tlvd --reload outside systemd: exit 2, says why"

# --- tlvctl warns about changes tlvd will undo (issue 14 §9) -----------------
tlvctl TLVD_STATE="$tmp/run/state" set 0x99 order 9 class dst
[ "$rc" -eq 0 ] && [[ $err != *warning* ]]
report $? "tlvctl set of a type tlvd does not manage: no warning ('$err')"
tlvctl TLVD_STATE="$tmp/run/state" unset 0x99
tlvctl TLVD_STATE="$tmp/run/state" set pmtu user check
[ "$rc" -eq 0 ] && [[ $err == *"warning: tlvd (pid $pid) manages pmtu (0x30) ($conf): its next check puts the policy's entry back"* ]]
report $? "tlvctl set of a type tlvd manages: warned ('$err')"
tlvctl TLVD_STATE="$tmp/run/state" apply "$SHIPPED"
[ "$rc" -eq 0 ] && [[ $err == *"warning: tlvd (pid $pid) keeps this table as $conf says"* ]]
report $? "tlvctl apply while tlvd runs: warned"
tlvctl TLVD_STATE="$tmp/run/state" check "$SHIPPED"
[ "$rc" -eq 0 ] && [[ $err != *warning* ]]
report $? "tlvctl check changes nothing: no warning"

# --- tlvctl waits while tlvd applies (the lock tlvd holds around applies;
# issue 14 §1) -------------------------------------------------------------
if command -v flock >/dev/null; then
	flock "$tmp/run/lock" sleep 2 &
	holder=$!
	poll 5 test -e "$tmp/run/lock"
	sleep 0.3
	"${fake_env[@]}" TLVD_STATE="$tmp/run/state" "$TLVCTL" set 0x99 order 9 class dst \
		>"$tmp/lock.out" 2>"$tmp/lock.err" &
	setter=$!
	sleep 1.2
	! has_entry 0x99
	report $? "tlvctl set waits while the lock is held (no entry yet)"
	wait "$setter"
	src=$?
	wait "$holder"
	[ "$src" -eq 0 ] && has_entry 0x99 && grep -q "waiting for tlvd (pid $pid)" "$tmp/lock.err"
	report $? "then makes its change, having said it waited: rc $src '$(cat "$tmp/lock.err")'"
	tlvctl TLVD_STATE="$tmp/run/state" unset 0x99
else
	report 1 "tlvctl waits while tlvd applies: flock (util-linux) not found"
fi

# --- drift ---------------------------------------------------------------------
cp "$SHIPPED" "$conf"
tlvctl set ioam user none
[ "$rc" -eq 0 ]
report $? "tlvctl set ioam user none: $err"
poll 5 user_is ioam check
report $? "drift reverted within the interval"
poll 5 logged "drift: 1 type differs from the policy (ioam), re-asserting"
report $? "drift logged"

# --- stop (keep) ----------------------------------------------------------------
kill -TERM "$pid"
wait_exit 10
[ "$rc" = 0 ]
report $? "SIGTERM: clean exit (rc $rc)"
notify_wait STOPPING=1
report $? "STOPPING=1 sent"
user_is ioam check
report $? "on-stop = keep leaves the policy"

# --- on-stop = restore -------------------------------------------------------
sed 's/on-stop = keep/on-stop = restore/' "$SHIPPED" >"$conf"
start_tlvd -c "$conf"
notify_wait READY=1
report $? "restart ready"
kill -INT "$pid"
wait_exit 10
[ "$rc" = 0 ]
report $? "SIGINT: clean exit (rc $rc)"
user_is ioam none && ! has_entry pmtu
report $? "on-stop = restore puts the kernel defaults back"

# --- a failing apply at start ---------------------------------------------------
start_tlvd TLVD_FAKE_FAIL_TYPE=0x31 -c "$conf"
wait_exit 10
[ "$rc" = 1 ]
report $? "failed first apply: exit 1 (rc $rc)"
! has_entry pmtu
report $? "failed first apply rolled back"
logged "rollback done"
report $? "rollback logged"

# --- no family, no capability, bad file -----------------------------------------
run timeout 10 "${fake_env[@]}" TLVD_FAKE_NO_FAMILY=1 "$TLVD" -c "$conf"
[ "$rc" -eq 1 ] && [[ $err == *"kernel has no ipeh-tlv netlink family (ipeh patches not applied?)"* ]]
report $? "missing family: clear error, exit 1: '$err'"
if command -v setpriv >/dev/null; then
	run timeout 10 setpriv --bounding-set=-net_admin --inh-caps=-net_admin \
		"${fake_env[@]}" "$TLVD" -c "$conf"
	[ "$rc" -eq 1 ] && [[ $err == *"needs CAP_NET_ADMIN"* ]]
	report $? "no CAP_NET_ADMIN: clear error, exit 1: '$err'"
else
	report 1 "no CAP_NET_ADMIN: setpriv (util-linux) not found"
fi
# argument errors come before the kernel: said, exit 2, even without the family
run timeout 10 "${fake_env[@]}" TLVD_FAKE_NO_FAMILY=1 "$TLVCTL" set ioam usr check
[ "$rc" -eq 2 ] && [[ $err == *"unknown key 'usr'"* ]]
report $? "tlvctl set ioam usr check: unknown key, exit 2, without the family: rc $rc '$err'"
bad=$tmp/bad.conf
printf '[global]\ninterval = soon\n' >"$bad"
run "$TLVD" --check "$bad"
[ "$rc" -eq 1 ] && [ "$err" = "$bad:2: invalid interval 'soon': expected seconds from 0 to 86400" ]
report $? "tlvd --check: file:line error, exit 1"
run "$TLVD" --check "$SHIPPED"
[ "$rc" -eq 0 ]
report $? "tlvd --check shipped policy: exit 0"

# --- tlvctl ---------------------------------------------------------------------
tlvctl diff "$SHIPPED"
[ "$rc" -eq 1 ] && [[ $out == *"set ioam (0x31): user none -> check"* ]]
report $? "tlvctl diff: changes listed, exit 1"
tlvctl --json diff "$SHIPPED"
names=$(grep -o '"name":"[^"]*","op"' <<<"$out" | cut -d'"' -f4 | tr '\n' ' ')
[ "$names" = "pmtu ioam " ]
report $? "tlvctl --json diff: changes for '$names'"
tlvctl apply "$SHIPPED"
[ "$rc" -eq 0 ] && [[ $out == *"2 changes"* ]]
report $? "tlvctl apply"
tlvctl diff "$SHIPPED"
[ "$rc" -eq 0 ] && [ -z "$(<"$tmp/out")" ]
report $? "tlvctl diff after apply: nothing, exit 0"
tlvctl show
[ "$rc" -eq 0 ] && [[ $out == *"pmtu (0x30)"* ]]
report $? "tlvctl show"
tlvctl show --all --json
n=$(grep -o '{"type":' <<<"$out" | wc -l)
[ "$n" -eq 254 ]
report $? "tlvctl show --all --json lists 254 types ($n)"
tlvctl set 0x99 class dst
[ "$rc" -eq 2 ] && [[ $err == *"'order' is required"* ]]
report $? "set without order refused"
tlvctl set 153 order 7 class dst,hop user check
[ "$rc" -eq 0 ] && [[ $(show 0x99) == *'"class":["hop","dst"]'* ]]
report $? "tlvctl set by number"
tlvctl set 0x99 order 50
[ "$rc" -eq 1 ] && [[ $err == *"Order is used by another type (Operation already in progress)" ]] && [[ $err != *") ("* ]]
report $? "order clash refused with the kernel's message (recorded in unit/kernel-replies.txt)"
tlvctl unset 0x99
[ "$rc" -eq 0 ] && ! has_entry 0x99
report $? "tlvctl unset"
tlvctl check "$bad" --json
[ "$rc" -eq 1 ] && [ "$(field "$out" line)" = 2 ]
report $? "tlvctl check --json error"
tlvctl frobnicate
[ "$rc" -eq 2 ]
report $? "unknown command: exit 2"
tlvctl show --help
[ "$rc" -eq 0 ] && [[ $out == *"Usage: tlvctl show"* ]]
report $? "per-command help"
tlvctl TLVD_FAKE_NO_FAMILY=1 show
[ "$rc" -eq 1 ] && [[ $err == *"ipeh patches not applied?"* ]]
report $? "tlvctl: missing family"
# issue 14 §10, in part
tlvctl help unset
[ "$rc" -eq 0 ] && [[ $out == "Usage: tlvctl unset TYPE"* ]]
report $? "tlvctl help COMMAND: rc $rc '$out'"
tlvctl help frobnicate
[ "$rc" -eq 2 ] && [[ $err == *"unknown command 'frobnicate'"* ]]
report $? "tlvctl help of an unknown command: exit 2"
tlvctl set 0x99 order 9 class dst
tlvctl del 0x99
[ "$rc" -eq 0 ] && ! has_entry 0x99
report $? "tlvctl del is unset"
tlvctl --json show ioam pmtu
[ "$rc" -eq 0 ] && [[ $out == '[{"type":49,'*'},{"type":48,'*'}]' ]]
report $? "tlvctl --json show of two types: an array in the order given"
tlvctl show ioam --all
[ "$rc" -eq 2 ]
report $? "tlvctl show TYPE --all: exit 2"
run timeout 30 "${fake_env[@]}" "$TLVCTL" check - < "$SHIPPED"
[ "$rc" -eq 0 ]
report $? "tlvctl check - reads standard input: rc $rc '$err'"
run timeout 30 "${fake_env[@]}" "$TLVCTL" check - < "$bad"
[ "$rc" -eq 1 ] && [[ $err == *"-:2:"* ]]
report $? "tlvctl check - names the line of standard input: '$err'"
tlvctl unset ioam extra
[ "$rc" -eq 2 ]
report $? "tlvctl unset with a trailing argument: exit 2"
# every --json output is valid JSON (issue 14 §6), a file name in Latin-1
# and a message cut inside a UTF-8 character included
if [ -n "${JSON_CHECK:-}" ]; then
	latin=$tmp/caf$'\xe9'.conf
	printf '[option ioam]\nuser = a\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9x\n' >"$latin"
	jbad=0 jn=0
	for args in "show" "show --all" "show ioam pmtu" "show 0x99" "check $SHIPPED" \
		"check $bad" "check $latin" "diff $SHIPPED" "--pretty show ioam"; do
		# shellcheck disable=SC2086
		run timeout 30 "${fake_env[@]}" "$TLVCTL" --json $args
		jn=$((jn + 1))
		if ! "$JSON_CHECK" <<<"$out" 2>/dev/null; then
			echo "   invalid JSON from tlvctl --json $args: $out"
			jbad=$((jbad + 1))
		fi
	done
	[ $jbad -eq 0 ]
	report $? "$jn tlvctl --json outputs are valid JSON ($jbad invalid)"
else
	report 1 "tlvctl --json outputs are valid JSON: JSON_CHECK not set"
fi
# --pretty: the same JSON, indented
tlvctl --json show ioam
compact=$out
tlvctl --pretty show ioam
mapfile -t pl <<<"$out"
[ "$rc" -eq 0 ] && [ "${pl[0]}" = "{" ] && [ "${pl[1]}" = '  "type": 49,' ] &&
	[ "${pl[-1]}" = "}" ] && [ "$(tr -d ' \n' <<<"$out")" = "$compact" ]
report $? "tlvctl --pretty show ioam: the same JSON, one member per line"
# showconf: the live table as a policy that applies back to itself
tlvctl showconf
printf '%s\n' "$out" >"$tmp/showconf.conf"
[ "$rc" -eq 0 ] && [[ $out == *"unmentioned = reset"* && $out == *"[option ioam]"* ]]
report $? "tlvctl showconf prints a policy"
tlvctl check "$tmp/showconf.conf"
[ "$rc" -eq 0 ]
report $? "tlvctl check accepts showconf's output: '$err'"
tlvctl diff "$tmp/showconf.conf"
[ "$rc" -eq 0 ] && [ -z "$out" ]
report $? "tlvctl diff of showconf's output: nothing to change ('$out')"
tlvctl set 0x99 order 9 class dst user check
tlvctl showconf
[[ $out == *"[option 0x99]"*"order = 9"*"user = check"* ]]
report $? "showconf shows a new entry"
tlvctl apply "$tmp/showconf.conf"
[ "$rc" -eq 0 ] && ! has_entry 0x99
report $? "applying the earlier showconf output removes it again (unmentioned = reset)"

echo "$checks checks, $failures failure(s)"
[ "$failures" -eq 0 ]
