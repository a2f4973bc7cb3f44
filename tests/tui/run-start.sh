#!/bin/sh
# The default scenario at 80x24: the panes, the results and the key legend are drawn.
NAME=start
. "$(dirname "$0")/lib.sh"
fresh
run_ui
if wait_for 'Llama 3.1 8B' && wait_for 'Results' && wait_for 'memory/gpu' &&
	! screen | grep -q 'too small'; then
	ok "starts at 80x24 on the built-in scenario"
else
	bad "starts at 80x24 on the built-in scenario"
fi
wait_for 'Model' && wait_for 'Workload' && wait_for 'Hardware' && wait_for 'F1 ?Help' &&
	ok "panes and the key legend are drawn" || bad "panes and the key legend are drawn"
finish
