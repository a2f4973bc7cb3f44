#!/bin/sh
# The recovery file and the signals of the terminal UI (issue 16), through tmux on a
# private socket: a link planted at the recovery file's name is never written through; a
# planted file that is not a scenario is not offered; the recovery file is 0600; every
# signal that would end the process restores the terminal and keeps the edits; where the
# file's folder cannot take the recovery file (a directory in the way, a read-only mount),
# the state folder does and the next start offers it; :w refuses a read-only file and :w!
# writes it; a path up to PATH_MAX is kept whole and a longer one refused whole; two
# recovery files (one kept for later, a newer one) are both asked of, newest first.
# Usage: GPUPLAN=./gpuplan sh tests/safety/run-recovery.sh
NAME=recovery
. "$(dirname "$0")/../tui/lib.sh"
# bad WHAT: a failed check, with the last lines of the screen it saw
bad() {
	failed=$((failed + 1))
	echo "FAIL $1"
	T capture-pane -p 2>/dev/null | sed 's/^/    | /' | tail -6
}
# edit: count 8 -> 16 in the Hardware pane
edit() { wait_for '^ count +8 ' && T send-keys 3 j + && wait_for '^ count +16 '; }

"$BIN" fmt scenarios/default.yaml -o "$TMP/a.yaml" || exit 1
new_shell

# 1. a link planted at the recovery file's name, to a file of the victim's: not offered,
# and the hang-up replaces the link, never the file it points to
printf 'precious\n' >"$TMP/victim"
chmod 600 "$TMP/victim"
ln -s "$TMP/victim" "$TMP/.a.yaml.recover"
run_ui "$TMP/a.yaml"
if wait_for 'recovery file not offered' && ! T capture-pane -p | grep -q 'restore them'; then
	ok "a planted link is not offered for restore"
else
	bad "a planted link is not offered for restore"
fi
edit
kill -HUP "$(ui_pid)"
wait_for 'EXIT=129'
if [ "$(cat "$TMP/victim")" = precious ] && [ ! -L "$TMP/.a.yaml.recover" ] &&
	[ -f "$TMP/.a.yaml.recover" ]; then
	ok "SIGHUP never writes through a planted link"
else
	bad "SIGHUP never writes through a planted link (victim: $(head -c 40 "$TMP/victim"))"
fi
rm -f "$TMP/.a.yaml.recover"
# a dangling planted link creates nothing at its target
ln -s "$TMP/made" "$TMP/.a.yaml.recover"
run_ui "$TMP/a.yaml"
edit
kill -HUP "$(ui_pid)"
wait_for 'EXIT=129'
[ ! -e "$TMP/made" ] && ok "SIGHUP never creates a dangling link's target" ||
	bad "SIGHUP never creates a dangling link's target"
rm -f "$TMP/.a.yaml.recover" "$TMP/made"

# 2. a planted file that is not a scenario is not offered
printf 'ssh-ed25519 AAAA attacker\n' >"$TMP/.a.yaml.recover"
run_ui "$TMP/a.yaml"
if wait_for 'recovery file not offered' && ! T capture-pane -p | grep -q 'restore them'; then
	ok "a recovery file that is not a scenario is not offered"
else
	bad "a recovery file that is not a scenario is not offered"
fi
T send-keys : q! Enter
wait_for 'EXIT=0'
rm -f "$TMP/.a.yaml.recover"

# 3. the recovery file of a 0600 scenario is 0600 (umask 022), and the scenario stays 0600
chmod 600 "$TMP/a.yaml"
run_ui "$TMP/a.yaml"
edit
kill -HUP "$(ui_pid)"
wait_for 'EXIT=129'
m=$(stat -c %a "$TMP/.a.yaml.recover" 2>/dev/null)
[ "$m" = 600 ] && ok "the recovery file is 0600" || bad "the recovery file is ${m:-missing}, not 0600"
rm -f "$TMP/.a.yaml.recover"
run_ui "$TMP/a.yaml"
edit
T send-keys : w Enter
wait_for 'written' && [ "$(stat -c %a "$TMP/a.yaml")" = 600 ] &&
	ok "a 0600 scenario stays 0600 after :w" || bad "a 0600 scenario stays 0600 after :w"
T send-keys : q Enter
wait_for 'EXIT=0'
"$BIN" fmt scenarios/default.yaml -o "$TMP/a.yaml"

# 4. every signal that would end the process restores the terminal and keeps the edits
for sig in QUIT USR1 USR2 ALRM VTALRM XCPU XFSZ; do
	rm -f "$TMP/.a.yaml.recover"
	T send-keys clear Enter
	run_ui "$TMP/a.yaml"
	edit
	kill -s "$sig" "$(ui_pid)"
	if wait_for 'EXIT=[0-9]+' && [ -f "$TMP/.a.yaml.recover" ] &&
		cmp -s "$TMP/stty.before" "$TMP/stty.after"; then
		ok "SIG$sig restores the terminal and writes the recovery file"
	else
		bad "SIG$sig restores the terminal and writes the recovery file"
	fi
