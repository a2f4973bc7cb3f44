#!/bin/sh
# TERM=vt100: monochrome, still usable, and q restores the terminal.
NAME=vt100
. "$(dirname "$0")/lib.sh"
fresh TERM=vt100
run_ui
wait_for 'Results' && wait_for 'memory/gpu' && ok "TERM=vt100 draws the screen" ||
	bad "TERM=vt100 draws the screen"
T send-keys q
wait_for 'EXIT=0' && cmp -s "$TMP/stty.before" "$TMP/stty.after" &&
	ok "TERM=vt100: q restores the terminal" || bad "TERM=vt100: q restores the terminal"
finish
