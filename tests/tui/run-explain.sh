#!/bin/sh
# Explanations: a wrapped source line hangs under the text after "source: ", and the
# text reflows to the window (the core hands the UI one line a paragraph), a formula's
# continuation hanging under its right-hand side.
NAME=explain
. "$(dirname "$0")/lib.sh"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui
T send-keys 4 g
i=0
while [ $i -lt 9 ]; do T send-keys j; i=$((i + 1)); done
T send-keys Enter
if wait_for 'Explain time.step_s' && wait_for '^│   source: '; then
	next=$(screen | sed -n '/^│   source: /{n;p;}')
	printf '%s\n' "$next" | grep -Eq '^│ {11}[^ ]|^│ +│$|^└' &&
		ok "a wrapped explanation line hangs under its label's text" ||
		bad "a wrapped explanation line hangs under its label's text ($next)"
else
	bad "Enter on the step time explains it"
fi
# a sentence the core would break at 80 columns is not left ragged in the 76-column box
# ("per\n layer;\n FlashAttention")
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui scenarios/seed-12-70b-full-training-8xh100.yaml
T send-keys 4 j j j j e
wait_for 'Explain memory.per_gpu.activations' &&
	wait_for 'layer; FlashAttention drops' &&
	wait_for '^│ {17}layer and loss' &&
	ok "an explanation reflows to the window" || bad "an explanation reflows to the window"
# the serving figures of a disaggregated fleet with a host prefix tier (issue 14): the
# explanation window at 80x24 shows the lines the command line's explain has (the prefix
# tiers' host load under ttft, the decode engines under throughput, the two pools under
# the GPUs required)
sed -e 's/^  scheduler: chunked/  scheduler: disaggregated\n  prefix_cache_hit: 0.6\n  prefix_cache_tokens: 2M\n  host_kv_cache: 100GB/' \
	-e 's/^  count: 4$/  count: 80/' scenarios/team-serve-70b-5m-requests.yaml >"$TMP/pd.yaml"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui "$TMP/pd.yaml"
T send-keys 4 g
i=0
while [ $i -lt 8 ]; do T send-keys Down; i=$((i + 1)); done
T send-keys Enter
wait_for 'Explain latency.ttft_s' && wait_for '│   prefix cache tiers: of 2M prefix tokens' &&
	wait_for 'HiRadixCache load_back' && wait_for 'loaded over 64 GB/s PCIe in [0-9]' &&
	ok "ttft's explanation shows the host tier's load" ||
	bad "ttft's explanation shows the host tier's load"
T send-keys Escape Down Down Enter
wait_for 'Explain throughput.tokens_per_s' &&
	wait_for 'tokens/s = decode engines x requests/s completed per decode engine x' &&
	wait_for '│ +output +│' &&
	ok "throughput's explanation counts the decode engines" ||
	bad "throughput's explanation counts the decode engines"
T send-keys Escape Down Down Enter
if wait_for 'Explain capacity_plan.gpus_required'; then
	i=0
	while [ $i -lt 24 ]; do T send-keys Down; i=$((i + 1)); done
	wait_for '│   engines = prefill engines \(the fewest whose M/D/1 TTFT meets' &&
		wait_for '│ +(= [0-9]+ \+ [0-9]+|carries the rate\)) +│' &&
		ok "the GPUs required show the prefill and decode pools" ||
		bad "the GPUs required show the prefill and decode pools"
else
	bad "Enter on the GPUs required explains them"
fi
finish
