#!/bin/sh
# Figures as a demanding reviewer reads them (each check failed before its fix): a GPU
# without bf16 shows its fp16 peak, a share far over 100% keeps its unit, energy goes to
# TWh, one micro-batch is singular, a cost below a cent keeps its digits, batch auto shows
# the batch the engine runs (an overloaded engine's cap, the SLO's where it is what runs,
# the engine's cap offline) and the batch that fits, the GPU's line gives the plan's peak,
# and inference's parts include the decode step's fixed part.
NAME=figures
. "$(dirname "$0")/lib.sh"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui
T send-keys : "set hardware.gpu=t4" Enter
wait_for '^ gpu +t4' && wait_for '65 TF fp16' && ! screen | grep -q ' 0 TF ' &&
	ok "a GPU without bf16 shows its fp16 peak" || bad "a GPU without bf16 shows its fp16 peak"

# a share far over 100% keeps its unit inside the pane: times over, not 13623 cut short
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui
T send-keys : "set model.preset=deepseek-v3" Enter : "set hardware.count=1" Enter
wait_for 'does not fit' && wait_for '^ count +1 ' &&
	wait_for '│ capacity +█+ +136x◀' && ok "a capacity share of 13623% reads 136x" ||
	bad "a capacity share of 13623% reads 136x"

# energy past a thousand GWh goes to TWh, keeping three digits (it read 75706 GWh)
# (a network of 8 Mb/s, the least the field takes, and 100T tokens: 151 TWh)
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui
T send-keys : "set hardware.count=16" Enter : "set hardware.network=8Mb/s" Enter \
	: "set workload.tokens=100T" Enter
wait_for '^ network +8Mb/s' && wait_for 'energy +[0-9.]{1,4} TWh' &&
	ok "energy goes to TWh" || bad "energy goes to TWh"

fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
T resize-window -t 0 -x 200 -y 50
start_ui
T send-keys : "set workload.global_batch=8" Enter
wait_for 'batch +8 sequences, 1 micro-batch, zero 3' && ok "one micro-batch, not 1 micro-batches" ||
	bad "one micro-batch, not 1 micro-batches"

# a small cost keeps its digits: $0.00189 per million tokens, not $0.00
fresh
start_ui
T send-keys : "set hardware.price_per_gpu_hour=0.05" Enter
wait_for '\$/M tokens +\$0\.00189' && ok "a cost below a cent keeps three significant digits" ||
	bad "a cost below a cent keeps three significant digits"

# batch auto under a load the replica cannot carry: the batch the engine runs, its cap
# (the report's serving.batch, "engine runs at most 256"), not the 101 that would meet the
# SLO, then the batch the cache is sized for (it read "auto (101; fits 832)")
F=scenarios/team-serve-70b-5m-requests.yaml
json() { "$BIN" report "$F" --json "$@" 2>/dev/null; }
run=$(json | sed -n 's/^[[:space:]]*"batch":[[:space:]]*\([0-9]*\),*$/\1/p' | head -1)
fit=$(json | sed -n 's/^[[:space:]]*"max_batch":[[:space:]]*\([0-9]*\),*$/\1/p')
slo=$(json | sed -n 's/^[[:space:]]*"slo_batch":[[:space:]]*\([0-9]*\),*$/\1/p')
fresh
start_ui "$F"
[ -n "$run" ] && [ -n "$slo" ] && [ "$run" != "$slo" ] &&
	wait_for "^ batch +auto \\($run; fits $fit\\)" && select_field 2 workload.batch &&
	T send-keys e && wait_for "the engine runs its running cap, $run" &&
	ok "overloaded, batch auto shows the batch the engine runs ($run, not $slo)" ||
	bad "overloaded, batch auto shows the batch the engine runs ($run, not $slo)"
# the SLO's batch where it is what runs: no load on the engine (no daily count)
fresh
start_ui "$F" --set workload.requests_per_day=0
wait_for "^ batch +auto \\($slo; fits $fit\\)" && select_field 2 workload.batch &&
	T send-keys e && wait_for "decode runs at $slo, the largest batch that meets the SLO" &&
	ok "batch auto with an SLO and no load runs the SLO's batch ($slo)" ||
	bad "batch auto with an SLO and no load runs the SLO's batch ($slo)"

# batch auto without an SLO where the engine's running cap binds (offline scoring: the
# engine runs 161 of the 658 the KV pool holds): both, as the Results pane's max batch
fresh
start_ui scenarios/team-offline-scoring.yaml
wait_for '│ max batch +161 \(KV 658\)' && wait_for '^ batch +auto \(161; fits 658\)' &&
	select_field 2 workload.batch && T send-keys e &&
	wait_for 'the engine runs at most 161 at once' &&
	ok "batch auto under the engine's cap shows both batches" ||
	bad "batch auto under the engine's cap shows both batches"

# the GPU's line gives the peak the plan runs at, as the report and the MFU verdict do:
# an L40S under fp8 733 TF fp8, not its bf16 366
fresh
start_ui scenarios/team-offline-scoring.yaml
pk=$("$BIN" report scenarios/team-offline-scoring.yaml | sed -n 's/^hardware .*, \([0-9.]*\) TFLOP\/s fp8).*$/\1/p')
[ -n "$pk" ] && wait_for "^ 48 GiB +864 GB/s +$pk TF fp8 +\\\$0.79/h" &&
	wait_for "MFU [0-9.]+% of $pk TFLOP/s" &&
	ok "the GPU's line gives the plan's fp8 peak, as the report" ||
	bad "the GPU's line gives the plan's fp8 peak, as the report ($pk)"

# inference's parts are the decode step's terms: with the fixed part they add up to tpot
fresh
T resize-window -t 0 -x 200 -y 50
start_ui scenarios/team-serve-70b-5m-requests.yaml
wait_for 'decode step \(tpot\) by part' && wait_for '│ fixed +[0-9.]+ ms +[0-9]+%' &&
	ok "inference's time parts include the fixed part of a decode step" ||
	bad "inference's time parts include the fixed part of a decode step"
finish
