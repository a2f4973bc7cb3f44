#!/bin/sh
# The terminals the UI cannot drive: TERM=dumb (terminfo has it, but it cannot move the
# cursor) and a TERM terminfo does not know. Each must say why and exit 2 at once, pointing
# at `gpuplan report`, instead of starting a blank session. Own tmux socket, run alone or in
# parallel with the other scripts. GPUPLAN=path overrides the binary.
NAME=term
. "$(dirname "$0")/lib.sh"
bad() {
	failed=$((failed + 1))
	echo "FAIL $1"
	sed 's/^/    | /' "$TMP/err" 2>/dev/null
	echo "    rc=$(cat "$TMP/rc" 2>/dev/null)"
}

# try TERM: runs the program in a terminal with that TERM, its standard error and exit
# status to files; a program that starts a session instead is sent q after WAIT seconds.
try() {
	rm -f "$TMP/rc" "$TMP/err"
	T kill-server >/dev/null 2>&1
	# a fresh socket each time: a server that is still exiting cannot take the new session
	nsock=$((nsock + 1))
	SOCK=gpuplan-$NAME-$$-$nsock
	T new-session -d -x 80 -y 24 "env TERM=$1 HOME='$TMP' XDG_STATE_HOME='$TMP/state' \
		GPUPLAN_CATALOG='$GPUPLAN_CATALOG' sh -c '$BIN 2>$TMP/err; echo \$? >$TMP/rc.tmp; \
		mv $TMP/rc.tmp $TMP/rc; sleep 30'"
	i=0
	while [ ! -s "$TMP/rc" ] && [ $i -lt $((WAIT * 10)) ]; do
		i=$((i + 1))
		[ $i -eq 50 ] && T send-keys q
		sleep 0.1
	done
}

for term in dumb gpuplan-no-such-terminal; do
	try "$term"
	if [ "$(cat "$TMP/rc" 2>/dev/null)" = 2 ] && grep -q "terminal '$term'" "$TMP/err" &&
		grep -q 'gpuplan report' "$TMP/err"; then
		ok "TERM=$term: says why, points at gpuplan report, exits 2"
	else
		bad "TERM=$term: says why, points at gpuplan report, exits 2"
	fi
done

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
