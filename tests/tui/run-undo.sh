#!/bin/sh
# u undoes an edit and Ctrl-R redoes it, the status line naming the field each put back
# and how many steps are left (not a bare "undone (0 more)").
NAME=undo
. "$(dirname "$0")/lib.sh"
fresh
start_ui
T send-keys : "set workload.seq_len=2048" Enter
wait_for '^ seq len +2048' || bad ":set before undo"
T send-keys u
wait_for '^ seq len +8192' && ok "u undoes" || bad "u undoes"
wait_line 23 '^undone: workload.seq_len = 8192; 0 more to undo' &&
	ok "u names the field it put back" || bad "u names the field it put back"
T send-keys C-r
wait_for '^ seq len +2048' && ok "Ctrl-R redoes" || bad "Ctrl-R redoes"
wait_line 23 '^redone: workload.seq_len = 2048; 0 more to redo' &&
	ok "Ctrl-R names the field it set again" || bad "Ctrl-R names the field it set again"
# a preset's change, which moves the fields it sets: the preset first, the others counted
T send-keys : "set model.preset=llama-3.1-70b" Enter
wait_for '^ preset +llama-3.1-70b'
T send-keys u
wait_line 23 '^undone: model.preset = [a-z0-9.-]+ and [0-9]+ more fields; 1 more to undo' &&
	ok "u after a preset names it and counts the fields it moved" ||
	bad "u after a preset names it and counts the fields it moved"
finish
