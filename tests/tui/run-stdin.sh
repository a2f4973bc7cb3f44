#!/bin/sh
# gpuplan - reads the scenario from standard input; keys still come from the terminal.
NAME=stdin
. "$(dirname "$0")/lib.sh"
"$BIN" fmt scenarios/default.yaml -o "$TMP/a.yaml" --set workload.seq_len=4096
fresh
run_ui "- <$TMP/a.yaml"
if wait_for 'Results' && wait_for '^ seq len +4096'; then
	T send-keys q
	wait_for 'EXIT=0' && ok "gpuplan - reads the scenario from standard input" ||
		bad "gpuplan - quits"
else
	bad "gpuplan - reads the scenario from standard input"
fi
finish
