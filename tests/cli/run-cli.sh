#!/bin/sh
# Shell tests of the whole program: every command's success path, exit codes, standard
# output kept empty on errors, FILE:LINE:COL messages, --set, '-' for standard input, the
# JSON report's keys, fmt idempotence and check listing every problem.
# Run from anywhere; runs $GPUPLAN, by default ./gpuplan at the top of the tree.
. "$(dirname "$0")/../lib.sh"
program
D=tests/data/cli
scratch cli
ERR=$T/err

# run EXPECTED_STATUS ARGS...: runs gpuplan with stdout in $T/out, stderr in $T/err
run() {
	want=$1
	shift
	"$G" "$@" >"$T/out" 2>"$T/err"
	got=$?
	if [ "$got" != "$want" ]; then
		bad "gpuplan $* exited $got, expected $want"
		return 1
	fi
	ok
	return 0
}

# runs and also requires empty stdout and a non-empty stderr (an error)
run_error() {
	run "$@" || return 1
	shift
	if [ -s "$T/out" ]; then bad "gpuplan $*: error but standard output not empty"; return 1; fi
	if [ ! -s "$T/err" ]; then bad "gpuplan $*: error but no message on stderr"; return 1; fi
	ok
}

has() { # has FILE PATTERN DESCRIPTION
	if grep -q -e "$2" "$1"; then ok; else bad "$3: no '$2' in $(basename "$1")"; fi
}

lacks() {
	if grep -q -e "$2" "$1"; then bad "$3: unexpected '$2'"; else ok; fi
}

[ -x "$G" ] || { echo "no $G: run make first"; exit 1; }

# --- top level ------------------------------------------------------------------------
run 0 --version && has "$T/out" '^gpuplan [0-9]' "--version"
run 0 --help && has "$T/out" 'gpuplan report FILE' "--help lists commands"
for c in report explain diff search solve import catalog check fmt; do
	run 0 "$c" --help && has "$T/out" "usage: gpuplan $c" "$c --help"
done
run_error 2 reprot && has "$T/err" "did you mean 'report'" "a misspelt command"
# the terminal UI is never started on a file that cannot be read
run_error 2 $D/bad-syntax.yaml && has "$T/err" "^$D/bad-syntax.yaml:7:" "gpuplan FILE on a bad file"
# a file not there yet in a folder that is: a new file for the UI, which needs a terminal
run_error 2 $D/no-such-file.yaml && has "$T/err" "needs a terminal" "gpuplan NEWFILE without a terminal"
run_error 1 $D/no-such-dir/x.yaml && has "$T/err" "$D/no-such-dir/x.yaml" "gpuplan FILE in a missing folder"
run_error 2 $D/train.yaml --set hardware.count=abc
run_error 2 --ascii --jsn
run_error 2 $D/train.yaml $D/serve.yaml
run_error 2 report --json --markdown $D/train.yaml

# --- report ---------------------------------------------------------------------------
# every shipped scenario's text report fits 80 columns (characters, not bytes: the bars)
wide=
for f in scenarios/*.yaml scenarios/workshop/*.yaml; do
	[ -f "$f" ] || continue
	"$G" report "$f" 2>/dev/null | LC_ALL=C.UTF-8 awk -v f="$f" 'length > 80 { print f; exit }' |
		grep -q . && wide="$wide $f"
done
[ -z "$wide" ] && ok "every shipped scenario's report fits 80 columns" ||
	bad "reports wider than 80 columns:$wide"
run 0 report $D/train.yaml && {
	has "$T/out" 'MEMORY PER GPU' "report text"
	has "$T/out" 'weights' "report text"
	has "$T/out" 'FITS' "report text: the fit verdict"
	has "$T/out" 'binding bottleneck' "report text"
	if awk 'length > 80 { exit 1 }' "$T/out"; then ok; else bad "report text wider than 80 columns"; fi
	# verdicts in the order capacity, then bandwidth and interconnect, then compute
	order=$(sed -n '/^VERDICTS/,/^$/p' "$T/out" |
		grep -E '^  ([0-9]\. |   )(capacity|HBM bandwidth|bandwidth|interconnect|data I/O|compute)' |
		sed 's/^  [0-9. ]*//; s/[ :(].*//' | tr '\n' ' ')
	case "$order" in
	"capacity HBM interconnect compute " | "capacity HBM interconnect data compute " | \
		"capacity bandwidth compute ") ok ;;
	*) bad "verdict order: '$order'" ;;
	esac
}
run 0 report $D/serve.yaml && has "$T/out" 'KV cache' "inference report"
run 0 report $D/train-1gpu.yaml && has "$T/out" 'DOES NOT FIT' "a plan that does not fit is a result"
run 0 report $D/train.yaml --markdown && {
	for h in '^# ' '^## Summary' '^## Memory per GPU' '^## Time and cost' '^## Bottlenecks' \
		'^## Warnings' '^## Assumptions' '^| weights |'; do
		has "$T/out" "$h" "report --markdown"
	done
}
run_error 2 report
run_error 2 report $D/train.yaml $D/serve.yaml
run_error 2 report --jsn $D/train.yaml
run_error 1 report $D/no-such-file.yaml
run_error 2 report $D/bad-syntax.yaml && has "$T/err" "^$D/bad-syntax.yaml:7:[0-9][0-9]*: " "FILE:LINE:COL"
run_error 2 report $D/invalid.yaml && {
	n=$(grep -c "^$D/invalid.yaml:[0-9][0-9]*:[0-9][0-9]*: " "$T/err")
	if [ "$n" -ge 2 ]; then ok; else bad "report on an invalid scenario printed $n problems"; fi
}
if "$G" report $D/train.yaml >/dev/full 2>"$T/err"; then bad "writing to /dev/full succeeded"
else
	[ $? = 1 ] && ok || bad "writing to /dev/full: expected exit 1"
fi

# --- report --json --------------------------------------------------------------------
run 0 report $D/train.yaml --json && cp "$T/out" "$T/train.json"
run 0 report $D/serve.yaml --json && cp "$T/out" "$T/serve.json"
keys="schema scenario.name scenario.file model.params model.active_params
memory.per_gpu.weights memory.per_gpu.gradients memory.per_gpu.optimizer
memory.per_gpu.activations memory.per_gpu.kv_cache memory.per_gpu.overhead
memory.per_gpu.total memory.capacity memory.headroom memory.fits compute.flops_per_token
compute.flops_total compute.mfu time.step_s time.total_s time.gpu_hours
throughput.tokens_per_s throughput.tokens_per_s_per_gpu latency.ttft_s latency.tpot_s
capacity_plan.max_batch capacity_plan.replicas capacity_plan.gpus_required cost.usd_total
cost.usd_per_hour cost.usd_per_million_tokens energy.kwh reliability.expected_interruptions
reliability.checkpoint_interval_s reliability.goodput bottleneck.binding
bottleneck.shares.capacity bottleneck.shares.compute bottleneck.shares.hbm_bandwidth
bottleneck.shares.interconnect bottleneck.shares.data_io warnings"
if command -v python3 >/dev/null 2>&1; then
	for j in "$T/train.json" "$T/serve.json"; do
		if python3 - "$j" $keys >"$T/err" 2>&1 <<'PY'; then ok; else bad "JSON report $j"; fi
import json, sys
doc = json.load(open(sys.argv[1]))
bad = []
for key in sys.argv[2:]:
    o = doc
    for part in key.split("."):
        if not isinstance(o, dict) or part not in o:
            bad.append("missing " + key)
            break
        o = o[part]
    else:
        if key == "schema" and o != "gpuplan.report/1":
            bad.append("schema " + repr(o))
        if key.startswith("memory.per_gpu.") or key in ("model.params", "model.active_params",
                                                        "memory.capacity"):
            if not isinstance(o, int) or isinstance(o, bool):
                bad.append(key + " is not an integer: " + repr(o))
        if key == "memory.fits" and not isinstance(o, bool):
            bad.append("memory.fits is not a boolean")
        if key == "bottleneck.binding" and o not in ("capacity", "compute", "hbm_bandwidth",
                                                     "interconnect", "data_io"):
            bad.append("binding " + repr(o))
        if key.startswith("bottleneck.shares.") and not (isinstance(o, (int, float)) and o >= 0):
            bad.append(key + " " + repr(o))
        if key == "warnings" and not (isinstance(o, list) and all(isinstance(w, str) for w in o)):
            bad.append("warnings is not a list of strings")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
	done
	# a result that does not apply to the workload is null
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["latency"]["tpot_s"] is None else 1)' \
		"$T/train.json" && ok || bad "training latency.tpot_s is not null"
else
	for k in $keys; do has "$T/train.json" "\"${k##*.}\":" "report --json key $k"; done
fi
has "$T/train.json" '"schema":[[:space:]]*"gpuplan.report/1"' "JSON schema"

