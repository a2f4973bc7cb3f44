#!/bin/sh
# The question after a lost session (issue 15, review M7 and m12), as vim's swap-file
# question: y restores and keeps the recovery file until the edits are saved (a crash after
# restoring loses nothing), d deletes it, n keeps it for later; :w notices a file changed on
# disk since it was read (issue 16).
NAME=recover-choices
. "$(dirname "$0")/lib.sh"
rec=$TMP/.a.yaml.recover
"$BIN" fmt scenarios/default.yaml -o "$TMP/a.yaml"

# lost: a session on a.yaml with hardware.count 16 that hangs up
lost() {
	rm -f "$rec"
	new_shell
	run_ui "$TMP/a.yaml"
	wait_for 'Results' && T send-keys 3 j + && wait_for '^ count +16 '
	kill -HUP "$(ui_pid)"
	wait_for 'EXIT=129' && [ -f "$rec" ]
}

lost || bad "a hang-up writes the recovery file"
run_ui "$TMP/a.yaml"
wait_for 'restore \(y\), discard \(d\), keep for later \(n\)\?$' &&
	ok "the question names each choice" ||
	bad "the question names each choice"
T send-keys n
wait_for 'kept for later' && wait_for '^ count +8 ' && [ -f "$rec" ] &&
	ok "n keeps the recovery file for later" || bad "n keeps the recovery file for later"
T send-keys : q Enter
wait_for 'EXIT=0'
run_ui "$TMP/a.yaml"
wait_for 'restore \(y\)' && T send-keys d
wait_for 'recovery file deleted' && [ ! -f "$rec" ] && wait_for '^ count +8 ' &&
	ok "d deletes the recovery file" || bad "d deletes the recovery file"
T send-keys : q Enter
wait_for 'EXIT=0'

# y, one more edit, then a crash: the restored edits are still on disk
lost || bad "a hang-up writes the recovery file (2)"
run_ui "$TMP/a.yaml"
wait_for 'restore \(y\)' && T send-keys y
wait_for '^ count +16 ' && T send-keys + && wait_for '^ count +32 '
kill -SEGV "$(ui_pid)"
wait_for 'EXIT=139'
grep -q 'count: 16' "$rec" 2>/dev/null &&
	ok "a crash after restoring keeps the restored edits" ||
	bad "a crash after restoring keeps the restored edits"
run_ui "$TMP/a.yaml"
wait_for 'restore \(y\)' && T send-keys y && wait_for '^ count +16 '
T send-keys : w Enter
wait_for 'written' && [ ! -f "$rec" ] && grep -q 'count: 16' "$TMP/a.yaml" &&
	ok "saving the restored edits removes the recovery file" ||
	bad "saving the restored edits removes the recovery file"

# :w after another program changed the file asks first
T send-keys 3 j + && wait_for '^ count +32 '
sleep 0.02
printf '# an edit from elsewhere\n' >>"$TMP/a.yaml"
T send-keys : w Enter
wait_for 'changed on disk since it was read:' && wait_for 'overwrite it\? \(y/n\)' &&
	grep -q 'an edit from elsewhere' "$TMP/a.yaml" &&
	ok ":w asks when the file changed on disk" || bad ":w asks when the file changed on disk"
T send-keys y
wait_for 'written' && grep -q 'count: 32' "$TMP/a.yaml" &&
	ok "y at that question writes it" || bad "y at that question writes it"
T send-keys : q Enter
wait_for 'EXIT=0'
finish
