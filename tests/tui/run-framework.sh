#!/bin/sh
# workload.framework in the Workload pane (issue 12: the field users most need to see): its
# row, labelled from the field table, stands on the first screen at 80x24; + and - cycle
# it through the framework names in the table's order and the results follow; a typed name
# is taken, and :w writes it into the file.
NAME=framework
. "$(dirname "$0")/lib.sh"
results_of() { cut -c41-80; }
fresh
start_ui
wait_for 'step time +[0-9]'
screen | grep -Eq '^ framework +default ' && ok "the framework row is on the first screen" ||
	bad "the framework row is on the first screen"
if select_field 2 workload.framework; then
	ok "the Workload pane has a workload.framework row"
else
	bad "the Workload pane has a workload.framework row"
fi
before=$(screen | results_of)
T send-keys +
if wait_for '^ framework +megatron '; then
	wait_for 'step time +[0-9]'
	after=$(screen | results_of)
	[ "$before" != "$after" ] && ok "+ cycles default to megatron and the results change" ||
		bad "+ on workload.framework: the results did not change"
else
	bad "+ cycles workload.framework from default to megatron"
fi
T send-keys +
wait_for '^ framework +fsdp ' && ok "+ again: fsdp, the next name of the table" ||
	bad "+ again: fsdp, the next name of the table"
T send-keys - -
if wait_for '^ framework +default '; then
	wait_for 'step time +[0-9]'
	[ "$(screen | results_of)" = "$before" ] &&
		ok "- back to default gives the results as before" ||
		bad "- back to default: the results differ from before"
else
	bad "- cycles back to default"
fi
T send-keys Enter C-u torchtune Enter
wait_for '^ framework +torchtune ' && ok "a typed framework name is taken" ||
	bad "a typed framework name is taken"
T send-keys : "w $TMP/fw.yaml" Enter
if wait_for "written $TMP/fw.yaml" && grep -q '^  framework: torchtune$' "$TMP/fw.yaml"; then
	ok ":w writes workload.framework"
else
	bad ":w writes workload.framework"
	cat "$TMP/fw.yaml" 2>/dev/null
fi
quit_ui || bad ":q! quits"
finish