# --- --set and standard input ---------------------------------------------------------
run 0 fmt $D/train.yaml --set hardware.count=16 --set workload.seq_len=8192 && {
	has "$T/out" 'count: 16' "--set hardware.count"
	has "$T/out" 'seq_len: 8192' "--set workload.seq_len"
}
run 0 report $D/train.yaml --json --set parallel.zero=3 && {
	if cmp -s "$T/out" "$T/train.json"; then bad "--set parallel.zero=3 changed nothing"; else ok; fi
}
# parallel.zero auto (issue 12): fsdp shards fully, the default framework not at all; the
# field table says auto, a bad stage lists it, the report and JSON give the stage resolved
run 0 report $D/train.yaml --set parallel.zero=auto --set workload.framework=fsdp &&
	has "$T/out" "^layout .*, ZeRO 3" "zero auto under fsdp: ZeRO 3"
run 0 report $D/train.yaml --set parallel.zero=auto --json &&
	has "$T/out" '"zero":[[:space:]]*0[,}]' "zero auto, default framework: layout.zero 0"
run 0 fmt $D/train.yaml --set parallel.zero=auto && has "$T/out" '^  zero: auto$' "fmt writes zero auto"
run 0 fields && has "$T/out" "^parallel.zero	int	count	0,1,2,3	auto$" "fields: parallel.zero takes auto"
run_error 2 report $D/train.yaml --set parallel.zero=4 &&
	has "$T/err" "parallel.zero: 4 is out of range (expected 0 to 3 or auto)" "zero 4: auto expected too"
run 0 check $D/serve.yaml --set workload.framework=vllm &&
	lacks "$T/err" "parallel.zero" "serving: the auto default of parallel.zero is not a set field"
run_error 2 report $D/train.yaml --set hardware.count=abc && {
	has "$T/err" '--set' "--set error names --set"
	has "$T/err" 'hardware.count' "--set error names the key"
}
run_error 2 report $D/train.yaml --set hardware.cont=8 && has "$T/err" "did you mean 'hardware.count'" "--set typo"
run_error 2 report $D/train.yaml --set nokeyvalue
# a value --set makes invalid is blamed on the --set, not on a line of the file
run_error 2 report $D/train.yaml --set parallel.tp=3 && has "$T/err" '^--set parallel.tp=3: ' "--set that fails validation"
run_error 2 report $D/train.yaml --set
"$G" report - --json <$D/train.yaml >"$T/out" 2>"$T/err" && ok || bad "report - (standard input)"
has "$T/out" '"file":[[:space:]]*"-"' "report - names standard input"
"$G" check - <$D/train.yaml >"$T/out" 2>"$T/err" && ok || bad "check -"
"$G" check - <$D/invalid.yaml >"$T/out" 2>"$T/err"
[ $? = 2 ] && [ ! -s "$T/out" ] && ok || bad "check - on an invalid scenario"

# --- --set of a preset: as if written in the file, so the file's own fields still override
printf 'model:\n  preset: llama-2-7b\n  layers: 20\nworkload:\n  kind: train\nhardware:\n  gpu: h100-sxm-80gb\n  memory: 100GB\n' >"$T/over.yaml"
run 0 report "$T/over.yaml" --set model.preset=llama-2-13b && has "$T/out" '20 layers x 5120' \
	"--set model.preset keeps the file's layers"
run 0 report "$T/over.yaml" --set hardware.gpu=h200 --json &&
	has "$T/out" '"capacity":[[:space:]]*100000000000,' "--set hardware.gpu keeps the file's memory"
run 0 report "$T/over.yaml" --set hardware.price_per_gpu_hour=3 --set hardware.gpu=h200 --json &&
	has "$T/out" '"usd_per_hour":[[:space:]]*3,' "a --set before a --set preset still holds"

# --- check ----------------------------------------------------------------------------
run 0 check $D/train.yaml
run 0 check $D/serve.yaml
run_error 2 check $D/invalid.yaml && {
	n=$(grep -c "^$D/invalid.yaml:[0-9][0-9]*:[0-9][0-9]*: " "$T/err")
	if [ "$n" -ge 3 ]; then ok; else bad "check listed $n problems, expected every one (3 or more)"; fi
}
run_error 2 check $D/bad-syntax.yaml && {
	has "$T/err" "^$D/bad-syntax.yaml:7:" "check FILE:LINE"
	# a file that is not YAML has no fields to validate: one problem, not "no model given"
	has "$T/err" "^gpuplan check: $D/bad-syntax.yaml: 1 problem$" "check: invalid YAML is one problem"
}
# a UTF-8 byte order mark before the first key is allowed (YAML 1.2)
printf '\357\273\277' >"$T/bom.yaml"
cat $D/train.yaml >>"$T/bom.yaml"
run 0 check "$T/bom.yaml"
run_error 2 check $D/train.yaml --set parallel.tp=3 && has "$T/err" 'tp' "check after --set"
# under a load the report names a tp x pp layout within the node that needs fewer GPUs
# than the file's (issue 13, capacity_plan.fewest): team-serve at tp 4 needs 76, tp 2
# meets the load with 68 (66 before vLLM's online fp8 kept the embedding and head bf16),
# at its batch and policy; the JSON carries it, explain names it
run 0 report scenarios/team-serve-70b-5m-requests.yaml && {
	has "$T/out" "fewest GPUs            tp 2 x pp 1: 68 GPUs (34 replicas) at batch [0-9][0-9]* under" \
		"report: the capacity plan names the fewest-GPU layout"
	has "$T/out" "against 76 at the file's tp 4 x pp 1" "report: against the file's count"
}
run 0 report --json scenarios/team-serve-70b-5m-requests.yaml &&
	has "$T/out" '"fewest":[[:space:]]*{' "report --json: capacity_plan.fewest" &&
	has "$T/out" '"gpus_required":[[:space:]]*68' "report --json: the fewest layout's 68 GPUs"
run 0 explain scenarios/team-serve-70b-5m-requests.yaml capacity_plan.gpus_required &&
	has "$T/out" "fewer GPUs (capacity_plan.fewest): tp 2 x pp 1 x ep 1 meets the load with" \
		"explain gpus_required names the fewest layout"
run 0 report scenarios/team-serve-70b-5m-requests.yaml --set parallel.tp=2 &&
	lacks "$T/out" "fewest GPUs" "report: no fewest row at the fewest layout"
run 0 report --json scenarios/team-serve-70b-5m-requests.yaml --set parallel.tp=2 &&
	has "$T/out" '"fewest":[[:space:]]*null' "report --json: fewest null at the fewest layout"
# a problem the --set caused in a field the file does not write names that --set, not
# the section's line in the file
run_error 2 check $D/serve.yaml --set workload.prompt_length.dist=lognormal &&
	has "$T/err" "^--set workload.prompt_length.dist=lognormal: workload.prompt_length: dist lognormal needs sigma" \
		"check: a --set's problem names the --set"
run_error 2 report $D/serve.yaml --set workload.prompt_length.dist=lognormal &&
	has "$T/err" "^--set workload.prompt_length.dist=lognormal: " "report: a --set's problem names the --set"
run_error 2 check
run_error 1 check $D/no-such-file.yaml
# a field the framework ignores: check warns as report does (issue 12 audit), still ok
run 0 check $D/serve.yaml --set workload.framework=vllm --set parallel.zero=1 && {
	has "$T/out" "^$D/serve.yaml: ok$" "check: ok with a framework warning"
	has "$T/err" "^gpuplan check: --set parallel.zero=1: warning: workload.kind online under framework vllm does not use parallel.zero" \
		"check: ZeRO on vLLM, at its --set"
}
# every field the workload kind or the framework does not read warns at its FILE:LINE:COL,
# naming both (issue 12, Bad input; scenario_fields[] applies and frameworks bits)
sed 's/^  kind: online$/  kind: online\n  framework: vllm\n  optimizer: adam8bit\n  recompute: full/' \
	$D/serve.yaml >"$T/ignored.yaml"
printf '  reshard_after_forward: never\n' >>"$T/ignored.yaml"
run 0 check "$T/ignored.yaml" && {
	has "$T/err" "ignored.yaml:8:3: warning: workload.kind online under framework vllm does not use workload.optimizer" \
		"check: an optimizer under vLLM warns at its place"
	has "$T/err" "ignored.yaml:9:3: warning: workload.kind online under framework vllm does not use workload.recompute" \
		"check: recompute under vLLM warns at its place"
	has "$T/err" "ignored.yaml:22:3: warning: .*does not use parallel.reshard_after_forward" \
		"check: reshard_after_forward under vLLM warns at its place"
}
# report gives the same warnings on standard error, its exit status and report unchanged
run 0 report "$T/ignored.yaml" --set parallel.zero=1 && {
	has "$T/err" "^gpuplan report: .*ignored.yaml:8:3: warning: workload.kind online under framework vllm does not use workload.optimizer" \
		"report: an optimizer under vLLM warns at its place"
	has "$T/err" "^gpuplan report: .*ignored.yaml:22:3: warning: .*does not use parallel.reshard_after_forward" \
		"report: reshard_after_forward under vLLM warns at its place"
	has "$T/err" "^gpuplan report: --set parallel.zero=1: warning: workload.kind online under framework vllm does not use parallel.zero" \
		"report: ZeRO on vLLM warns at its --set, naming both"
	has "$T/out" "^  - framework vllm does not use parallel.zero" "report: the plan's warning stays in the text"
	lacks "$T/out" "ignored.yaml:8:3" "report: the placed warnings are not in the report text"
}
run 0 report "$T/ignored.yaml" --markdown && has "$T/err" "ignored.yaml:9:3: warning: .*workload.recompute" \
	"report --markdown: the warnings on standard error"
