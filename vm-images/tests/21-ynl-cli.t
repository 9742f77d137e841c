# Issue 13 §2: an independent client. The kernel tree's own YNL command-line
# client, tools/net/ynl/cli.py, staged unchanged with the family's spec
# (Documentation/netlink/specs/ipeh-tlv.yaml, series patch 25) from the same
# patched tree, drives every command of the ipeh-tlv family: get, dump, set,
# unset, replace, and the set-ntf and unset-ntf notifications. What it reads
# and what it changes must agree with tlvctl, which reads the table through
# libipeh. This proves that the spec matches the kernel.
YNL=/usr/libexec/ipeh/ynl
EXP_DST="0000""1e04""deadbeef"	# 0x1e with 4 bytes of data, at offset 2
[ -f "$YNL/cli.py" ] && [ -f "$YNL/netlink/specs/ipeh-tlv.yaml" ] ||
	{ not_ok "cli.py and the ipeh-tlv spec are staged" "no $YNL/cli.py or spec"; return 0; }
W=$(mktemp -d /run/ipeh-21.XXXXXX)
chmod 755 "$W"
ynl_cleanup() {
	"$PROBE" replace --reset > /dev/null 2>&1
	rm -rf "$W"
}
trap 'ynl_cleanup; _ipeh_test_end' EXIT

# cli.py on the ipeh-tlv spec, without the schema check (done once below: it
# takes seconds under TCG); ynl ARGS...: the same with JSON output
CLI=(python3 "$YNL/cli.py" --spec "$YNL/netlink/specs/ipeh-tlv.yaml" --no-schema)
ynl() { "${CLI[@]}" --output-json "$@"; }

# cli.py checks the spec against genetlink-legacy.yaml (jsonschema) before it
# talks to the kernel, and lists the messages the spec declares, with their
# modes: the four requests and the two notifications (events).
out=$(python3 "$YNL/cli.py" --spec "$YNL/netlink/specs/ipeh-tlv.yaml" --list-msgs 2>&1)
# (the modes of a message are a Python set: their order varies from run to run)
msgs=$(echo "$out" | tr -s ' ' | sed 's/\[ dump, do \]/[ do, dump ]/' | LC_ALL=C sort | tr '\n' ';')
want_msgs="get [ do, dump ];replace [ do ];set [ do ];set-ntf [ event ];unset [ do ];unset-ntf [ event ];unspec [ ];"
if [ "$msgs" = "$want_msgs" ]; then
	ok "the spec passes cli.py's schema check; its messages: $msgs"
else not_ok "the spec passes cli.py's schema check and declares every message" "got '$msgs' $(echo "$out" | tail -n 2 | tr '\n' ' ')"; fi