done
rm -f "$TMP/.a.yaml.recover"

# 5. where the recovery file cannot be written beside the file (a directory in the way, or
# a read-only folder), it goes to the state folder, and the next start offers it
mkdir "$TMP/.a.yaml.recover"
T send-keys clear Enter
run_ui "$TMP/a.yaml"
edit
kill -HUP "$(ui_pid)"
wait_for 'EXIT=129'
ls "$TMP"/state/gpuplan/a.yaml-*.recover >/dev/null 2>&1 &&
	ok "a recovery file that cannot go beside the file goes to the state folder" ||
	bad "a recovery file that cannot go beside the file goes to the state folder"
rmdir "$TMP/.a.yaml.recover"
run_ui "$TMP/a.yaml"
if wait_for 'lost session in .*/state/gpuplan/' && wait_for '^a\.yaml-[0-9a-f]+\.recover: restore' && T send-keys y &&
	wait_for '^ count +16 '; then
	ok "the next start offers the state folder's recovery file"
else
	bad "the next start offers the state folder's recovery file"
fi
# the restored file stays until the edits are saved or discarded; :q! discards them
ls "$TMP"/state/gpuplan/a.yaml-*.recover >/dev/null 2>&1 &&
	ok "the restored recovery file stays while its edits are unsaved" ||
	bad "the restored recovery file stays while its edits are unsaved"
T send-keys : q! Enter
wait_for 'EXIT=0'
! ls "$TMP"/state/gpuplan/a.yaml-*.recover >/dev/null 2>&1 &&
	ok ":q! after restoring discards the recovery file" ||
	bad ":q! after restoring discards the recovery file"

# 5b. a folder that is read-only indeed: a read-only bind mount in a private mount namespace
# (unshare -rm: no root needed where user namespaces are allowed; a chmod 555 folder is no
# test as root, whose DAC override writes it anyway, but EROFS stops root too). The
# hang-up's recovery file goes to the state folder and the next start offers it.
ro=$TMP/ro
mkdir "$ro"
"$BIN" fmt scenarios/default.yaml -o "$ro/a.yaml"
rm -rf "$TMP/state/gpuplan"
ro_mount="mount --bind $ro $ro && mount -o remount,bind,ro $ro"
if unshare -rm sh -c "$ro_mount && ! touch $ro/probe" 2>/dev/null && [ ! -e "$ro/probe" ]; then
	rm -f "$TMP/pid"
	T send-keys "clear; unshare -rm sh -c '$ro_mount && echo \$\$ >$TMP/pid && exec $BIN $ro/a.yaml'; echo EXIT=\$?" Enter
	edit
	kill -HUP "$(ui_pid)"
	if wait_for 'EXIT=129' && [ ! -e "$ro/.a.yaml.recover" ] &&
		ls "$TMP"/state/gpuplan/a.yaml-*.recover >/dev/null 2>&1; then
		ok "a read-only folder (a read-only mount): the recovery file goes to the state folder"
	else
		bad "a read-only folder (a read-only mount): the recovery file goes to the state folder"
	fi
	T send-keys clear Enter
	run_ui "$ro/a.yaml"
	if wait_for 'lost session in .*/state/gpuplan/' && T send-keys y && wait_for '^ count +16 '; then
		ok "the next start offers the read-only folder's recovery file"
	else
		bad "the next start offers the read-only folder's recovery file"
	fi
	T send-keys : q! Enter
	wait_for 'EXIT=0'
else
	echo "SKIP a read-only folder: unshare -rm cannot make a read-only bind mount here" \
		"(no user namespaces); 5. checks the same fallback with a directory in the way"
fi

# 6. :w refuses a read-only file, :w! writes it
chmod 444 "$TMP/a.yaml"
T send-keys clear Enter
run_ui "$TMP/a.yaml"
edit
T send-keys : w Enter
wait_for 'is read-only' && grep -q 'count: 8' "$TMP/a.yaml" && ok ":w refuses a read-only file" ||
	bad ":w refuses a read-only file"
T send-keys : 'w!' Enter
wait_for 'written' && grep -q 'count: 16' "$TMP/a.yaml" && ok ":w! writes a read-only file" ||
	bad ":w! writes a read-only file"
T send-keys : q Enter
wait_for 'EXIT=0'
chmod 644 "$TMP/a.yaml"