run 0 report $D/serve.yaml && lacks "$T/err" "warning" "report: a plain scenario warns"
run 0 check $D/train.yaml --set workload.framework=fsdp --set workload.scheduler=chunked \
	--set workload.max_running=8 --set workload.requests_per_s=3 --set workload.slo.tpot=50ms && {
	for k in scheduler max_running requests_per_s slo.tpot; do
		has "$T/err" "warning: workload.kind train under framework fsdp does not use workload.$k, which is set" \
			"check: workload.$k in fsdp training warns"
	done
}
run 0 check $D/serve.yaml --set workload.framework=llama.cpp --set workload.gpu_memory_utilization=0.8 &&
	has "$T/err" "warning: framework llama.cpp does not use workload.gpu_memory_utilization" \
		"check: a memory fraction under llama.cpp warns (the frameworks column)"
run 0 check $D/serve.yaml --set workload.framework=vllm --set workload.gpu_memory_utilization=0.8 &&
	lacks "$T/err" "warning" "check: a memory fraction under vLLM is read"
run 0 check $D/serve.yaml --set workload.framework=vllm --set workload.kv_cache=nvfp4 &&
	has "$T/err" "warning: workload.kv_cache nvfp4 on a100-80gb-sxm, which has no FP4 tensor cores" \
		"check: nvfp4 kv on a GPU without FP4"
run 0 check $D/serve.yaml --set workload.framework=sglang --set workload.kv_cache=nvfp4 \
	--set hardware.gpu=b200 && lacks "$T/err" "warning" "check: nvfp4 kv under SGLang on B200"
run_error 2 check $D/serve.yaml --set workload.framework=llama.cpp --set workload.kv_cache=nvfp4 &&
	has "$T/err" "framework llama.cpp has no nvfp4 kv cache" "check: nvfp4 kv under llama.cpp is refused"
run 0 check $D/train.yaml --set workload.framework=fsdp --set parallel.pp=2 \
	--set parallel.reshard_after_forward=always &&
	has "$T/err" "warning: framework fsdp does not use parallel.reshard_after_forward always" \
		"check: reshard_after_forward always under FSDP with pp > 1"
run 0 check $D/train.yaml --set workload.framework=fsdp --set parallel.pp=1 \
	--set parallel.reshard_after_forward=always && lacks "$T/err" "warning" \
	"check: reshard_after_forward always under FSDP without a pipeline is used"
run 0 check $D/train.yaml && lacks "$T/err" "warning" "check: a plain scenario warns"
# a value the framework has no way to run (src/framework.c value gaps): check and report
# warn at its FILE:LINE:COL naming the field, its value, the framework and its source file
sed 's/^  recompute: selective$/  recompute: selective\n  framework: megatron\n  optimizer: adam8bit\n  loss: chunked/' \
	$D/train.yaml >"$T/gaps.yaml"
run 0 check "$T/gaps.yaml" && {
	has "$T/out" "gaps.yaml: ok$" "check: a value gap is a warning, still ok"
	has "$T/err" "gaps.yaml:14:3: warning: framework megatron has no 8-bit AdamW (megatron/training/arguments.py --optimizer: adam, sgd): workload.optimizer adam8bit is planned as written" \
		"check: adam8bit under Megatron warns at its place"
	has "$T/err" "gaps.yaml:15:3: warning: framework megatron has no chunked cross-entropy" \
		"check: chunked loss under Megatron warns at its place"
}
run 0 report "$T/gaps.yaml" && has "$T/err" "^gpuplan report: .*gaps.yaml:14:3: warning: framework megatron has no 8-bit AdamW" \
	"report: the value gap on standard error"
run 0 report --json "$T/gaps.yaml" && has "$T/out" "gaps.yaml:15:3: framework megatron has no chunked" \
	"report --json: the value gap in warnings"
run 0 check $D/train.yaml --set workload.framework=llm.c --set workload.recompute=op \
	--set workload.optimizer_states=paged && {
	has "$T/err" "^gpuplan check: --set workload.recompute=op: warning: framework llm.c has no per-op" \
		"check: recompute op under llm.c warns at its --set"
	has "$T/err" "warning: framework llm.c has no paged optimizer states" "check: paged states under llm.c"
}
run 0 check $D/train.yaml --set workload.framework=deepspeed --set parallel.zero=3 \
	--set parallel.reshard_after_forward=never &&
	has "$T/err" "warning: framework deepspeed has no reshard_after_forward .*stage3_param_persistence_threshold" \
		"check: reshard never under DeepSpeed"
run 0 check $D/train.yaml --set workload.framework=megatron --set parallel.zero=3 \
	--set parallel.reshard_after_forward=never && lacks "$T/err" "warning" \
	"check: Megatron runs reshard never (--torch-fsdp2-no-reshard-after-forward)"
run 0 check $D/serve.yaml --set workload.framework=llama.cpp --set workload.weights=fp8 &&
	has "$T/err" "warning: framework llama.cpp has no fp8 weights (ggml/include/ggml.h .*Q8_0" \
		"check: fp8 weights under llama.cpp name Q8_0"
run 0 check $D/serve.yaml --set workload.engine=llama.cpp --set workload.weights=fp8 &&
	has "$T/err" "warning: engine llama.cpp has no fp8 weights" "check: fp8 weights on llama.cpp's engine"
# both rates: check warns at requests_per_s as report does; peak_factor beside the rate
run 0 check $D/serve.yaml --set workload.requests_per_s=5 &&
	has "$T/err" "^gpuplan check: --set workload.requests_per_s=5: warning: workload.requests_per_s 5 overrides workload.requests_per_day" \
		"check: requests_per_s over requests_per_day warns"
run 0 report --json $D/serve.yaml --set workload.requests_per_s=5 && {
	n=$(grep -c "overrides workload.requests_per_day" "$T/out")
	[ "$n" = 1 ] && ok || bad "report --json: the rate warning $n times, expected once"
}
run 0 check $D/serve.yaml --set workload.requests_per_s=5 --set workload.requests_per_day=0 &&
	has "$T/err" "serve.yaml:13:3: warning: workload.peak_factor 3 is not applied to workload.requests_per_s" \
		"check: peak_factor beside requests_per_s warns at its place"
# the default framework's serving header names the engine it serves as
run 0 report $D/serve.yaml && has "$T/out" "^framework  default: gpuplan's engine: vLLM V1's scheduler" \
	"report: the default serving header names vLLM V1's scheduler"

# --- fmt ------------------------------------------------------------------------------
# a relative hf_config follows the file written elsewhere (into a sibling folder whose
# name starts like the config's: "ab" beside "a")
mkdir -p "$T/a" "$T/ab/c"
cp tests/data/configs/gpt2.json "$T/a/config.json"
printf 'model:\n  hf_config: config.json\nworkload:\n  kind: train\nhardware:\n  gpu: h100-sxm-80gb\n' >"$T/a/s.yaml"
run 0 fmt "$T/a/s.yaml" -o "$T/ab/c/out.yaml" && {
	has "$T/ab/c/out.yaml" '^  hf_config: \.\./\.\./a/config\.json$' "fmt -o rewrites a relative hf_config"
	run 0 check "$T/ab/c/out.yaml"
}
run 0 fmt $D/train.yaml && cp "$T/out" "$T/f1.yaml"
run 0 fmt "$T/f1.yaml" && {
	if cmp -s "$T/out" "$T/f1.yaml"; then ok; else bad "fmt is not idempotent"; diff "$T/f1.yaml" "$T/out" | head; fi
}
run 0 fmt $D/train.yaml -o "$T/f2.yaml" && {
	[ ! -s "$T/out" ] && ok || bad "fmt -o wrote to standard output"
	cmp -s "$T/f1.yaml" "$T/f2.yaml" && ok || bad "fmt -o differs from fmt"
}
# the results never change: the formatted file gives the same report
run 0 report "$T/f1.yaml" --json && {
	grep -v '"file"' "$T/out" >"$T/a.json"
	grep -v '"file"' "$T/train.json" >"$T/b.json"
	cmp -s "$T/a.json" "$T/b.json" && ok || bad "fmt changed the results"
}
run 0 fmt $D/train.yaml --output="$T/f3.yaml" && { cmp -s "$T/f1.yaml" "$T/f3.yaml" && ok || bad "fmt --output=FILE"; }
run_error 2 fmt $D/bad-syntax.yaml
run_error 2 fmt $D/train.yaml -o
run_error 1 fmt $D/train.yaml -o "$T/no-such-dir/x.yaml"

