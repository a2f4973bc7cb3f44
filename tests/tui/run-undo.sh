#!/bin/sh
# u undoes an edit and Ctrl-R redoes it.
NAME=undo
. "$(dirname "$0")/lib.sh"
fresh
start_ui
T send-keys : "set workload.seq_len=2048" Enter
wait_for '^ seq len +2048' || bad ":set before undo"
T send-keys u
wait_for '^ seq len +8192' && ok "u undoes" || bad "u undoes"
T send-keys C-r
wait_for '^ seq len +2048' && ok "Ctrl-R redoes" || bad "Ctrl-R redoes"
finish
