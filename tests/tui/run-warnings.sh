#!/bin/sh
# Warnings the pane clips are read whole (seed 6's third has no line in the pane): on the
# status line while selected, in full on Enter, counted in the header beside the fit
# verdict; a shape not given reads -, not 0.
NAME=warnings
. "$(dirname "$0")/lib.sh"
cp scenarios/seed-06-33b-deadline-gpus.yaml "$TMP/s6.yaml"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui "$TMP/s6.yaml"
wait_for '^ layers +- ' && select_field 1 model.hidden && wait_for '^ hidden +- ' &&
	ok "a shape not given reads -, not 0" || bad "a shape not given reads -, not 0"
T send-keys 4 G
wait_for '3 warnings' &&
	screen | sed -n 23,24p | tr '\n' ' ' | grep -q 'assumed for activations and kv cache; ' &&
	ok "the warnings item shows the warnings whole on the status line" ||
	bad "the warnings item shows the warnings whole on the status line"
T send-keys Enter
wait_for 'Explain warnings' && wait_for '! deadline missed: 4.02 y needed, 5 d available' &&
	ok "Enter on the warnings lists them whole" || bad "Enter on the warnings lists them whole"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui "$TMP/s6.yaml"
T send-keys : "set workload.kind=offline" Enter
wait_for 'Results  ![0-9]+ warnings? ' && ok "the header counts warnings the pane has no line for" ||
	bad "the header counts warnings the pane has no line for"
# :set of a preset keeps the file's params: 33B (as --set does); 671B does not fit
T send-keys : "set model.preset=deepseek-v3" Enter : "set model.params=671B" Enter
wait_for 'Results  ![0-9]+ warnings +does not fit' &&
	ok "the header keeps the fit verdict beside the warnings" ||
	bad "the header keeps the fit verdict beside the warnings"
finish