# --- diff -----------------------------------------------------------------------------
run 0 diff $D/train.yaml $D/train.yaml && has "$T/out" 'no differences' "diff of a file with itself"
run 0 diff $D/train.yaml $D/train-1gpu.yaml && {
	has "$T/out" 'hardware.count' "diff inputs"
	has "$T/out" 'memory.per_gpu.optimizer' "diff results"
	has "$T/out" '^!! *memory.fits' "diff highlights the changed fit verdict"
	has "$T/out" '%)' "diff shows the relative change"
}
run 0 diff $D/train.yaml $D/train-1gpu.yaml --markdown && {
	has "$T/out" '^## Inputs' "diff --markdown"
	has "$T/out" '^## Results' "diff --markdown"
	has "$T/out" 'memory.fits' "diff --markdown verdicts"
}
run 0 diff $D/train.yaml $D/train-1gpu.yaml --json && {
	has "$T/out" '"schema":[[:space:]]*"gpuplan.diff/1"' "diff --json"
	if command -v python3 >/dev/null 2>&1; then
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
keys = [i["key"] for i in d["inputs"]]
assert "hardware.count" in keys, keys
assert any(r["key"] == "memory.per_gpu.optimizer" for r in d["results"])
assert any(v["key"] == "memory.fits" for v in d["verdicts"])
assert d["reports"]["a"]["schema"] == "gpuplan.report/1"
' "$T/out" && ok || bad "diff --json content"
	fi
}
"$G" diff $D/train.yaml - <$D/train-1gpu.yaml >"$T/out" 2>"$T/err" && ok || bad "diff A -"
run_error 2 diff $D/train.yaml
run_error 2 diff - -
run_error 2 diff $D/train.yaml $D/invalid.yaml

# --- explain --------------------------------------------------------------------------
"$G" explain $D/train.yaml memory.per_gpu.weights >"$T/out" 2>"$T/err"
st=$?
if [ $st = 1 ] && grep -q 'not available' "$T/err"; then
	echo "note: explain not built (src/explain.h missing); its tests skipped"
elif [ $st = 0 ] && [ -s "$T/out" ]; then
	ok
	run_error 2 explain $D/train.yaml no.such.key
	# without KEY: the keys it explains, on standard output (gpuplan(1))
	run 0 explain $D/train.yaml && {
		has "$T/out" '^memory\.per_gpu\.weights$' "explain FILE lists the keys"
		[ "$(wc -l <"$T/out")" -ge 20 ] && ok "explain FILE lists every key" ||
			bad "explain FILE lists every key"
	}
	run_error 2 explain
	run_error 2 explain $D/invalid.yaml
	run_error 2 explain $D/invalid.yaml memory.per_gpu.weights
else
	bad "explain exited $st"
fi

# --- search, import, catalog ----------------------------------------------------------
run 0 search $D/train.yaml --top 3 && {
	has "$T/out" 'layouts evaluated' "search says how many layouts it computed"
	has "$T/out" '^  1\. ' "search ranks"
	lacks "$T/out" '^  4\. ' "search --top 3"
	if awk 'length > 80 { exit 1 }' "$T/out"; then ok; else bad "search text wider than 80 columns"; fi
}
run 0 search $D/serve.yaml --by cost --top 2 && has "$T/out" 'by cost' "search --by cost"
# a fleet past gpuplan's ceiling under a measured rate names the measurement as its source
run 0 explain scenarios/seed-08-online-customer-service.yaml capacity_plan.replicas \
	--set workload.requests_per_s=1e9 &&
	has "$T/out" "from workload.measured_tokens_per_s" "explain: the ceiling's source"
# an overloaded TTFT is headed 'unbounded', as the reports write it, not '-'
run 0 explain scenarios/team-serve-70b-5m-requests.yaml latency.ttft_p99_s &&
	has "$T/out" "^latency.ttft_p99_s = unbounded$" "explain: an unbounded TTFT's headline"
# a --top past the range says so and gives it; a word is not a count
run 2 search $D/train.yaml --top 99999999999 &&
	has "$T/err" "top 99999999999 is out of range (expected 1 to 100000)" "search --top too large"
run 2 search $D/train.yaml --top many &&
	has "$T/err" "top 'many' is not a count (expected 1 to 100000)" "search --top a word"
# over the catalog's GPUs under a load the count line is the longest (111 columns before
# it was wrapped): every line at most 80 columns, the count's words all there
run 0 search scenarios/team-serve-70b-5m-requests.yaml --hardware && {
	if awk 'length > 80 { exit 1 }' "$T/out"; then ok; else bad "search --hardware text wider than 80 columns"; fi
	tr '\n' ' ' <"$T/out" | grep -q "best 10 by GPUs required (the load's *fleet) over the catalog's GPUs" &&
		ok || bad "search --hardware: the count line wrapped whole"
}
run 0 search $D/train.yaml --top 2 --json && {
	has "$T/out" '"evaluated":' "search --json"
	if command -v python3 >/dev/null 2>&1; then
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d["evaluated"], int) and d["evaluated"] > 0
assert isinstance(d["seconds"], float)
assert 1 <= len(d["results"]) <= 2
for r in d["results"]:
    for k in ("tp", "pp", "dp", "ep", "zero", "micro_batch", "recompute", "sequence_parallel",
              "offload", "virtual_stages"):
        assert k in r["parallel"], k
    assert "gpu" in r["hardware"] and "count" in r["hardware"]
    assert isinstance(r["memory"]["fits"], bool)
    assert isinstance(r["memory"]["per_gpu"]["total"], int)
    for k in ("time", "throughput", "latency", "cost", "bottleneck"):
        assert isinstance(r[k], dict), k
    assert "binding" in r["bottleneck"]
' "$T/out" && ok || bad "search --json content"
	fi
}
# an auto batch is written as the batch the plan ran (the report's slo_batch, else
# max_batch), with batch_auto true; a batch the scenario sets is written as set
if command -v python3 >/dev/null 2>&1; then
	for b in auto 7; do
		"$G" search $D/serve.yaml --top 2 --json --set workload.batch=$b >"$T/s.json" 2>"$T/err" &&
			python3 -c '
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
assert d["results"]
for r in d["results"]:
    p, w = r["parallel"], r["workload"]
    sets = ["parallel.tp=%d" % p["tp"], "parallel.pp=%d" % p["pp"],
            "hardware.gpu=" + r["hardware"]["gpu"], "hardware.count=%d" % r["hardware"]["count"],
            "workload.weights=" + w["weights"], "workload.kv_cache=" + w["kv_cache"],
            "workload.batch=" + sys.argv[3]]
    cmd = [sys.argv[2], "report", sys.argv[4], "--json"]
    for x in sets:
        cmd += ["--set", x]
    cp = json.loads(subprocess.run(cmd, capture_output=True, check=True).stdout)["capacity_plan"]
    if sys.argv[3] == "auto":
        want = cp["slo_batch"] if cp["slo_batch"] else cp["max_batch"]
    else:
        want = int(sys.argv[3])
    assert w["batch"] == int(want) and w["batch"] >= 1, (w, cp)
    assert w["batch_auto"] is (sys.argv[3] == "auto"), w
' "$T/s.json" "$G" $b $D/serve.yaml && ok || bad "search --json batch $b: not the batch the plan ran"
	done
