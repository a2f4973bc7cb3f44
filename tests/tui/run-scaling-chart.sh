#!/bin/sh
# The scaling view as a case of the chart view (issue 18): c on the scaling view charts its
# best layouts, tokens/s per GPU against 8 to 1,024 GPUs, as the chart view draws any
# figure; f charts another figure over the same layouts; S goes back to the table; the
# legend offers c there. At 80x24.
NAME=scaling-chart
. "$(dirname "$0")/lib.sh"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui
T send-keys S
wait_for 'Scaling:' && wait_for '^[│|] +1024 ' && wait_for 'c Chart' &&
	ok "the scaling view's legend offers c Chart" || bad "the scaling view's legend offers c Chart"
T send-keys c
wait_for 'Chart: throughput.tokens_per_s_per_gpu by GPU count, best layouts' &&
	wait_for "the scaling view's best layouts" && wait_for ' 8 +16 +32 +64 +128 +256 +512 +1024' &&
	wait_for 'hardware.count \(log scale\)' &&
	ok "c charts the best layouts against 8 to 1,024 GPUs" ||
	bad "c charts the best layouts against 8 to 1,024 GPUs"
T send-keys f
wait_for 'Chart: [a-z_.]+ by GPU count, best layouts' &&
	wait_gone 'Chart: throughput.tokens_per_s_per_gpu by' &&
	ok "f charts another figure over the same layouts" ||
	bad "f charts another figure over the same layouts"
T send-keys S
wait_for 'Scaling: the best layout by time' && ok "S goes back to the table" ||
	bad "S goes back to the table"
# from a pane the chart of the count (with the figure last charted) keeps the scenario's
# layout: no "best layouts"
T send-keys q 3 j c
wait_for 'Chart: [a-z_.]+ against hardware.count ─' && ! screen | grep -q 'best layouts' &&
	ok "c on a pane charts the scenario's own layout" ||
	bad "c on a pane charts the scenario's own layout"
finish
