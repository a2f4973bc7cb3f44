#!/bin/sh
# SIGTERM, Ctrl-C and a crash (SIGSEGV) restore the terminal; the crash still dies of its
# signal.
NAME=signals
. "$(dirname "$0")/lib.sh"
"$BIN" fmt scenarios/default.yaml -o "$TMP/a.yaml"
fresh
start_ui "$TMP/a.yaml"
T send-keys 3 j +
wait_for '^ count +16 '
kill -TERM "$(ui_pid)"
wait_for 'EXIT=143' && cmp -s "$TMP/stty.before" "$TMP/stty.after" &&
	ok "SIGTERM restores the terminal" || bad "SIGTERM restores the terminal"
rm -f "$TMP/.a.yaml.recover"
fresh
start_ui "$TMP/a.yaml"
T send-keys C-c
wait_for 'EXIT=130' && cmp -s "$TMP/stty.before" "$TMP/stty.after" &&
	ok "Ctrl-C restores the terminal" || bad "Ctrl-C restores the terminal"
fresh
start_ui "$TMP/a.yaml"
kill -SEGV "$(ui_pid)"
wait_for 'EXIT=139' && cmp -s "$TMP/stty.before" "$TMP/stty.after" &&
	ok "SIGSEGV restores the terminal and re-raises" ||
	bad "SIGSEGV restores the terminal and re-raises"
finish
