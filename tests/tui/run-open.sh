#!/bin/sh
# :e on a missing or bad file reports it and keeps the scenario; of two problems the first
# in the file is shown, with how many more there are.
NAME=open
. "$(dirname "$0")/lib.sh"
"$BIN" fmt scenarios/default.yaml -o "$TMP/a.yaml" --set workload.seq_len=4096 \
	--set hardware.count=16
printf 'gpuplan: 1\nmodel:\n  preset: no-such-model\n' >"$TMP/bad.yaml"
printf 'gpuplan: 1\nmodel:\n  preset: llama-2-7b\nworkload:\n  kind: train\n  seq_len: lots\nhardware:\n  gpu: h100\n' >"$TMP/bad2.yaml"
fresh
start_ui "$TMP/a.yaml"
T send-keys : "e $TMP/missing.yaml" Enter
wait_for 'missing.yaml' && screen | grep -Eq '^ seq len +4096' &&
	ok ":e on a missing file reports it and keeps the scenario" ||
	bad ":e on a missing file reports it and keeps the scenario"
fresh
start_ui "$TMP/a.yaml"
T send-keys : "e $TMP/bad.yaml" Enter
wait_for 'bad.yaml' && screen | grep -Eq '^ count +16 ' &&
	ok ":e on a bad file reports it and keeps the scenario" ||
	bad ":e on a bad file reports it and keeps the scenario"
# the GPU is read first, but the first problem in the file is the one shown
fresh
start_ui "$TMP/a.yaml"
T send-keys : "e $TMP/bad2.yaml" Enter
wait_for "bad2.yaml:6:12: .*cannot read 'lots'" && wait_for 'and 1 more: gpuplan check' &&
	ok ":e on a file with two problems shows the first and counts the other" ||
	bad ":e on a file with two problems shows the first and counts the other"
finish