fi
run 0 search $D/train.yaml --scaling && {
	has "$T/out" '^hardware.gpu,hardware.count,parallel.tp,parallel.pp,parallel.dp,' \
		"search --scaling CSV header (search --csv's keys)"
	has "$T/out" '^[a-z0-9-]*,64,' "search --scaling row for the scenario's count"
	has "$T/out" '^[a-z0-9-]*,1024,' "search --scaling goes to 1,024 GPUs, as the S view does"
	has "$T/out" ',bottleneck\.binding,efficiency$' "search --scaling has the efficiency column"
	n=$(awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { print bad ? "ragged" : "even" }' "$T/out")
	[ "$n" = even ] && ok || bad "search --scaling rows have different field counts"
}
run_error 2 search $D/train.yaml --scaling --json
run 0 solve $D/train.yaml --max workload.micro_batch && {
	has "$T/out" '^workload.micro_batch=[0-9][0-9]*$' "solve prints KEY=VALUE"
	v=$(sed -n 's/^workload.micro_batch=//p' "$T/out")
	# the answer fits, and one more does not
	run 0 report $D/train.yaml --json --set workload.micro_batch="$v" &&
		has "$T/out" '"fits":[[:space:]]*true' "solve: the maximum fits"
	run 0 report $D/train.yaml --json --set workload.micro_batch=$((v + 1)) &&
		has "$T/out" '"fits":[[:space:]]*false' "solve: one more does not fit"
}
# standard output is the one KEY=VALUE line, so it goes straight back into --set
run 0 solve $D/train.yaml --min hardware.count && {
	[ "$(wc -l <"$T/out")" -eq 1 ] && ok "solve prints one line on standard output" ||
		bad "solve prints one line on standard output"
	"$G" report $D/train.yaml --set "$(cat "$T/out")" >/dev/null 2>&1 &&
		ok "solve's output is a --set argument" || bad "solve's output is a --set argument"
}
# what works need not start at 1: on 64 GPUs a small batch cannot carry 5M requests a day,
# a large one misses the 50 ms SLO; --max finds the top of what works between (the lone
# step's batch: team-serve itself plans chunked under load, where the load sets the batch)
run 0 solve scenarios/team-serve-70b-5m-requests.yaml --max workload.batch \
	--set hardware.count=64 --set workload.scheduler=alone && has "$T/out" '^workload.batch=575$' "solve --max above a batch that fails"
run_error 2 solve scenarios/team-serve-70b-5m-requests.yaml --max workload.batch \
	--set hardware.count=4 --set workload.scheduler=alone
# an SLO below a lone request's latency: no count meets, and solve says why as report does
run_error 2 solve scenarios/team-serve-70b-5m-requests.yaml --min hardware.count \
	--set workload.slo.tpot=5ms &&
	has "$T/err" "no hardware.count up to .*: cannot meet the tpot target at any number of replicas: a lone request's tpot at P99 is" \
		"solve --min hardware.count gives the lone request's floor"
run_error 2 solve scenarios/team-serve-70b-5m-requests.yaml --min hardware.count \
	--set workload.slo.ttft=20ms --set workload.scheduler=alone &&
	has "$T/err" "cannot meet the ttft target .*a lone request's ttft is" \
		"solve --min hardware.count under alone gives the floor"
# an integer field whose range starts at 0: stage 0 is tried (it read 1: a minimum of 0 was
# taken for "not given"); the 1B model fits without ZeRO, the 7B needs stage 1
run 0 solve $D/train.yaml --min parallel.zero --set model.preset=llama-3.2-1b &&
	has "$T/out" '^parallel.zero=0$' "solve --min parallel.zero tries stage 0"
run 0 report $D/train.yaml --set model.preset=llama-3.2-1b --set parallel.zero=0 --json &&
	has "$T/out" '"fits":[[:space:]]*true' "solve --min parallel.zero: stage 0 fits"
run 0 solve $D/train.yaml --min parallel.zero && has "$T/out" '^parallel.zero=1$' \
	"solve --min parallel.zero: the 7B needs stage 1"
# a 0 that is a mode, not a value, is not an answer: concurrency 0 is open arrivals
run_error 2 solve scenarios/team-serve-70b-5m-requests.yaml --max workload.concurrency \
	--set hardware.count=76 && has "$T/err" 'from 1 up' \
	"solve --max concurrency starts at 1, not at 0 (open arrivals)"
# --max from stage 0 (doubling from 0 goes to 1)
run 0 solve $D/train.yaml --max parallel.zero --set model.preset=llama-3.2-1b \
	--set parallel.zero=0 && has "$T/out" '^parallel.zero=3$' "solve --max parallel.zero from 0"
run 0 solve $D/train.yaml --min hardware.count --json && has "$T/out" '"goal":[[:space:]]*"min"' "solve --json"
# a bisected real prints as units.c writes a count, 3 digits ("5.08M", not
# 5087242.126464844), rounded down under --max so that it still needs no more than the 76
# GPUs; --json keeps the whole value
run 0 solve scenarios/team-serve-70b-5m-requests.yaml --max workload.requests_per_day \
	--set hardware.count=76 && {
	has "$T/out" '^workload.requests_per_day=[1-9]\.[0-9][0-9]M$' "solve prints a real as units.c does"
	"$G" report scenarios/team-serve-70b-5m-requests.yaml --json --set hardware.count=76 \
		--set "$(cat "$T/out")" 2>/dev/null | grep -q '^		"gpus_required":	\([1-6][0-9]\|7[0-6]\),' &&
		ok || bad "solve's rounded --max still needs at most the 76 GPUs"
}
run 0 solve scenarios/team-serve-70b-5m-requests.yaml --max workload.requests_per_day \
	--set hardware.count=76 --json &&
	has "$T/out" '"value":[[:space:]]*[0-9]\{7\}\.[0-9]' "solve --json keeps the value whole"
run_error 2 solve $D/train.yaml
run_error 2 solve $D/train.yaml --max no.such.key
run_error 2 solve $D/train.yaml --max name
run_error 2 solve $D/train.yaml --max workload.seq_len --min hardware.count
run_error 2 search $D/train.yaml --top 0
run_error 2 search $D/train.yaml --by speed
run_error 2 search $D/train.yaml --top
run_error 2 search $D/invalid.yaml
run 0 import $D/llama-2-7b-config.json && {
	has "$T/out" '^model:' "import writes a model: block"
	has "$T/out" 'layers: 32' "import: the layer count"
}
run 0 import $D/llama-2-7b-config.json -o "$T/model.yaml" && {
	[ ! -s "$T/out" ] && ok || bad "import -o wrote to standard output"
	has "$T/model.yaml" '^model:' "import -o"
}
run_error 1 import $D/no-such-config.json
run_error 2 import $D/bad-json.json && has "$T/err" "bad-json.json:[0-9][0-9]*:" "import error position"
# a repeated key: transformers keeps the last value, cJSON the first; refused at the second
run_error 2 import $D/duplicate-key.json &&
	has "$T/err" "duplicate-key.json:16:3: duplicate key 'hidden_size' (first given at line 9)" \
		"import refuses a repeated key, at its second occurrence"
run_error 2 import
# import by Hub id from a fake Hugging Face cache: refs/main names the snapshot, else the
# only snapshot with a config.json; several and no refs/main is an error that lists them,
# not a guess; HF_HUB_CACHE before HF_HOME/hub; nothing downloaded. model.hf_config takes
# a Hub id too, when no file beside the scenario has that name.
H=$T/hf/hub/models--org--tiny
mkdir -p "$H/snapshots/aaa" "$H/snapshots/bbb" "$H/refs"
cp $D/llama-2-7b-config.json "$H/snapshots/aaa/config.json"
cp catalog/models/llama-3.2-1b.json "$H/snapshots/bbb/config.json"
printf 'aaa\n' >"$H/refs/main"
HF_HOME=$T/hf run 0 import org/tiny && has "$T/out" 'layers: 32' "import ORG/NAME: refs/main's snapshot"
HF_HOME=/nonexistent HF_HUB_CACHE=$T/hf/hub run 0 import org/tiny && has "$T/out" 'layers: 32' "import ORG/NAME: HF_HUB_CACHE"
printf 'gpuplan: 1\nmodel:\n  hf_config: org/tiny\nworkload:\n  kind: online\nhardware:\n  gpu: h100-sxm-80gb\n' >"$T/hub.yaml"
HF_HOME=$T/hf run 0 report "$T/hub.yaml" --json &&
	has "$T/out" '"params":[[:space:]]*6738415616' "model.hf_config: ORG/NAME from the cache"
HF_HOME=/nonexistent run_error 2 check "$T/hub.yaml" &&
	has "$T/err" 'hub.yaml:3:14: model.hf_config: .*no config.json for the Hub id' \
		"model.hf_config: ORG/NAME not cached"
rm "$H/refs/main"
HF_HOME=$T/hf run_error 1 import org/tiny &&
	has "$T/err" "2 snapshots of 'org/tiny' with a config.json (aaa, bbb) and no refs/main" \
		"import ORG/NAME: several snapshots, no refs/main"
HF_HOME=$T/hf run_error 2 check "$T/hub.yaml" && has "$T/err" 'hub.yaml:3:14: .*(aaa, bbb)' \
	"model.hf_config: several snapshots, no refs/main"
rm "$H/snapshots/aaa/config.json"
HF_HOME=$T/hf run 0 import org/tiny && has "$T/out" 'layers: 16' "import ORG/NAME: the one snapshot"
HF_HOME=$T/hf run_error 1 import org/absent && has "$T/err" 'Hugging Face cache' "import ORG/NAME: not cached"
mkdir -p "$T/hf/hub/models--org--dup/snapshots/ccc"
cp $D/duplicate-key.json "$T/hf/hub/models--org--dup/snapshots/ccc/config.json"
HF_HOME=$T/hf run_error 2 import org/dup &&
	has "$T/err" "ccc/config.json:16:3: duplicate key 'hidden_size' (first given at line 9)" \
		"import ORG/NAME: a repeated key in the cached config.json"
# what the import assumed and the weights' quantization go to stderr, stdout stays YAML
run 0 import catalog/models/gpt-oss-120b.json && {
	has "$T/err" 'warning: quantization_config: mxfp4' "import names MXFP4"
	has "$T/out" '^model:' "import with warnings still writes the model"
}
run 0 catalog && {
	has "$T/out" 'h100-sxm-80gb' "catalog lists GPUs"
	has "$T/out" 'llama-2-7b' "catalog lists models"
	has "$T/out" 'sparse' "catalog marks sparse figures"
}
run 0 catalog gpus && {
	lacks "$T/out" 'llama-2-7b' "catalog gpus"
	# the FP4/FP6 dense peaks on their own line, only for GPUs that have them
	has "$T/out" '^  microscaled dense: nvfp4 9000, mxfp4 9000, fp6 4500 TFLOP/s$' \
		"catalog gpus shows B200's FP4 peaks"
	if awk '/^h100-sxm-80gb /{h=1; next} /^[a-z0-9]/{h=0} h && /microscaled/{exit 1}' \
		"$T/out"; then ok; else bad "catalog gpus: FP4 peaks on a GPU without them"; fi
}
# the catalog's table fits 80 columns, peaks of 10,000 TFLOP/s and more included (MI355X)
run 0 catalog && {
	if awk 'length > 80 { exit 1 }' "$T/out"; then ok; else bad "catalog wider than 80 columns"; fi
}
run 0 catalog models && lacks "$T/out" 'h100-sxm-80gb' "catalog models"
run_error 2 catalog nothing
# a user model file that does not import is skipped with one warning; the rest works
mkdir -p "$T/xdg/gpuplan/models/dir.json"
printf '{bad\n' >"$T/xdg/gpuplan/models/oops.json"
cp $D/duplicate-key.json "$T/xdg/gpuplan/models/twice.json"
XDG_CONFIG_HOME=$T/xdg run 0 catalog models && {
	has "$T/err" 'warning: .*oops.json:1:.*(skipped)' "bad user model file named"
	has "$T/err" "warning: .*twice.json:16:3: duplicate key 'hidden_size'.*(skipped)" \
		"a user model file with a repeated key is skipped, with its place"
	lacks "$T/out" 'twice' "the repeated-key model is not listed"
	has "$T/err" 'dir.json' "a folder named .json named"
	has "$T/out" 'llama-2-7b' "the catalog still lists the shipped models"
}
printf 'model:\n  preset: oops\n' >"$T/oops.yaml"
XDG_CONFIG_HOME=$T/xdg run 2 check "$T/oops.yaml" &&
	has "$T/err" "oops.yaml:2:11: model 'oops' is not in the catalog: the user's file for it was skipped (.*oops.json:1:3: invalid JSON" \
		"a scenario using it fails, pointing at the bad file"
# a user gpus.yaml entry that does not read is skipped with one FILE:LINE:COL warning, and
# so is a user gpus.yaml that does not parse; a scenario naming a skipped GPU says why
mkdir -p "$T/xdgg/gpuplan"
printf 'gpus:\n  - id: my-gpu\n    name: Mine\n    vendor: nvidia\n    memory: banana\n  - id: other-gpu\n    bogus_key: 1\n' \
	>"$T/xdgg/gpuplan/gpus.yaml"
XDG_CONFIG_HOME=$T/xdgg run 0 report scenarios/default.yaml && {
	has "$T/err" "warning: .*gpus.yaml:5:13: memory: cannot read 'banana'.*(GPU entry 'my-gpu' skipped)" \
		"bad user GPU value: one warning with its place"
	has "$T/err" "warning: .*gpus.yaml:7:5: unknown key 'bogus_key'.*(GPU entry 'other-gpu' skipped)" \
		"unknown key in a user GPU entry: one warning with its place"
	has "$T/out" 'Llama 3.1 8B' "a scenario that does not use the bad GPU still reports"
}
XDG_CONFIG_HOME=$T/xdgg run 0 catalog gpus && {
	has "$T/err" "gpus.yaml:5:13: .*skipped" "catalog gpus shows the warning"
	has "$T/out" 'h100-sxm-80gb' "catalog gpus lists the built-in GPUs"
	lacks "$T/out" 'my-gpu' "catalog gpus lists no skipped GPU"
}
printf 'model:\n  preset: llama-2-7b\nhardware:\n  gpu: my-gpu\n' >"$T/mygpu.yaml"
XDG_CONFIG_HOME=$T/xdgg run_error 2 check "$T/mygpu.yaml" && {
	has "$T/err" "mygpu.yaml:4:8: GPU 'my-gpu' is not in the catalog: the user's entry for it was skipped (.*gpus.yaml:5:13: memory: cannot read 'banana'" \
		"a scenario naming a skipped GPU points at the bad entry"
	has "$T/err" "warning: .*gpus.yaml:5:13" "check shows the catalog warning"
}
printf 'gpus:\n  - id: [\n' >"$T/xdgg/gpuplan/gpus.yaml"
XDG_CONFIG_HOME=$T/xdgg run 0 report scenarios/default.yaml &&
	has "$T/err" 'warning: .*gpus.yaml:3:1: invalid YAML.*(file skipped)' "a user gpus.yaml that does not parse is skipped"
XDG_CONFIG_HOME=$T/xdgg run_error 2 check "$T/mygpu.yaml" &&
	has "$T/err" "GPU 'my-gpu' is not in the catalog: the user's gpus.yaml, which may name it, was skipped" \
		"a scenario naming a GPU the unparsable file may hold says so"

# settings a framework cannot run with: exit 2 at the setting's FILE:LINE:COL, naming both
# (issue 12); llm.c's ZeRO-3 runs as stage 0, a warning in the report
printf 'model:\n  preset: llama-3.1-8b\nworkload:\n  kind: train\n  framework: deepspeed\nhardware:\n  gpu: h100-sxm-80gb\n  count: 8\nparallel:\n  pp: 2\n  zero: 3\n' \
	>"$T/ds-pp.yaml"
run_error 2 check "$T/ds-pp.yaml" &&
	has "$T/err" "ds-pp.yaml:11:3: framework deepspeed cannot run parallel.zero 3 with parallel.pp 2 .*expected zero 0 or 1" \
		"deepspeed ZeRO-3 under a pipeline: a problem at parallel.zero"
sed 's/framework: deepspeed/framework: llm.c/; s/  pp: 2/  tp: 2/' "$T/ds-pp.yaml" >"$T/llmc-tp.yaml"
run_error 2 check "$T/llmc-tp.yaml" &&
	has "$T/err" "llmc-tp.yaml:10:3: framework llm.c has no tensor parallelism (parallel.tp 2; expected tp 1" \
		"llm.c with tp: a problem at parallel.tp"
sed '/  tp: 2/d' "$T/llmc-tp.yaml" >"$T/llmc-z3.yaml"
run 0 report "$T/llmc-z3.yaml" && {
	has "$T/out" "framework llm.c runs parallel.zero 3 as stage 0" "llm.c ZeRO-3: a warning naming both"
	has "$T/out" "ZeRO 0" "llm.c ZeRO-3: the layout runs stage 0"
}
run_error 2 check $D/train.yaml --set workload.kind=online --set workload.framework=vllm --set workload.engine=llama.cpp &&
	has "$T/err" "framework vllm does not run workload.engine llama.cpp" "vllm with engine llama.cpp: a problem"

# --- options as getopt_long reads them (issue 18) ---------------------------------------
# --opt=VALUE, short options and their bundles, abbreviations, "--"; each gives what the
# long spelling gives
run 0 search $D/train.yaml --top 2 --by cost && cp "$T/out" "$T/s-long.txt"
for form in "--top=2 --by=cost" "-n 2 --by cost" "-n2 --by=cost" "--to 2 --b cost" "--by=c --top=2"; do
	# --by=c is not cost: expect an error there, the rest the same text
	case $form in
	*"--by=c "*) run_error 2 search $D/train.yaml $form ;;
	*)
		run 0 search $D/train.yaml $form &&
			{ sed '/layouts evaluated/d' "$T/out" >"$T/a.txt"
			  sed '/layouts evaluated/d' "$T/s-long.txt" >"$T/b.txt"
			  cmp -s "$T/a.txt" "$T/b.txt" && ok || bad "search $form differs from --top 2 --by cost"; } ;;
	esac
