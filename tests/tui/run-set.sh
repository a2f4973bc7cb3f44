#!/bin/sh
# :set changes a field and the results; a bad value or an unknown key is reported and the
# scenario kept; --set before a pair (as the lessons' notes write it) is taken and skipped.
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
# a lesson's line pasted as its notes write it: --set before each pair, or --set=
fresh
start_ui
wait_for '^ seq len +8192'
T send-keys : "set --set workload.seq_len=2048 --set hardware.count=16" Enter
if wait_for '^ seq len +2048' && wait_for '^ count +16 ' && ! screen | grep -q 'unknown key'; then
	ok ":set --set A=1 --set B=2 sets both (a lesson's line pasted)"
else
	bad ":set --set A=1 --set B=2 sets both (a lesson's line pasted)"
fi
T send-keys : "set --set=workload.seq_len=4096 --set=hardware.count=32" Enter
if wait_for '^ seq len +4096' && wait_for '^ count +32 '; then
	ok ":set --set=A=1 --set=B=2 sets both"
else
	bad ":set --set=A=1 --set=B=2 sets both"
fi
T send-keys : "set --set" Enter
wait_for ':set needs KEY=VALUE after --set' && screen | grep -Eq '^ seq len +4096' &&
	ok ":set --set alone says what it needs and keeps the scenario" ||
	bad ":set --set alone says what it needs and keeps the scenario"
finish
