#!/bin/sh
# The : line: Tab completes a command's name and a key, a long line scrolls to the cursor,
# its legend names Tab, and a message wider than the status line goes on over the legend
# until the next key.
NAME=command-line
. "$(dirname "$0")/lib.sh"
fresh
start_ui
T send-keys : "set workload.seq_l" Tab
wait_for ':set workload.seq_len=' || bad "Tab completes a key"
T send-keys 1024 Enter
wait_for '^ seq len +1024' && ok "Tab completes a key on the : line" ||
	bad "Tab completes a key on the : line"

fresh
start_ui
T send-keys : "set name=0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789END"
wait_line 23 '^:.*789END$' && ok "a long : line scrolls to the cursor" ||
	bad "a long : line scrolls to the cursor"

fresh
start_ui
T send-keys :
wait_for 'TabComplete|Tab Complete' && ok "the : line's legend names Tab" ||
	bad "the : line's legend names Tab"

fresh
start_ui
T send-keys : "w /nonexistent/dir/x.yaml" Enter
wait_line 24 'directory' && screen | sed -n 23p | grep -q '^/nonexistent/dir/x.yaml: ' &&
	ok "a long error goes on over the legend line" ||
	bad "a long error goes on over the legend line"
T send-keys j
wait_line 24 'F1 ?Help' && ok "the next key brings the legend back" ||
	bad "the next key brings the legend back"
# Tab on the first word completes the command's name (":sc" to ":scaling", several listed),
# and after "solve " its word ("m": max and min); then the key as before
fresh
start_ui
T send-keys : "sc" Tab
wait_line 23 '^:scaling *$' && ok "Tab completes a command's name" ||
	bad "Tab completes a command's name"
T send-keys C-u "s" Tab
wait_line 23 '^:s +scaling +search +set +solve *$' && ok "Tab lists the commands that match" ||
	bad "Tab lists the commands that match"
T send-keys C-u "sol" Tab "m" Tab
wait_line 23 '^:solve m +max +min *$' && ok "Tab lists solve's words" ||
	bad "Tab lists solve's words"
T send-keys "ax" Tab "hardware.cou" Tab
wait_line 23 '^:solve max hardware.count *$' && ok "Tab completes solve's word, then the key" ||
	bad "Tab completes solve's word, then the key"
T send-keys C-u "zz" Tab
wait_line 23 "no command starts with 'zz'" && ok "Tab says when no command matches" ||
	bad "Tab says when no command matches"
finish
