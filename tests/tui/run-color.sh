#!/bin/sh
# Colour by default; NO_COLOR draws with attributes only, no colour sequences.
NAME=color
. "$(dirname "$0")/lib.sh"
fresh
start_ui
wait_for 'memory/gpu'
T capture-pane -p -e >"$TMP/color.txt"
fresh NO_COLOR=1
start_ui
wait_for 'memory/gpu'
T capture-pane -p -e >"$TMP/nocolor.txt"
sgr_color='\[([0-9;]*;)?(3[0-7]|4[0-7]|38|48|9[0-7]|10[0-7])(;|m)'
grep -Eq "$sgr_color" "$TMP/color.txt" && ok "colour is used by default" ||
	bad "colour is used by default"
grep -Eq "$sgr_color" "$TMP/nocolor.txt" && bad "NO_COLOR draws without colour" ||
	ok "NO_COLOR draws without colour"
grep -q "$(printf '\033')\[" "$TMP/nocolor.txt" && ok "NO_COLOR still marks with attributes" ||
	bad "NO_COLOR still marks with attributes"
finish