done
run 0 report $D/train.yaml -j && cmp -s "$T/out" "$T/train.json" && ok || bad "report -j is --json"
run 0 report $D/train.yaml --js && cmp -s "$T/out" "$T/train.json" && ok || bad "report --js is --json"
run 0 report $D/train.yaml -m && has "$T/out" '^## Summary' "report -m is --markdown"
run 0 report $D/train.yaml --mark && has "$T/out" '^## Summary' "report --mark is --markdown"
run 0 report $D/train.yaml --json --set=parallel.zero=3 && cp "$T/out" "$T/zero3.json"
run 0 report -js parallel.zero=3 $D/train.yaml && cmp -s "$T/out" "$T/zero3.json" && ok ||
	bad "report -js KEY=VALUE (a bundle ending in an option with its argument)"
run 0 report -jsparallel.zero=3 $D/train.yaml && cmp -s "$T/out" "$T/zero3.json" && ok ||
	bad "report -jsKEY=VALUE"
run 0 search $D/train.yaml -jn2 && has "$T/out" '"evaluated":' "search -jn2"
run 0 fmt $D/train.yaml -o"$T/f4.yaml" && { cmp -s "$T/f1.yaml" "$T/f4.yaml" && ok || bad "fmt -oFILE"; }
run 0 fmt $D/train.yaml --out "$T/f5.yaml" && { cmp -s "$T/f1.yaml" "$T/f5.yaml" && ok || bad "fmt --out FILE"; }
run 0 solve $D/train.yaml --max=workload.micro_batch && has "$T/out" '^workload.micro_batch=' "solve --max=KEY"
run 0 solve $D/train.yaml --mi hardware.count && has "$T/out" '^hardware.count=' "solve --mi KEY"
# "--" ends the options: what follows is a file, even when it starts with a dash
cp $D/train.yaml "$T/-dash.yaml"
case $G in /*) GA=$G ;; *) GA=$PWD/$G ;; esac
(cd "$T" && "$GA" check -- -dash.yaml) >"$T/out" 2>"$T/err" && has "$T/out" '^-dash.yaml: ok$' "check -- -FILE" ||
	bad "check -- -FILE"
(cd "$T" && "$GA" check -dash.yaml) >"$T/out" 2>"$T/err"
[ $? = 2 ] && ok || bad "check -FILE without -- is options"
run_error 2 report -- $D/train.yaml --json && has "$T/err" "too many arguments ('--json')" "-- FILE --json"
run_error 2 report $D/train.yaml -- --json
# errors: ambiguous, unknown, a value given to a flag, a missing argument, another command's
run_error 2 search $D/train.yaml --h && has "$T/err" "'--h' is ambiguous" "an ambiguous abbreviation"
run_error 2 report $D/train.yaml --json=yes && has "$T/err" "'--json' takes no value" "--json=VALUE"
run_error 2 report $D/train.yaml -x && has "$T/err" "unknown option '-x'" "an unknown short option"
run_error 2 report $D/train.yaml -jx && has "$T/err" "unknown option '-x'" "an unknown option in a bundle"
run_error 2 report $D/train.yaml --top 3 && has "$T/err" "unknown option '--top'" "another command's option"
run_error 2 search $D/train.yaml --top=0
run_error 2 search $D/train.yaml --top=
run_error 2 search $D/train.yaml -n && has "$T/err" "needs a value" "-n without N"
run_error 2 fmt $D/train.yaml --output= && has "$T/err" "needs a file name" "--output= (empty)"
POSIXLY_CORRECT=1 run 0 report $D/train.yaml --json && cmp -s "$T/out" "$T/train.json" && ok ||
	bad "options after the file under POSIXLY_CORRECT"

# --- CSV (issue 18): --csv wherever there is a table, read back by python3's csv module ---
# csvcheck FILE DESCRIPTION PYTHON: PYTHON sees rows (the header's dicts) and head
csvcheck() {
	if ! command -v python3 >/dev/null 2>&1; then ok; return; fi
	python3 -c '
import csv, sys
with open(sys.argv[1], newline="") as f:
    r = csv.reader(f)
    lines = list(r)
head, body = lines[0], lines[1:]
assert all(len(l) == len(head) for l in body), "ragged rows"
rows = [dict(zip(head, l)) for l in body]
exec(sys.argv[2])
' "$1" "$3" && ok || bad "$2"
}
run 0 search $D/train.yaml --csv --top 3 && csvcheck "$T/out" "search --csv" '
assert head[:4] == ["rank", "hardware.gpu", "hardware.count", "parallel.tp"], head
for k in ("parallel.offload", "workload.recompute", "memory.per_gpu.total", "time.step_s",
          "throughput.tokens_per_s_per_gpu", "cost.usd_per_million_tokens", "bottleneck.binding"):
    assert k in head, k
assert 1 <= len(rows) <= 3 and rows[0]["rank"] == "1"
assert rows[0]["hardware.count"] == "64" and rows[0]["memory.fits"] == "true"
assert rows[0]["parallel.offload"] in ("none", "optimizer", "optimizer+params")
assert rows[0]["workload.recompute"] in ("none", "selective", "full", "op")
assert int(rows[0]["memory.per_gpu.total"]) > 0 and float(rows[0]["time.step_s"]) > 0
assert rows[0]["workload.batch"] == ""  # not read by training'
run 0 search $D/train.yaml --csv --top 2 && cp "$T/out" "$T/search.csv"
run 0 search $D/train.yaml --json --top 2 && command -v python3 >/dev/null 2>&1 && {
	python3 -c '
import csv, json, sys
j = json.load(open(sys.argv[1]))["results"]
c = list(csv.DictReader(open(sys.argv[2], newline="")))
assert len(j) == len(c)
for a, b in zip(j, c):
    assert a["hardware"]["gpu"] == b["hardware.gpu"]
    assert a["parallel"]["offload"] == b["parallel.offload"]
    assert a["parallel"]["dp"] == int(b["parallel.dp"])
    assert a["memory"]["per_gpu"]["total"] == int(b["memory.per_gpu.total"])
    assert abs(a["time"]["step_s"] - float(b["time.step_s"])) <= 1e-9 * a["time"]["step_s"]
' "$T/out" "$T/search.csv" && ok || bad "search --csv agrees with search --json"
}
run 0 search $D/serve.yaml --csv --top 2 && csvcheck "$T/out" "search --csv (inference)" '
assert rows[0]["workload.weights"] and rows[0]["workload.kv_cache"]
assert rows[0]["workload.batch"] == "auto" or int(rows[0]["workload.batch"]) >= 1
assert rows[0]["parallel.zero"] == "" and float(rows[0]["latency.tpot_s"]) > 0'
run 0 search $D/train.yaml --scaling --csv && csvcheck "$T/out" "search --scaling --csv" '
assert head[:5] == ["hardware.gpu", "hardware.count", "parallel.tp", "parallel.pp",
                    "parallel.dp"] and head[-1] == "efficiency", head
r = [x for x in rows if x["hardware.count"] == "64"][0]
assert r["memory.fits"] == "true"
assert r["parallel.offload"] in ("none", "optimizer", "optimizer+params")
assert all(x["parallel.offload"] != "all" for x in rows)'
# offload of parameters is named as a scenario file names it, not "all"
run 0 search scenarios/seed-05a-gpt3-one-a100-fp32.yaml --scaling &&
	csvcheck "$T/out" "search --scaling offload names" '
assert all(x["parallel.offload"] in ("", "none", "optimizer", "optimizer+params")
           for x in rows), rows
assert any(x["parallel.offload"] == "optimizer+params" for x in rows)'
run_error 2 search $D/train.yaml --csv --json && has "$T/err" "cannot be used together" "--csv --json"
run 0 catalog gpus --csv && csvcheck "$T/out" "catalog gpus --csv" '
for k in ("id", "memory_bytes", "hbm_bytes_per_s", "peak_flops.bf16", "sparse_flops.bf16",
          "link_bytes_per_s", "power_w", "price_per_hour", "file"):
    assert k in head, k
h = [x for x in rows if x["id"] == "h100-sxm-80gb"][0]
assert int(h["memory_bytes"]) == 80 * 2**30 and abs(float(h["cuda_total_bytes"]) - 79.11 * 2**30) < 1
assert float(h["peak_flops.bf16"]) == 989.4e12, h["peak_flops.bf16"]
assert h["peak_flops.int4"] == "" and h["file"].endswith("gpus.yaml")'
run 0 catalog models --csv && csvcheck "$T/out" "catalog models --csv" '
assert head == ["id", "params", "active_params", "layers", "hidden", "heads", "kv_heads",
                "max_context", "file"], head
m = [x for x in rows if x["id"] == "llama-2-7b"][0]
assert m["layers"] == "32" and m["hidden"] == "4096" and 6.5e9 < int(m["params"]) < 7e9'
run_error 2 catalog --csv && has "$T/err" "give gpus or models" "catalog --csv needs one table"
# a notes field with a comma, quotes and a line break survives the quoting
{ cat $D/train.yaml; printf 'notes: "a, \\"quoted\\" note\\nover two lines"\n'; } >"$T/noted.yaml"
run 0 diff $D/train.yaml "$T/noted.yaml" --csv && csvcheck "$T/out" "diff --csv" '
assert head == ["section", "key", "a", "b", "change", "relative"], head
n = [x for x in rows if x["key"] == "notes"][0]
assert n["section"] == "input" and n["b"] == "a, \"quoted\" note\nover two lines", repr(n["b"])'
run 0 diff $D/train.yaml $D/train-1gpu.yaml --csv && csvcheck "$T/out" "diff --csv verdicts and results" '
v = [x for x in rows if x["section"] == "verdict"]
assert v and v[0]["key"] == "memory.fits" and v[0]["a"] == "fits" and v[0]["b"] == "does not fit"
c = [x for x in rows if x["key"] == "hardware.count"][0]
assert c["section"] == "input" and c["a"] == "64" and c["b"] == "1", c
r = [x for x in rows if x["section"] == "result"]
assert r and all(x["a"] != "" or x["b"] != "" for x in r)
t = [x for x in r if x["key"] == "memory.per_gpu.total"][0]
assert int(t["change"]) == int(t["b"]) - int(t["a"])'
run 0 validate --csv && csvcheck "$T/out" "validate --csv" '
for k in ("id", "group", "source", "framework", "gpu", "workload", "scale", "figure", "unit",
          "measured", "predicted", "error", "tolerance", "pinned"):
    assert k in head, k
assert len(rows) >= 10
r = rows[0]
assert abs((float(r["predicted"]) - float(r["measured"])) / float(r["measured"]) - float(r["error"])) < 1e-6'

# --- diff --json never cuts a value (issue 18): a notes field of 1,500 bytes and two lines
python3 -c 'print("notes: \"" + "long note " * 100 + "\\n" + "second line é " * 30 + "\"")' \
	>"$T/long-notes.txt" 2>/dev/null && {
	cat $D/train.yaml "$T/long-notes.txt" >"$T/long.yaml"
	run 0 diff $D/train.yaml "$T/long.yaml" --json && python3 -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
n = [x for x in d["inputs"] if x["key"] == "notes"]
assert len(n) == 1, d["inputs"]
want = "long note " * 100 + "\n" + "second line \u00e9 " * 30
assert n[0]["a"] == "" and n[0]["b"] == want, (len(n[0]["b"]), n[0]["b"][-20:])
assert "\u2026" not in n[0]["b"]
assert d["reports"]["b"]["scenario"]["name"] == "Llama-2-7B pre-training"
' "$T/out" && ok || bad "diff --json carries a long notes value whole"
	# the 80-column text still cuts it, and says so
	run 0 diff $D/train.yaml "$T/long.yaml" && has "$T/out" '^       B: long note .*\.\.\.$' "diff text cuts a long value"
	run 0 diff $D/train.yaml "$T/long.yaml" --csv && csvcheck "$T/out" "diff --csv carries a long value whole" '
n = [x for x in rows if x["key"] == "notes"][0]
assert len(n["b"]) == 1000 + 1 + 14 * 30 and n["b"].endswith("\u00e9 ")'
}

# --- check --json and catalog --json (issue 18), parsed by python3 ----------------------
# jsoncheck FILE DESCRIPTION PYTHON: PYTHON sees d, the document
jsoncheck() {
	if ! command -v python3 >/dev/null 2>&1; then ok; return; fi
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
exec(sys.argv[2])
' "$1" "$3" && ok || bad "$2"
}
# every problem that the text lists, with file, line, column, key and message; exit 2
"$G" check $D/invalid.yaml >/dev/null 2>"$T/check.txt"
run 2 check $D/invalid.yaml --json && jsoncheck "$T/out" "check --json: the problems" '
assert d["schema"] == "gpuplan.check/1" and d["file"] == "tests/data/cli/invalid.yaml"
assert d["ok"] is False and d["count"] == len(d["problems"]) >= 2 and d["dropped"] == 0
for p in d["problems"]:
    assert set(p) == {"file", "line", "column", "key", "message"}, p
    assert p["file"] == "tests/data/cli/invalid.yaml"
    assert isinstance(p["line"], int) and isinstance(p["column"], int) and p["key"], p
import re
text = open(sys.argv[1].rsplit("/", 1)[0] + "/check.txt").read().splitlines()
text = [l for l in text if not re.search(r": [0-9]+ problems?$", l)]
assert len(text) == d["count"], (text, d["count"])
for p, l in zip(d["problems"], text):
    assert l == "%s:%d:%d: %s" % (p["file"], p["line"], p["column"], p["message"]), l
tp = [p for p in d["problems"] if p["key"] == "parallel.tp"]
assert tp and tp[0]["line"] == 16 and tp[0]["column"] == 3'
[ -s "$T/err" ] && bad "check --json: the problems went to stderr too" || ok
run 0 check $D/train.yaml --json && jsoncheck "$T/out" "check --json: a good file" '
assert d["ok"] is True and d["count"] == 0 and d["problems"] == [] and d["warnings"] == []'
run 0 check $D/serve.yaml --json --set workload.framework=vllm --set parallel.zero=1 &&
	jsoncheck "$T/out" "check --json: a framework warning" '
assert d["ok"] is True and d["problems"] == [], d
assert d["warnings"] == ["--set parallel.zero=1: workload.kind online under framework vllm does not use parallel.zero, which is set (ignored: it applies to training workloads)"], d'
run 0 report $D/serve.yaml --json --set workload.framework=vllm --set parallel.zero=1 \
	--set workload.optimizer=adam8bit && jsoncheck "$T/out" "report --json: the ignored fields in warnings" '
w = d["warnings"]
assert "--set parallel.zero=1: workload.kind online under framework vllm does not use parallel.zero, which is set (ignored: it applies to training workloads)" in w[:2], w
assert [x for x in w[:2] if x.startswith("--set workload.optimizer=adam8bit: workload.kind online under framework vllm does not use workload.optimizer")], w
assert not [x for x in w if x.startswith("framework vllm does not use parallel.zero")], w' &&
	lacks "$T/err" "warning" "report --json: the warnings only in the JSON"
run 0 report "$T/ignored.yaml" --json && jsoncheck "$T/out" "report --json: warnings at FILE:LINE:COL" '
assert [x for x in d["warnings"] if x.endswith("ignored.yaml:8:3: workload.kind online under framework vllm does not use workload.optimizer, which is set (ignored: it applies to training workloads)")], d["warnings"]'
run 0 report $D/train.yaml --json && jsoncheck "$T/out" "report --json: a plain scenario has no warnings" '
assert d["warnings"] == [], d["warnings"]'
run 2 check $D/bad-syntax.yaml --json && jsoncheck "$T/out" "check --json: a value that does not read" '
p = d["problems"][0]
assert p["line"] == 7 and p["column"] == 12 and p["key"] == "workload.seq_len", p'
run 2 check $D/train.yaml --json --set parallel.tp=3 && jsoncheck "$T/out" "check --json: a --set problem" '
p = [x for x in d["problems"] if x["key"] == "parallel.tp"][0]
assert p["file"] == "--set parallel.tp=3" and p["line"] is None and p["column"] is None, p'
run_error 1 check $D/no-such-file.yaml --json
run 0 catalog --json && jsoncheck "$T/out" "catalog --json" '
assert d["schema"] == "gpuplan.catalog/1"
h = [g for g in d["gpus"] if g["id"] == "h100-sxm-80gb"][0]
for k in ("name", "vendor", "memory_bytes", "hbm_bytes_per_s", "peak_flops", "sparse_flops",
          "link", "link_bytes_per_s", "pcie_bytes_per_s", "power_w", "price_per_hour", "file"):
    assert k in h, k
assert h["memory_bytes"] == 80 * 2**30 and abs(h["cuda_total_bytes"] - 79.11 * 2**30) < 1 and h["hbm_bytes_per_s"] == 3.35e12
assert h["peak_flops"]["bf16"] == 989.4e12 and h["peak_flops"]["int4"] is None
assert h["sparse_flops"]["bf16"] > h["peak_flops"]["bf16"]
m = [x for x in d["models"] if x["id"] == "llama-2-7b"][0]
assert m["layers"] == 32 and m["hidden"] == 4096 and m["heads"] == 32 and m["kv_heads"] == 32
assert isinstance(m["params"], int) and 6.5e9 < m["params"] < 7e9 and m["file"].endswith(".json")
assert len(d["gpus"]) >= 10 and len(d["models"]) >= 10'
run 0 catalog gpus --json && jsoncheck "$T/out" "catalog gpus --json" '
assert "gpus" in d and "models" not in d'
run 0 catalog models --json && jsoncheck "$T/out" "catalog models --json" '
assert "models" in d and "gpus" not in d'
run_error 2 catalog --json --csv

# --- explain --json (issue 18): formula, terms, result, source, the value as the report ---
run 0 report $D/train.yaml --json && cp "$T/out" "$T/train-report.json"
run 0 explain $D/train.yaml memory.per_gpu.optimizer --json && jsoncheck "$T/out" "explain --json" '
assert d["schema"] == "gpuplan.explain/1" and d["key"] == "memory.per_gpu.optimizer", d
assert set(d) == {"schema", "key", "label", "value", "unit", "formula", "terms", "result",
                  "source", "not_applicable", "text"}, sorted(d)
assert d["formula"].startswith("optimizer = ") and " x " in d["terms"], d
assert d["result"] and "ZeRO" in d["source"] and d["not_applicable"] is None, d
r = json.load(open(sys.argv[1].rsplit("/", 1)[0] + "/train-report.json"))
assert d["value"] == r["memory"]["per_gpu"]["optimizer"] and d["unit"] == "bytes", d
assert d["text"].startswith("memory.per_gpu.optimizer = ")'
run 0 explain $D/train.yaml memory.per_gpu.optimizer && cp "$T/out" "$T/explain.txt"
run 0 explain $D/train.yaml memory.per_gpu.optimizer -j && jsoncheck "$T/out" "explain --json: text is what explain prints" '
assert d["text"] == open(sys.argv[1].rsplit("/", 1)[0] + "/explain.txt").read()'
run 0 explain $D/serve.yaml memory.per_gpu.optimizer --json && jsoncheck "$T/out" "explain --json: not applicable" '
assert d["not_applicable"] and d["formula"] is None and d["result"] is None, d'
run 0 explain $D/train.yaml bottleneck.binding --json && jsoncheck "$T/out" "explain --json: a word" '
r = json.load(open(sys.argv[1].rsplit("/", 1)[0] + "/train-report.json"))
assert d["value"] == r["bottleneck"]["binding"] and d["formula"], d'
run 0 explain $D/train.yaml --json && jsoncheck "$T/out" "explain FILE --json: the keys" '
assert d["schema"] == "gpuplan.explain/1" and "memory.per_gpu.weights" in d["keys"]
assert d["keys"][-4:] == ["memory.fits", "serving.policy", "serving.overloaded", "bottleneck.binding"], d["keys"][-4:]'
# every key, on a training and a serving scenario: valid JSON with a formula or a reason
for f in $D/train.yaml $D/serve.yaml; do
	for k in $("$G" explain "$f"); do
		"$G" explain "$f" "$k" --json
	done >"$T/all.json" 2>"$T/err" || bad "explain --json of every key of $f"
	python3 -c '
import json, sys
text, dec, at, n = open(sys.argv[1]).read(), json.JSONDecoder(), 0, 0
while text[at:].strip():
    d, at = dec.raw_decode(text, at + len(text[at:]) - len(text[at:].lstrip()))
    assert d["formula"] or d["not_applicable"] or d["result"] or d["source"], d["key"]
    n += 1
assert n >= 50, n' "$T/all.json" && ok || bad "explain --json of every key of $f"
done
run_error 2 explain $D/train.yaml no.such.key --json

summary cli