# norm_cli / norm_tlvctl: one line per entry (types with an order), from
# cli.py's JSON (a list of messages) or tlvctl's (a list of entries), in one
# form: type order class admin user align length data-length. The two tools
# name permissions and classes differently; the line uses the numbers.
num() { # KEY JSON: the number after "KEY":
	[[ $2 =~ \"$1\":\ ?([0-9]+) ]] && echo "${BASH_REMATCH[1]}"
}
cls() { # KEY JSON [SUFFIX]: the class names listed after "KEY": as a number;
	# empty if no KEY. cli.py names the classes hopopt, rtrdstopt, dstopt
	# (a flag set, printed as a list in no set order), tlvctl hop, rtrdst, dst
	local names c=0 suf=${3-opt}
	[[ $2 =~ \"$1\":\ ?\[([^]]*)\] ]] || return 0
	names=${BASH_REMATCH[1]}
	[[ $names == *"\"hop$suf\""* ]] && c=$((c | 1))
	[[ $names == *"\"rtrdst$suf\""* ]] && c=$((c | 2))
	[[ $names == *"\"dst$suf\""* ]] && c=$((c | 4))
	echo "$c"
}
str() { # KEY JSON: the string after "KEY":
	[[ $2 =~ \"$1\":\ ?\"([a-z-]+)\" ]] && echo "${BASH_REMATCH[1]}"
}
perm_num() {
	case "$1" in none) echo 0 ;; with-check | check) echo 1 ;; no-check | nocheck) echo 2 ;; *) echo "?$1" ;; esac
}
# entry_line TYPE ORDER CLASS ADMIN USER ALIGN_MULT ALIGN_OFF MIN MAX DLEN_MULT DLEN_OFF
entry_line() {
	echo "type=$1 order=$2 class=$3 admin=$(perm_num "$4") user=$(perm_num "$5")" \
		"align=$6n+$7 len=$8-$9 dlen=${10}n+${11}"
}
norm_cli() {
	local l
	sed 's/}, {/}\n{/g' | while read -r l; do
		[ "$(num order "$l")" = 0 ] && continue
		entry_line "$(num type "$l")" "$(num order "$l")" "$(cls class "$l")" \
			"$(str admin-perm "$l")" "$(str user-perm "$l")" \
			"$(num align-mult "$l")" "$(num align-off "$l")" \
			"$(num min-data-len "$l")" "$(num max-data-len "$l")" \
			"$(num data-len-mult "$l")" "$(num data-len-off "$l")"
	done
}
norm_tlvctl() {
	local l
	sed 's/},{"type"/}\n{"type"/g' | while read -r l; do
		entry_line "$(num type "$l")" "$(num order "$l")" "$(cls class "$l" "")" \
			"$(str admin "$l")" "$(str user "$l")" \
			"$(num align_mult "$l")" "$(num align_off "$l")" \
			"$(num min_length "$l")" "$(num max_length "$l")" \
			"$(num data_len_mult "$l")" "$(num data_len_off "$l")"
	done
}
# agree NAME: cli.py's dump and tlvctl's show list the same entries
agree() {
	local a b
	a=$(ynl --dump get 2> "$W/dump.err" | norm_cli)
	b=$(tlvctl show --json 2> "$W/show.err" | norm_tlvctl)
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		ok "$1: cli.py's dump and tlvctl show agree ($(echo "$a" | wc -l) entries)"
	else
		not_ok "$1: cli.py's dump and tlvctl show agree" \
			"$(diff <(echo "$a") <(echo "$b") | head -n 6 | tr '\n' ' ') $(head -c 300 "$W/dump.err" "$W/show.err")"
	fi
}

# --- dump and get
agree "built-in table"
out=$(ynl --dump get 2>&1)
n=$(echo "$out" | sed 's/}, {/}\n{/g' | grep -c '"type": ')
if [ "$n" = 254 ]; then ok "cli.py --dump get: 254 messages, types 2 to 255"
else not_ok "cli.py --dump get: 254 messages, types 2 to 255" "$n: $(echo "$out" | head -c 200)"; fi
out=$(ynl --do get --json '{"type": 49}' 2>&1)
echo "cli.py --do get 0x31: $out"
want=$(tlvctl show ioam --json 2>&1 | norm_tlvctl)
if [ "$(echo "$out" | norm_cli)" = "$want" ] && [ -n "$want" ] &&
	[[ $out == *'"admin-perm": "no-check"'* ]] && [[ $out == *'"generation": '[0-9]* ]] &&
	[[ $out == *'"rx-class": ["hopopt"]'* ]] && [[ $out == *'"class": ["hopopt"]'* ]]; then
	ok "cli.py --do get 0x31 (IOAM): tlvctl's entry, with admin-perm, generation, class and rx-class [hopopt]"
else not_ok "cli.py --do get 0x31 (IOAM): tlvctl's entry, with admin-perm, generation, class and rx-class [hopopt]" "$out / $want"; fi
# every type the kernel handles on receive (built-in handlers; the guest's
# kernel has CONFIG_IPV6_MIP6 unless ipeh.nomip6=1) and no other
handled=$(ynl --dump get 2>&1 | sed 's/}, {/}\n{/g' | while read -r l; do
	[[ $l == *'"rx-class"'* ]] && echo "$(num type "$l"):$(cls rx-class "$l")"
done | tr '\n' ' ')
# Router Alert, CALIPSO (CONFIG_NETLABEL), IOAM, Jumbo: hopopt; HAO: dstopt
want_rx="5:1 7:1 49:1 194:1 201:4 "
[ "${IPEH_NOMIP6:-0}" = 1 ] && want_rx="5:1 7:1 49:1 194:1 "
if [ "$handled" = "$want_rx" ]; then
	ok "cli.py --dump get: rx-class only on the types with a receive handler ($handled)"
else not_ok "cli.py --dump get: rx-class only on the types with a receive handler" "got '$handled', want '$want_rx'"; fi
out=$(ynl --do get --json '{"type": 30}' 2>&1)
rc=$?
if [ "$rc" != 0 ] && [[ $out == *'No such file or directory'* ]]; then
	ok "cli.py --do get 0x1e (no entry): ENOENT"
else not_ok "cli.py --do get 0x1e (no entry): ENOENT" "exit $rc: $out"; fi
out=$(as_user sender "${CLI[@]}" --output-json --do get --json '{"type": 49}' 2>&1)
if [[ $out == *'"order": '* ]] && [[ $out != *admin-perm* ]]; then
	ok "cli.py --do get as an unprivileged user: the entry without admin-perm"
else not_ok "cli.py --do get as an unprivileged user: the entry without admin-perm" "$out"; fi

# --- set, with the notification it makes (subscribed in the same process:
# cli.py queues what arrives while it waits for the ack, then prints it)
out=$(ynl --subscribe tlv-changes --do set --json \
	'{"type": 30, "order": 100, "class": ["dstopt"], "user-perm": "with-check", "min-data-len": 4, "max-data-len": 4}' 2>&1)
echo "cli.py --subscribe tlv-changes --do set 0x1e: $out"
if [[ $out == *'"name": "set-ntf"'* ]] && [[ $out == *'"type": 30,'* ]] &&
	[[ $out == *'"order": 100'* ]] && [[ $out != *unset-ntf* ]]; then
	ok "cli.py --do set 0x1e: one set-ntf notification with the new entry"
else not_ok "cli.py --do set 0x1e: one set-ntf notification with the new entry" "$(echo "$out" | head -c 400)"; fi
out=$(tlvctl show 0x1e --json 2>&1)
if [[ $out == *'"order":100,'* && $out == *'"user":"check"'* && $out == *'"class":["dst"]'* &&
	$out == *'"min_length":4,"max_length":4'* ]]; then
	ok "tlvctl shows the entry cli.py set: order 100, class dst, user check, length 4"
else not_ok "tlvctl shows the entry cli.py set" "$out"; fi
expect "an unprivileged user sends 0x1e after cli.py's set" ok \
	as_user sender "$PROBE" sockopt dst "$EXP_DST"
agree "after set"

# --- the kernel's policy and extended ack, as cli.py reports them
out=$(ynl --do set --json '{"type": 30, "class": 8}' 2>&1)
rc=$?
if [ "$rc" != 0 ] && [[ $out == *'Invalid argument'* ]] && [[ $out == *'reserved bit set'* ]] &&
	[[ $out == *'bad-attr'* ]]; then
	ok "cli.py --do set class 8 (not a class bit): EINVAL, the extack names the attribute"
else not_ok "cli.py --do set class 8 (not a class bit): EINVAL, the extack names the attribute" "exit $rc: $out"; fi
out=$(ynl --do set --json '{"type": 30, "align-mult": 17}' 2>&1)
rc=$?
if [ "$rc" != 0 ] && [[ $out == *'Numerical result out of range'* ]] && [[ $out == *'bad-attr'* ]]; then
	ok "cli.py --do set align-mult 17: ERANGE, the extack names the attribute"
else not_ok "cli.py --do set align-mult 17: ERANGE, the extack names the attribute" "exit $rc: $out"; fi
out=$(as_user sender "${CLI[@]}" --do set --json '{"type": 30, "user-perm": "no-check"}' 2>&1)
rc=$?
if [ "$rc" != 0 ] && [[ $out == *'Operation not permitted'* ]]; then
	ok "cli.py --do set as an unprivileged user: EPERM"
else not_ok "cli.py --do set as an unprivileged user: EPERM" "exit $rc: $out"; fi
agree "after the refused requests"

# --- unset
out=$(ynl --subscribe tlv-changes --do unset --json '{"type": 30}' 2>&1)
if [[ $out == *'"name": "unset-ntf"'* ]] && [[ $out == *'"type": 30,'* ]] && [[ $out == *'"order": 0'* ]]; then
	ok "cli.py --do unset 0x1e: one unset-ntf notification, order 0"
else not_ok "cli.py --do unset 0x1e: one unset-ntf notification, order 0" "$(echo "$out" | head -c 400)"; fi
out=$(tlvctl show 0x1e --json 2>&1)
if [[ $out == *'"entry":false'* ]]; then ok "tlvctl: 0x1e has no entry after cli.py's unset"
else not_ok "tlvctl: 0x1e has no entry after cli.py's unset" "$out"; fi

# --- replace: two orders swapped in one request, then the built-in table back
out=$(ynl --subscribe tlv-changes --do replace --json \
	'{"entry": [{"type": 5, "order": 30}, {"type": 194, "order": 20}]}' 2>&1)
if [ "$(grep -o '"name": "set-ntf"' <<< "$out" | wc -l)" = 2 ] &&
	[[ $out == *'"type": 5,'*'"type": 194,'* ]]; then
	ok "cli.py --do replace (swap of two orders): two set-ntf, in type order"
else not_ok "cli.py --do replace (swap of two orders): two set-ntf, in type order" "$(echo "$out" | head -c 400)"; fi
ra=$(tlvctl show ra --json 2>&1) jumbo=$(tlvctl show jumbo --json 2>&1)
if [[ $ra == *'"order":30,'* && $jumbo == *'"order":20,'* ]]; then
	ok "tlvctl: Router Alert has order 30, Jumbo 20 after cli.py's replace"
else not_ok "tlvctl: Router Alert has order 30, Jumbo 20 after cli.py's replace" "$ra / $jumbo"; fi
agree "after replace"
out=$(ynl --subscribe tlv-changes --do replace --json '{"reset": true}' 2>&1)
if [ "$(grep -o '"name": "unset-ntf"' <<< "$out" | wc -l)" = 2 ] && [[ $out != *'"set-ntf"'* ]]; then
	ok "cli.py --do replace reset: two unset-ntf (the two types changed back)"
else not_ok "cli.py --do replace reset: two unset-ntf" "$(echo "$out" | head -c 400)"; fi
if table_is_default; then ok "after cli.py's reset the table is the built-in one"
else not_ok "after cli.py's reset the table is the built-in one" "$(diff <(table_entries) <(builtin_table) | head -n 4 | tr '\n' ' ')"; fi
agree "after reset"
