#!/bin/sh
# The baseline: b pins it and the results mark the change against it; in a narrow pane a
# value keeps its room, the change shown by its mark alone.
NAME=baseline
. "$(dirname "$0")/lib.sh"
fresh
start_ui
T send-keys b
wait_for 'baseline pinned' || bad "b pins a baseline"
T send-keys : "set workload.seq_len=4096" Enter
wait_for '▲|▼|\^ *[0-9]|v *[0-9]' && ok "results show the change against the baseline" ||
	bad "results show the change against the baseline"

fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
T resize-window -t 0 -x 64 -y 18
start_ui
T send-keys b : "set hardware.count=16" Enter
wait_for '^ count +16 ' && wait_for '│ memory/gpu +[0-9.]+G / 79.1G +▼$' &&
	wait_for '│ throughput +[0-9.]+k tok/s +▲$' && wait_for '│ step time +[0-9.]+ s +▼[0-9.]+%$' &&
	ok "a narrow pane with a baseline keeps the values whole" ||
	bad "a narrow pane with a baseline keeps the values whole"
finish