# 7. paths up to PATH_MAX: a scenario 3800 bytes deep opens, its title names it, :w and
# :w ~/NAME (HOME that deep) write there whole (the UI kept 511 bytes, the : line 255); a
# name of 4096 bytes or more, typed or from ~/ expanded, is refused whole and creates
# nothing, and so is such a file to open, before the terminal is taken
deep() { # DIR BYTES: folders of 200-byte names below DIR until the path has BYTES
	d=$1
	while [ ${#d} -lt "$2" ]; do d=$d/$(printf 'd%.0s' $(seq 1 200)); done
	mkdir -p "$d" && echo "$d"
}
home=$(deep "$TMP" 3800)
name=$(printf 'n%.0s' $(seq 1 200)).yaml
long=$home/$name
"$BIN" fmt scenarios/default.yaml -o "$long" || bad "fmt -o writes a 4000-byte path"
# the terminal's line discipline takes 4095 bytes a line: the long names go in a script
run_long() { # HOME FILE: run_ui FILE with HOME, typed as a short line
	printf 'echo $$ >%s/pid; HOME=%s exec %s %s\n' "$TMP" "$1" "$BIN" "$2" >"$TMP/long.sh"
	rm -f "$TMP/pid"
	T send-keys "clear; stty -g >$TMP/stty.before; sh $TMP/long.sh; rc=\$?; stty -g >$TMP/stty.after; echo EXIT=\$rc" Enter
}
run_long "$home" "$long"
edit
T send-keys : w Enter
if wait_for 'written /' && grep -q 'count: 16' "$long" && T capture-pane -p | grep -q 'nnnn.yaml'; then
	ok "a scenario ${#long} bytes deep opens, names its file and saves to it"
else
	bad "a scenario ${#long} bytes deep opens, names its file and saves to it"
fi
T send-keys : "w ~/m.yaml" Enter
wait_for 'written /' && grep -q 'count: 16' "$home/m.yaml" &&
	ok ":w ~/m.yaml writes HOME/m.yaml whole (HOME ${#home} bytes)" ||
	bad ":w ~/m.yaml writes the whole ${#home}-byte path"
T send-keys : q! Enter
wait_for 'EXIT=0'
over=$(deep "$TMP/o" 3950)
run_long "$over" "$TMP/a.yaml"
edit
T send-keys : "w ~/$name" Enter
if wait_for 'file name too long \([0-9]+ bytes; at most 4095\)' &&
	[ -z "$(ls -A "$over")" ]; then
	ok ":w of a name past PATH_MAX is refused whole"
else
	bad ":w of a name past PATH_MAX is refused whole"
fi
T send-keys : q! Enter
wait_for 'EXIT=0'
"$BIN" "$over/$name" </dev/null >"$TMP/out" 2>&1
grep -q 'file name too long' "$TMP/out" && ok "gpuplan with a name past PATH_MAX is refused whole" ||
	bad "gpuplan with a name past PATH_MAX is refused whole: $(head -c 100 "$TMP/out")"

# 8. two recovery files of one scenario: one beside it kept for later (n), then a newer one
# in the state folder (the next session's hang-up, which leaves the kept one alone). The
# next start says there are two and asks of the newest; n asks of the older at once.
"$BIN" fmt scenarios/default.yaml -o "$TMP/b.yaml"
rm -rf "$TMP/state/gpuplan" "$TMP/.b.yaml.recover"
T send-keys clear Enter
run_ui "$TMP/b.yaml"
edit
kill -HUP "$(ui_pid)"
wait_for 'EXIT=129'
touch -d '-1 minute' "$TMP/.b.yaml.recover"
T send-keys clear Enter
run_ui "$TMP/b.yaml"
wait_for 'lost session in ' && T send-keys n
wait_for '^ count +8 ' && T send-keys 3 j + + && wait_for '^ count +32 '
kill -HUP "$(ui_pid)"
wait_for 'EXIT=129'
if grep -q 'count: 16' "$TMP/.b.yaml.recover" &&
	grep -q 'count: 32' "$TMP"/state/gpuplan/b.yaml-*.recover; then
	ok "a hang-up after n keeps the kept recovery file and writes the state folder's"
else
	bad "a hang-up after n keeps the kept recovery file and writes the state folder's"
fi
T send-keys clear Enter
run_ui "$TMP/b.yaml"
# the question over the status and legend lines, a path broken between them joined
question() { T capture-pane -p | tail -2 | tr -d '\n'; }
if wait_for 'edits of 2 lost sessions, newest first: ' &&
	question | grep -Eq '/state/gpuplan/b\.yaml-[0-9a-f]+\.recover: ?restore'; then
	ok "the start says there are two recovery files and asks of the newest first"
else
	bad "the start says there are two recovery files and asks of the newest first"
fi
T send-keys n
if wait_for 'kept for later; next \(older\): ' &&
	question | grep -Eq '/\.b\.yaml\.recover: ?restore' &&
	T send-keys y && wait_for '^ count +16 '; then
	ok "n on the newest asks of the older one at once, and y restores it"
else
	bad "n on the newest asks of the older one at once, and y restores it"
fi
T send-keys : q! Enter
wait_for 'EXIT=0'
[ ! -e "$TMP/.b.yaml.recover" ] && grep -q 'count: 32' "$TMP"/state/gpuplan/b.yaml-*.recover &&
	ok ":q! discards the restored one and keeps the one kept for later" ||
	bad ":q! discards the restored one and keeps the one kept for later"

finish
