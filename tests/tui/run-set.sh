#!/bin/sh
# :set changes a field and the results; a bad value or an unknown key is reported and the
# scenario kept.
NAME=set
. "$(dirname "$0")/lib.sh"
results_of() { cut -c41-80; }
fresh
start_ui
wait_for '^ seq len +8192' && wait_for 'step time +[0-9]'
before=$(screen | results_of)
T send-keys : "set workload.seq_len=2048" Enter
if wait_for '^ seq len +2048' && [ "$(screen | results_of)" != "$before" ]; then
	ok ":set changes a field and the results"
else
	bad ":set changes a field and the results"
fi
fresh
start_ui
T send-keys : "set workload.seq_len=2048" Enter
wait_for '^ seq len +2048'
T send-keys : "set workload.seq_len=lots" Enter
wait_for "cannot read 'lots'" && screen | grep -Eq '^ seq len +2048' &&
	ok ":set with a bad value reports it and keeps the scenario" ||
	bad ":set with a bad value reports it and keeps the scenario"
fresh
start_ui
T send-keys : "set workload.sequence=1" Enter
wait_for "unknown key" && ok ":set with an unknown key says so" ||
	bad ":set with an unknown key says so"
finish
