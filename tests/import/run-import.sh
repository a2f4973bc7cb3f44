#!/bin/sh
# gpuplan import (gpuplan(1), import): every config of tests/data/configs and
# catalog/models imported, by default, as a whole scenario that `check` accepts and `report`
# plans with the config's parameter count (issue 18): exactly the count, total and active,
# that model.hf_config of the same file plans (issue 14); --scenario is accepted and writes
# the same; --model-only writes the model: block alone; --scenario with --model-only is
# refused.
# Run from anywhere; runs $GPUPLAN, by default ./gpuplan.
. "$(dirname "$0")/../lib.sh"
program
scratch import
ERR=$T/err

n=0
for cfg in tests/data/configs/*.json catalog/models/*.json; do
	n=$((n + 1))
	out=$T/s$n.yaml
	if ! "$G" import "$cfg" -o "$out" 2>"$T/err"; then
		bad "import $cfg exited $?"
		continue
	fi
	if "$G" check "$out" >"$T/out" 2>"$T/err" && grep -q ": ok$" "$T/out"; then ok; else
		bad "check rejects the scenario imported from $cfg"
		continue
	fi
	grep -q '^# Edit: ' "$out" && grep -q '^workload:' "$out" && grep -q '^hardware:' "$out" &&
		ok || bad "$cfg: the scenario lacks its commented workload or hardware"
	# the model the scenario plans is the one the model: block alone gives
	"$G" import --model-only "$cfg" >"$T/block" 2>/dev/null
	[ "$(head -1 "$T/block")" = "model:" ] && ! grep -q '^workload:' "$T/block" && ok ||
		bad "$cfg: --model-only is not the model: block alone"
	"$G" report "$out" --json >"$T/a.json" 2>"$T/err"
	{
		cat "$T/block"
		printf 'workload:\n  kind: online\nhardware:\n  gpu: h100-sxm-80gb\n'
	} >"$T/b.yaml"
	"$G" report "$T/b.yaml" --json >"$T/b.json" 2>/dev/null
	if python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert a["model"]["params"] == b["model"]["params"] > 0, (a["model"], b["model"])
' "$T/a.json" "$T/b.json"; then ok; else bad "$cfg: the scenario's model is not the block's"; fi
	# and the imported scenario plans exactly the count of the config itself, total and
	# active: no detail of the config (a head bias, attention sinks, a full-width QK
	# norm) is lost on the way through the scenario's fields
	{
		printf 'gpuplan: 1\nmodel:\n  hf_config: "%s"\n' "$PWD/$cfg"
		printf 'workload:\n  kind: online\nhardware:\n  gpu: h100-sxm-80gb\n'
	} >"$T/c.yaml"
	"$G" report "$T/c.yaml" --json >"$T/c.json" 2>"$T/err"
	if python3 -c '
import json, sys
a, c = (json.load(open(f))["model"] for f in sys.argv[1:3])
for k in ("params", "active_params", "vision_params"):
    assert a[k] == c[k], (k, a[k], c[k])
assert c["params"] > 0
' "$T/a.json" "$T/c.json"; then ok; else bad "$cfg: import plans another count than hf_config"; fi
done
[ "$n" -ge 60 ] && ok || bad "only $n configs in tests/data/configs and catalog/models"

# the default and --scenario: the same whole scenario, which holds the --model-only block
cfg=tests/data/configs/Llama-2-7b-hf.json
"$G" import "$cfg" >"$T/d" 2>/dev/null
"$G" import --scenario "$cfg" >"$T/s" 2>/dev/null
"$G" import --model-only "$cfg" >"$T/m" 2>/dev/null
if cmp -s "$T/d" "$T/s" && grep -q '^workload:' "$T/d" && [ "$(head -1 "$T/m")" = "model:" ] &&
	! grep -q '^workload:' "$T/m"; then ok; else bad "the default import is not the whole scenario"; fi
# the block, line for line, is in the scenario, between the name and the workload
if python3 -c '
import sys
d, m = (open(f).read() for f in sys.argv[1:3])
assert m.startswith("model:\n") and m in d, "block not in the scenario"
assert d.index(m) < d.index("\nworkload:\n"), "block after the workload"
' "$T/d" "$T/m"; then ok; else bad "the scenario does not hold the --model-only block"; fi
# and the block alone is what check refuses: no workload.kind, no hardware.gpu
if "$G" check "$T/m" >/dev/null 2>&1; then bad "check accepts the model: block alone"; else ok; fi
"$G" import --scenario --model-only "$cfg" >"$T/out" 2>"$T/err"
if [ $? = 2 ] && [ ! -s "$T/out" ] && grep -q 'one of --scenario and --model-only' "$T/err"
then ok; else bad "--scenario with --model-only is not refused"; fi
# the name comes from the file, and a config.json takes its folder's
mkdir -p "$T/Qwen2-7B" && cp tests/data/configs/Qwen2-7B.json "$T/Qwen2-7B/config.json"
"$G" import "$T/Qwen2-7B/config.json" >"$T/q" 2>/dev/null
grep -qx 'name: Qwen2-7B' "$T/q" && ok || bad "a config.json's scenario is not named by its folder"

# an FP8 checkpoint's scenario computes as vLLM runs it: precision auto, W8A8 on Hopper's
# fp8 tensor cores (faster than the bf16 it wrote before), weight-only on an A100 (none);
# a bf16 checkpoint keeps precision bf16 (issue 12 audit)
"$G" import tests/data/configs/DeepSeek-V3.json -o "$T/ds.yaml" 2>/dev/null
"$G" import tests/data/configs/Qwen2-7B.json -o "$T/qw.yaml" 2>/dev/null
if grep -qx '  precision: auto' "$T/ds.yaml" && grep -qx '  weights: fp8' "$T/ds.yaml" &&
	grep -qx '  precision: bf16' "$T/qw.yaml"; then ok; else bad "import's precision"; fi
"$G" report "$T/ds.yaml" --json >"$T/ds8.json" 2>"$T/err"
"$G" report "$T/ds.yaml" --json --set workload.precision=bf16 >"$T/ds16.json" 2>"$T/err"
"$G" report "$T/ds.yaml" --json --set hardware.gpu=a100-80gb-sxm >"$T/dsa.json" 2>"$T/err"
if python3 -c '
import json, sys
a, b, c = (json.load(open(f)) for f in sys.argv[1:4])
assert a["assumptions"]["precision"] == "fp8", a["assumptions"]["precision"]
assert c["assumptions"]["precision"] == "bf16", c["assumptions"]["precision"]
assert a["latency"]["tpot_s"] < 0.9 * b["latency"]["tpot_s"], (a["latency"], b["latency"])
assert a["latency"]["ttft_s"] < 0.9 * b["latency"]["ttft_s"], (a["latency"], b["latency"])
' "$T/ds8.json" "$T/ds16.json" "$T/dsa.json"; then ok; else bad "the FP8 scenario does not compute in fp8"; fi

summary import
