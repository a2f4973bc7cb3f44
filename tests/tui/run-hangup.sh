#!/bin/sh
# SIGHUP writes the unsaved edits to a recovery file and restores the terminal; the next
# start offers it, and y restores the edits and keeps the file until they are saved.
NAME=hangup
. "$(dirname "$0")/lib.sh"
"$BIN" fmt scenarios/default.yaml -o "$TMP/a.yaml"
fresh
start_ui "$TMP/a.yaml"
T send-keys 3 j + +
wait_for '^ count +32 '
kill -HUP "$(ui_pid)"
if wait_for 'EXIT=129' && [ -f "$TMP/.a.yaml.recover" ]; then
	ok "SIGHUP writes unsaved edits to a recovery file"
else
	bad "SIGHUP writes unsaved edits to a recovery file"
fi
cmp -s "$TMP/stty.before" "$TMP/stty.after" && ok "the terminal is restored after SIGHUP" ||
	bad "the terminal is restored after SIGHUP"
run_ui "$TMP/a.yaml"
wait_for 'unsaved edits from a lost session in' &&
	wait_for 'restore \(y\), discard \(d\), keep for later \(n\)\?$' &&
	ok "the next start offers the recovery file" ||
	bad "the next start offers the recovery file"
T send-keys y
wait_for '^ count +32 ' && wait_for 'restored' && [ -f "$TMP/.a.yaml.recover" ] &&
	ok "y restores the unsaved edits and keeps the recovery file" ||
	bad "y restores the unsaved edits and keeps the recovery file"
finish
