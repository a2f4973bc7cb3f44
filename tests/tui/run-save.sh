#!/bin/sh
# Saving: ^S (not XOFF) asks a name for the built-in scenario, Tab completes it, :w FILE
# writes it, :q then quits and restores the terminal; the file reopens with its edits and
# no unsaved mark.
NAME=save
. "$(dirname "$0")/lib.sh"
fresh
start_ui
T send-keys : "set workload.seq_len=4096" Enter : "set hardware.count=16" Enter
wait_for '^ seq len +4096' && wait_for '^ count +16 ' || bad "the edits before saving"
T send-keys C-s
wait_for 'save as:' && ok "^S saves, asking for a name" || bad "^S saves, asking for a name"
T send-keys "$TMP/stty.b" Tab
wait_for "save as: $TMP/stty.before" && ok "Tab completes a file name at the save-as prompt" ||
	bad "Tab completes a file name at the save-as prompt"
T send-keys Escape
wait_gone 'save as:'
T send-keys : "w $TMP/a.yaml" Enter
if wait_for "written $TMP/a.yaml" && [ -s "$TMP/a.yaml" ]; then
	ok ":w FILE saves"
else
	bad ":w FILE saves"
fi
T send-keys : q Enter
if wait_for 'EXIT=0'; then
	ok ":q quits after saving"
else
	bad ":q quits after saving"
fi
cmp -s "$TMP/stty.before" "$TMP/stty.after" && ok "the terminal is restored after :q" ||
	bad "the terminal is restored after :q (stty -g differs)"

run_ui "$TMP/a.yaml"
if wait_for "a.yaml" && wait_for '^ seq len +4096' && wait_for '^ count +16 '; then
	ok "the saved file reopens with its edits"
else
	bad "the saved file reopens with its edits"
fi
screen | head -1 | grep -Eq '●|\*' && bad "a freshly opened file has no unsaved mark" ||
	ok "a freshly opened file has no unsaved mark"
finish
