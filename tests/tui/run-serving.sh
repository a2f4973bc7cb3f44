#!/bin/sh
# Serving under a load (issue 13): at 80x24 the Results pane gives TTFT and TPOT at
# P50/P90/P99 and the queue (utilisation and wait) after the figures; an overloaded replica
# reads unbounded, with its offered load ("overloaded, load 15.2x") and the ttft figure
# unbounded as the report has it (not "-"), and unbound in the search and scaling views;
# a plan without a load (scheduler alone) has none of these lines.
NAME=serving
. "$(dirname "$0")/lib.sh"
fresh
start_ui scenarios/team-serve-70b-5m-requests.yaml --set hardware.count=76
wait_for '│ ttft p50/90/99 +[0-9.]+/[0-9.]+/[0-9.]+ m?s' &&
	wait_for '│ itl p50/90/99 +[0-9.]+/[0-9.]+/[0-9.]+ m?s' &&
	wait_for '│ queue +util [0-9.]+%, wait [0-9.]+ m?s' &&
	ok "the percentiles and the queue under a load at 80x24" ||
	bad "the percentiles and the queue under a load at 80x24"

# the SLO's figures beside their targets (tpot 50ms, ttft 1s at P99): ITL P99 is above
# 50 ms, TPOT at the SLO meets it; and the batch is the engine's cap of 256, the KV pool
# holds 832 (the embedding and head stay bf16 under fp8 weights)
wait_for '│ tpot@p99 +4[0-9.]+ ms ✔ \(50 ms\)' &&
	wait_for '│ ttft@p99 +[0-9.]+ ms ✔ \(1 s\)' &&
	wait_for '│ max batch +256 \(KV 832\)' &&
	ok "the SLO's figures and the capped batch at 80x24" ||
	bad "the SLO's figures and the capped batch at 80x24"

# the 4 GPUs of the file are one replica: the peak overloads it
fresh
start_ui scenarios/team-serve-70b-5m-requests.yaml
wait_for '│ ttft p50/90/99 +unbounded' && wait_for '│ queue +overloaded, load [0-9.]+x' &&
	ok "an overloaded replica reads unbounded" || bad "an overloaded replica reads unbounded"
wait_for '│ ttft +unbounded *$' && ok "an overloaded replica's ttft reads unbounded, not -" ||
	bad "an overloaded replica's ttft reads unbounded, not -"
wait_for '│ tpot@p99 +[0-9.]+ ms ✘ \(50 ms\)' && wait_for '│ ttft@p99 +unbounded ✘ \(1 s\)' &&
	ok "a missed SLO is marked" || bad "a missed SLO is marked"

# GPUs required at the file's tp 4, and after it the layout that needs the fewest
# (capacity_plan.fewest: tp 2 meets the load with 68)
wait_for '│ gpus needed +76 \(68 at tp 2 pp 1\)' &&
	ok "the fewest-GPU layout beside GPUs required at 80x24" ||
	bad "the fewest-GPU layout beside GPUs required at 80x24"

# the search and scaling views say the overloaded replica's ttft as `gpuplan search`
# does ("TTFT unbounded"), in their column: unbound, not "-"
T send-keys s
wait_for '│ +1! +68 +2 +1 +2 +256 fp8 +fp8 +unbound +[0-9.]+ms' &&
	ok "the search view's ttft of an overloaded layout reads unbound" ||
	bad "the search view's ttft of an overloaded layout reads unbound"
T send-keys q S
wait_for '│ +8 +2 +1 +4 +fp8 +fp8 +[0-9.]+ms +unbound ' &&
	ok "the scaling view's ttft of an overloaded count reads unbound" ||
	bad "the scaling view's ttft of an overloaded count reads unbound"
T send-keys q

# at tp 2 the file's layout is already the fewest: no layout follows the count
fresh
start_ui scenarios/team-serve-70b-5m-requests.yaml --set parallel.tp=2
wait_for '│ gpus needed +68' && screen | lacks '│ gpus needed +68 \(' &&
	ok "no fewest layout at the fewest one" || bad "no fewest layout at the fewest one"

# no load modelled: no serving lines
fresh
start_ui scenarios/seed-11b-7b-decode-a100.yaml
wait_for '│ tpot ' && screen | lacks 'p50/90/99|│ queue |@p99' &&
	ok "no serving lines without a load" || bad "no serving lines without a load"
finish
