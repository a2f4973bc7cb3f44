#!/bin/sh
# Calibration profiles (issue 17): calibrate --profile NAME on one measured row of
# tests/validation (MosaicML's MPT-7B at 2k on 8 H100s) saves the knob under
# $XDG_CONFIG_HOME/gpuplan/profiles/NAME.yaml; planning another row of the same cluster
# and framework (MPT-7B at 4k and 8k, MPT-13B, the same 8 H100s) with --profile NAME is the
# test the issue asks for, its error printed beside the model's own and an absolute MFU's
# (--knob mfu); so are torchtune's QLoRA run predicting its LoRA run on one RTX 4090, and
# NIM at concurrency 5 predicting concurrency 50 on 2 H100s (the inference knobs); the row
# it was fitted on comes back within 1%. Every command that plans takes --profile; --set comes after it.
# The save is atomic, mode 0600, never through a symbolic link nor onto a FIFO or a device;
# a bad profile is a FILE:LINE:COL error, a missing one names the command that makes it.
# Run from anywhere; runs $GPUPLAN, by default ./gpuplan.
. "$(dirname "$0")/../lib.sh"
. tests/calibrate/rows.sh

XDG_CONFIG_HOME=$T/config
export XDG_CONFIG_HOME
P=$XDG_CONFIG_HOME/gpuplan/profiles
tps() { # FILE [ARGS...]: the report's tokens/s per GPU
	f=$1
	shift
	"$G" report "$f" --json "$@" >"$T/r.json" 2>"$T/err" || { bad "report $f $*: exit $? ($(head -2 "$T/err"))"; return; }
	json_num tokens_per_s_per_gpu "$T/r.json"
}

# calibrate on one row: the profile written, the summary on standard output
row_file mpt-7b-2k "$T/fit.yaml" || exit 1
want=$(row_measured mpt-7b-2k)
cp "$T/fit.yaml" "$T/fit.orig"
"$G" calibrate "$T/fit.yaml" --measured tokens_per_s_per_gpu="$want" --profile h100x8 >"$T/out" 2>"$T/err" &&
	ok || bad "calibrate --profile: exit $? ($(head -3 "$T/err"))"
grep -q "saved profile h100x8 ($P/h100x8.yaml)" "$T/out" && ok || bad "calibrate --profile: does not say where: $(tail -2 "$T/out")"
grep -q '^gpuplan: 1$' "$T/out" && bad "calibrate --profile printed the scenario too" || ok
cmp -s "$T/fit.yaml" "$T/fit.orig" && ok || bad "calibrate --profile changed the scenario file"
[ -f "$P/h100x8.yaml" ] && ok || bad "no profile file at $P/h100x8.yaml"
# a compute-bound step: efficiency.gemm, never efficiency.mfu unless asked for
grep -q '^  gemm: 0\.[0-9]*$' "$P/h100x8.yaml" && ok || bad "profile has no efficiency.gemm: $(cat "$P/h100x8.yaml")"
grep -q '^  mfu:' "$P/h100x8.yaml" && bad "profile has an efficiency.mfu it was not asked for" || ok
grep -q "^notes: .*fitted by gpuplan calibrate on .*throughput.tokens_per_s_per_gpu measured" "$P/h100x8.yaml" &&
	ok || bad "profile notes do not say what it was fitted on"
[ "$(stat -c %a "$P/h100x8.yaml")" = 600 ] && ok || bad "profile mode $(stat -c %a "$P/h100x8.yaml"), expected 600"
[ "$(stat -c %a "$P")" = 700 ] && ok || bad "profiles folder mode $(stat -c %a "$P"), expected 700"
"$G" check "$P/h100x8.yaml" >/dev/null 2>&1 # a profile is no scenario (no model): only read as a profile
# the same row on the absolute MFU, asked for: the profile the earlier calibrate made
"$G" calibrate "$T/fit.yaml" --measured tokens_per_s_per_gpu="$want" --knob mfu --profile h100x8-mfu >/dev/null 2>&1 &&
	grep -q '^  mfu: 0\.[0-9]*$' "$P/h100x8-mfu.yaml" && ok || bad "calibrate --knob mfu --profile: no efficiency.mfu"

# the row it was fitted on, planned again with the profile: within 1%
got=$(tps "$T/fit.yaml" --profile h100x8)
within "$got" "$want" 0.01 && ok || bad "mpt-7b-2k with its own profile: $got tokens/s per GPU, measured $want"
model_fit=$(tps "$T/fit.yaml")

mape() { # SUM N: the mean of N absolute errors, in % to one decimal
	awk -v s="$1" -v n="$2" 'BEGIN { printf "%.1f", 100 * s / n }'
}
adds() { # SUM GOT WANT: SUM + |GOT / WANT - 1|
	awk -v s="$1" -v g="$2" -v w="$3" 'BEGIN { e = g / w - 1; print s + (e < 0 ? -e : e) }'
}
pct() { awk -v g="$1" -v w="$2" 'BEGIN { printf "%+.1f%%", 100 * (g / w - 1) }'; }

# the test the issue asks for: other rows of the same cluster (llm-foundry on the same 8
# H100s) predicted through the profile. efficiency.gemm scales the model's GEMMs, so each
# row's prediction is the model's times the fitted row's measured / modelled (0.992 here):
# the model's own scaling with sequence length, recomputation and size is kept. The
# errors carry the model's: -7.9%, -0.6%, +10.6%, MAPE 6.4% against 6.3% for the model
# alone (the fitted row is itself 0.8% off, and that offset carries to every row); the
# absolute MFU of an earlier gpuplan (--knob mfu) replaced that scaling with the 2k row's
# MFU and gave 18.9%. Both are pinned as they came out; the profile is not claimed better
# than the model alone here, because it is not.
sum=0 summ=0 sumo=0
gemm=$(sed -n 's/^  gemm: //p' "$P/h100x8.yaml")
for id in mpt-7b-4k mpt-7b-8k mpt-13b-2k; do
	row_file "$id" "$T/$id.yaml" || continue
	m=$(row_measured "$id")
	cal=$(tps "$T/$id.yaml" --profile h100x8)
	calm=$(tps "$T/$id.yaml" --profile h100x8-mfu)
	model=$(tps "$T/$id.yaml")
	printf 'profile h100x8 (mpt-7b-2k) -> %-10s measured %5s: efficiency.gemm %5.0f (%s), --knob mfu %5.0f (%s), model alone %5.0f (%s)\n' \
		"$id" "$m" "$cal" "$(pct "$cal" "$m")" "$calm" "$(pct "$calm" "$m")" "$model" "$(pct "$model" "$m")"
	sum=$(adds "$sum" "$cal" "$m")
	summ=$(adds "$summ" "$calm" "$m")
	sumo=$(adds "$sumo" "$model" "$m")
	# the profile scales the model: the fitted row's ratio, within 0.5% (an absolute MFU
	# is 5% to 25% off it on these rows)
	awk -v c="$cal" -v o="$model" -v w="$want" -v f="$model_fit" \
		'BEGIN { e = (c / o) / (w / f) - 1; exit !(e < 0.005 && e > -0.005) }' && ok ||
		bad "$id: the profile does not scale the model: $cal / $model, the fitted row's $want / $model_fit"
	within "$cal" "$model" 0.0001 && bad "$id: --profile changed nothing ($cal)" || ok
	# the same plan as the knob given by --set
	viaset=$(tps "$T/$id.yaml" --set efficiency.gemm="$gemm")
	[ "$cal" = "$viaset" ] && ok || bad "$id: --profile gives $cal, --set efficiency.gemm=$gemm gives $viaset"
done
echo "profile h100x8 predicting 3 other rows of its cluster: MAPE $(mape "$sum" 3)% on efficiency.gemm (pinned 6.4%), $(mape "$summ" 3)% on --knob mfu (pinned 18.9%), model alone $(mape "$sumo" 3)%"
[ "$(mape "$sum" 3)" = 6.4 ] && ok || bad "the cross-row MAPE moved: $(mape "$sum" 3)%, pinned 6.4%"
[ "$(mape "$summ" 3)" = 18.9 ] && ok || bad "the --knob mfu cross-row MAPE moved: $(mape "$summ" 3)%, pinned 18.9%"
awk -v a="$sum" -v b="$summ" 'BEGIN { exit !(a < b) }' && ok || bad "efficiency.gemm's profile no better than the absolute MFU's"

# another cluster of calibration rows (tests/validation/framework-speed.yaml): torchtune on one RTX 4090, the QLoRA run predicting the
# LoRA run (Llama 3.1 8B, batch 2 packed to 2048): -19.0% through the profile. The model
# alone was -26.5% and the profile nearer; since the card's gemm_efficiency was fitted to
# both rows (catalog/gpus.yaml) the model alone is -10.9%, within the row's 15%, and the
# profile, fitted to QLoRA alone (+9.6% in the model), carries QLoRA's error to LoRA: it is
# now the farther of the two, as it should be once the model holds both rows
row_file torchtune-qlora-4090-speed "$T/qlora.yaml" && row_file torchtune-lora-4090-speed "$T/lora.yaml" || exit 1
"$G" calibrate "$T/qlora.yaml" --measured tokens_per_s_per_gpu="$(row_measured torchtune-qlora-4090-speed)" --profile rtx4090 >/dev/null 2>&1 &&
	grep -q '^  gemm: 0\.[0-9]*$' "$P/rtx4090.yaml" && ok || bad "calibrate on torchtune's QLoRA row: no efficiency.gemm"
m=$(row_measured torchtune-lora-4090-speed)
cal=$(tps "$T/lora.yaml" --profile rtx4090)
model=$(tps "$T/lora.yaml")
echo "profile rtx4090 (torchtune-qlora-4090-speed) -> torchtune-lora-4090-speed: measured $m, predicted $(pct "$cal" "$m") (pinned -19.0%), model alone $(pct "$model" "$m")"
[ "$(pct "$cal" "$m")" = -19.0% ] && ok || bad "torchtune LoRA through the QLoRA profile: $(pct "$cal" "$m"), pinned -19.0%"
awk -v o="$model" -v w="$m" 'BEGIN { exit !((o / w - 1) ^ 2 < 0.15 ^ 2) }' && ok ||
	bad "torchtune LoRA: the model alone is not within the row's 15%"

# serving (tests/validation/serving.yaml): NVIDIA NIM, Llama 3.3 70B fp8 on 2 H100s (TP 2), 5,000 in / 500
# out. The inference knobs fitted at concurrency 5 (time per output token on efficiency.hbm,
# time to first token on efficiency.gemm) carry to concurrency 50, and take it further off
# than the model alone: TTFT -0.4% -> +13.7%, TPOT +10.1% -> +20.0%, throughput -8.8% ->
# -16.4%. The model's decode is 5% fast at 5 and 10% slow at 50, errors of opposite sign
# that no knob scaling both can remove; and at 5 the closed loop's TTFT under-predicts by
# 10.5% (a little queueing at the budget), which efficiency.gemm (lowered to meet it) then
# charges to the batch-50 decode's GEMMs and to its prompt queue as well. MAPE over the
# three: 16.7% through the profile, 6.4% for the model alone (27.9% and 21.6% before the
# closed loop's wait at the prompt budget, src/plan_serve.c closed_wait); pinned as it came
# out, not claimed better. Since branch conflicts (2026-12-02) keeps the embedding and head
# of an fp8 deployment without a quantization_config bf16 (ModelOpt disables *lm_head*,
# vLLM's Fp8Config quantizes linear layers only): TTFT +14.0%, TPOT +19.7%, throughput
# -16.2%, MAPE 16.6% through the profile, 6.9% for the model alone (TTFT -0.9%, TPOT
# +10.7%, throughput -9.2%).
N=tests/data/serving/nim-70b-2xh100-fp8.yaml
"$G" calibrate "$N" --set workload.concurrency=5 --measured tpot=21.83ms --measured ttft=546.7ms --profile nim-h100x2 >"$T/out" 2>&1 &&
	ok || bad "calibrate on NIM at concurrency 5: $(head -3 "$T/out")"
grep -q '^  hbm: 0\.[0-9]*$' "$P/nim-h100x2.yaml" && grep -q '^  gemm: 0\.[0-9]*$' "$P/nim-h100x2.yaml" && ok ||
	bad "the NIM profile lacks efficiency.hbm or efficiency.gemm: $(cat "$P/nim-h100x2.yaml")"
sum=0 sumo=0 line=
for f in ttft_s:0.8345 tpot_s:0.05973 tokens_per_s:814.4; do
	k=${f%%:*} m=${f#*:}
	"$G" report "$N" --set workload.concurrency=50 --profile nim-h100x2 --json >"$T/r.json" 2>&1
	cal=$(json_num "$k" "$T/r.json")
	"$G" report "$N" --set workload.concurrency=50 --json >"$T/r.json" 2>&1
	model=$(json_num "$k" "$T/r.json")
	line="$line $k $(pct "$cal" "$m") (model $(pct "$model" "$m"));"
	sum=$(adds "$sum" "$cal" "$m")
	sumo=$(adds "$sumo" "$model" "$m")
done
echo "profile nim-h100x2 (concurrency 5) -> concurrency 50:$line MAPE $(mape "$sum" 3)% (pinned 16.6%), model alone $(mape "$sumo" 3)%"
[ "$(mape "$sum" 3)" = 16.6 ] && ok || bad "NIM at concurrency 50 through the profile: MAPE $(mape "$sum" 3)%, pinned 16.6%"

# held out (tests/validation/decode-cuda-graphs.yaml, not a calibration row): torchao's batch-1 decode on one A100 80GB,
# the Llama 2 7B bf16 run (time per output token on efficiency.hbm) predicting the other
# five A100 rows of its table (Llama 2 7B int8 and int4, Llama 3 8B bf16, int8 and int4):
# MAPE 6.3% through the profile, 6.7% for the model alone; each row slows by about the
# fitted row's +2.7% (int8 -9.9% -> -11.6%, Llama 3 8B bf16 +4.4% -> +1.6%). Pinned.
tpot() { "$G" report "$@" --json 2>/dev/null | sed -n 's/^[[:space:]]*"tpot_s":[[:space:]]*\([-0-9.e+]*\),\{0,1\}$/\1/p' | head -1; }
row_file torchao-a100-l2-7b-bf16 "$T/ao.yaml" || exit 1
"$G" calibrate "$T/ao.yaml" --measured tpot_s="$(awk -v r="$(row_measured torchao-a100-l2-7b-bf16)" 'BEGIN { print 1 / r }')" \
	--profile a100 >/dev/null 2>&1 && grep -q '^  hbm: 0\.[0-9]*$' "$P/a100.yaml" && ok ||
	bad "calibrate on torchao's A100 bf16 decode: no efficiency.hbm"
sum=0 sumo=0
for id in torchao-a100-l2-7b-int8 torchao-a100-l2-7b-int4 torchao-a100-l3-8b-bf16 torchao-a100-l3-8b-int8 torchao-a100-l3-8b-int4; do
	row_file "$id" "$T/$id.yaml" || continue
	m=$(row_measured "$id") # tokens/s of one sequence: 1 / time per output token
	cal=$(awk -v t="$(tpot "$T/$id.yaml" --profile a100)" 'BEGIN { print 1 / t }')
	model=$(awk -v t="$(tpot "$T/$id.yaml")" 'BEGIN { print 1 / t }')
	echo "profile a100 (torchao-a100-l2-7b-bf16) -> $id: measured $m tokens/s, predicted $(pct "$cal" "$m"), model alone $(pct "$model" "$m")"
	sum=$(adds "$sum" "$cal" "$m")
	sumo=$(adds "$sumo" "$model" "$m")
done
echo "profile a100 predicting 5 other rows of its table: MAPE $(mape "$sum" 5)% (pinned 6.3%), model alone $(mape "$sumo" 5)%"
[ "$(mape "$sum" 5)" = 6.3 ] && ok || bad "torchao A100 through the profile: MAPE $(mape "$sum" 5)%, pinned 6.3%"
awk -v a="$sum" -v b="$sumo" 'BEGIN { exit !(a < b) }' && ok || bad "torchao A100: the profile no better than the model alone"

# every command that plans takes --profile, and --set comes after it
for c in "report" "explain compute.mfu" "search --top 1" \
	"solve --min hardware.count --set workload.tokens=10B --set workload.deadline=2d"; do
	# shellcheck disable=SC2086
	set -- $c
	cmd=$1
	shift
	a=$("$G" "$cmd" "$T/mpt-7b-4k.yaml" "$@" 2>&1 | cksum)
	b=$("$G" "$cmd" "$T/mpt-7b-4k.yaml" "$@" --profile h100x8-mfu 2>&1 | cksum)
	[ "$a" != "$b" ] && ok || bad "$c --profile: the same output as without"
done
mfu=$(sed -n 's/^  mfu: //p' "$P/h100x8-mfu.yaml")
"$G" explain "$T/mpt-7b-4k.yaml" compute.mfu --profile h100x8-mfu >"$T/e" 2>&1 && ok || bad "explain KEY --profile: exit $?"
grep -q "$(awk -v m="$mfu" 'BEGIN { printf "%.1f%%", 100 * m }')" "$T/e" && ok || bad "explain compute.mfu --profile: not the profile's $mfu: $(head -3 "$T/e")"
"$G" diff "$T/fit.yaml" "$T/mpt-7b-4k.yaml" --profile h100x8-mfu --json >"$T/d" 2>&1 && ok || bad "diff --profile: exit $?"
a=$("$G" diff "$T/fit.yaml" "$T/mpt-7b-4k.yaml" --json | cksum)
[ "$a" != "$(cksum <"$T/d")" ] && ok || bad "diff --profile: the same output as without"
"$G" sweep "$T/mpt-7b-4k.yaml" hardware.count=8,16 --y throughput.tokens_per_s_per_gpu --csv --profile h100x8 >"$T/s" 2>&1 &&
	ok || bad "sweep --profile: exit $? ($(head -2 "$T/s"))"
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "throughput.tokens_per_s_per_gpu") k = i }
	NR == 2 { print $k }' "$T/s")
cal=$(tps "$T/mpt-7b-4k.yaml" --profile h100x8)
within "$got" "$cal" 1e-6 && ok || bad "sweep --profile at 8 GPUs: $got, report --profile $cal"
got=$(tps "$T/mpt-7b-4k.yaml" --profile h100x8-mfu --set efficiency.mfu=auto)
model=$(tps "$T/mpt-7b-4k.yaml")
[ "$got" = "$model" ] && ok || bad "--set efficiency.mfu=auto after --profile: $got, the model's $model"
got=$(tps "$T/mpt-7b-4k.yaml" --profile h100x8 --set efficiency.gemm=auto)
[ "$got" = "$model" ] && ok || bad "--set efficiency.gemm=auto after --profile: $got, the model's $model"
# the report says where the knob came from, and a --set after the profile is the scenario's
"$G" report "$T/mpt-7b-4k.yaml" --profile h100x8 --json >"$T/r.json" 2>&1
grep -q '"profile":[[:space:]]*"h100x8"' "$T/r.json" && ok || bad "report --json: no assumptions.profile"
grep -q '"matmul_efficiency_source":[[:space:]]*"from the calibration profile (--profile: efficiency.gemm' "$T/r.json" && ok ||
	bad "report --json: the GEMM efficiency's source is not the profile"
"$G" report "$T/mpt-7b-4k.yaml" --profile h100x8-mfu --json >"$T/r.json" 2>&1
grep -q '"matmul_efficiency_source":[[:space:]]*"from the calibration profile (--profile: efficiency.mfu' "$T/r.json" && ok ||
	bad "report --json: the MFU's source is not the profile"
"$G" report "$T/mpt-7b-4k.yaml" --profile h100x8-mfu --set efficiency.mfu=0.5 --json >"$T/r.json" 2>&1
grep -q '"matmul_efficiency_source":[[:space:]]*"given in the scenario' "$T/r.json" && ok ||
	bad "report --json: a --set after the profile is still called the profile's"
"$G" report "$T/mpt-7b-4k.yaml" --json >"$T/r.json" 2>&1
grep -q '"profile":[[:space:]]*null' "$T/r.json" && ok || bad "report --json without a profile: assumptions.profile not null"
"$G" report "$T/mpt-7b-4k.yaml" --profile h100x8-mfu --markdown | grep -q '| matrix-multiply efficiency | .* | from the calibration profile' && ok ||
	bad "report --markdown: the MFU's source is not the profile"

# the terminal UI reads it before it starts: a missing one stops it
"$G" --profile nosuch "$T/fit.yaml" </dev/null >"$T/out" 2>"$T/err"
[ $? = 1 ] && grep -q "no calibration profile 'nosuch'" "$T/err" && ok ||
	bad "gpuplan --profile nosuch FILE: $(cat "$T/err")"

# a second calibration into the same profile keeps the knobs it does not fit
printf 'gpuplan: 1\nname: h100x8\nefficiency:\n  gemm: 0.3\n  network: 0.5\n' >"$P/two.yaml"
"$G" calibrate "$T/fit.yaml" --measured tokens_per_s_per_gpu="$want" --profile two >/dev/null 2>&1 && ok || bad "calibrate into an existing profile: exit $?"
grep -q '^  network: 0.5$' "$P/two.yaml" && ok || bad "calibrate --profile lost a knob it did not fit: $(cat "$P/two.yaml")"
grep -q '^  gemm: 0.3$' "$P/two.yaml" && bad "calibrate --profile did not refit gemm" || ok
# a profile with an absolute MFU (an earlier gpuplan's): it sets the step, so no other
# knob moves it: refused with the ways out; --set efficiency.mfu=auto drops it
printf 'gpuplan: 1\nname: old\nefficiency:\n  mfu: 0.3\n  network: 0.5\n' >"$P/old.yaml"
cp "$P/old.yaml" "$T/old.orig"
"$G" calibrate "$T/fit.yaml" --measured tokens_per_s_per_gpu="$want" --profile old >/dev/null 2>"$T/err"
[ $? = 1 ] && grep -q 'efficiency.mfu sets the training step at 30%.*--set efficiency.mfu=auto' "$T/err" && ok ||
	bad "calibrate into a profile with efficiency.mfu: $(cat "$T/err")"
cmp -s "$P/old.yaml" "$T/old.orig" && ok || bad "a refused calibration changed the profile"
"$G" calibrate "$T/fit.yaml" --measured tokens_per_s_per_gpu="$want" --profile old --set efficiency.mfu=auto >/dev/null 2>&1 &&
	grep -q '^  gemm: 0\.[0-9]*$' "$P/old.yaml" && ! grep -q '^  mfu:' "$P/old.yaml" && grep -q '^  network: 0.5$' "$P/old.yaml" &&
	ok || bad "calibrate --profile old --set efficiency.mfu=auto: $(cat "$P/old.yaml")"

# never through a symbolic link, never onto a FIFO or a device; nothing written then
cp "$P/two.yaml" "$T/target"
ln -s "$T/target" "$P/link.yaml"
"$G" calibrate "$T/fit.yaml" --measured tokens_per_s_per_gpu="$want" --profile link >/dev/null 2>&1 && ok || bad "calibrate --profile over a link: exit $?"
cmp -s "$T/target" "$P/two.yaml" && ok || bad "the profile was written through a symbolic link"
[ -f "$P/link.yaml" ] && [ ! -L "$P/link.yaml" ] && ok || bad "the link was not replaced by the profile"
mkfifo "$P/fifo.yaml"
ln -s /dev/null "$P/dev.yaml"
for n in fifo dev; do
	timeout 10 "$G" calibrate "$T/fit.yaml" --measured tokens_per_s_per_gpu="$want" --profile $n >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 1 ] && ok || bad "calibrate --profile onto a $n: exit $rc, expected 1"
	grep -q "$n.yaml" "$T/err" && ok || bad "calibrate --profile onto a $n: the path is not named: $(cat "$T/err")"
	grep -q 'saved profile' "$T/out" && bad "calibrate --profile onto a $n says it saved" || ok
done
[ -p "$P/fifo.yaml" ] && [ -L "$P/dev.yaml" ] && ok || bad "the FIFO or the link to a device was replaced"
# an impossible measurement writes no profile
"$G" calibrate "$T/fit.yaml" --measured step_s=1ms --profile none >/dev/null 2>&1
[ $? = 1 ] && [ ! -e "$P/none.yaml" ] && ok || bad "an impossible calibration wrote a profile"

# bad profiles: FILE:LINE:COL, exit 2; a missing one, exit 1; a bad name, exit 2
printf 'gpuplan: 1\nefficiency:\n  mfu: 3\n' >"$P/range.yaml"
printf 'gpuplan: 1\nefficiency:\n  mfu: 0.4\nhardware:\n  gpu: h200\n' >"$P/gpu.yaml"
printf 'gpuplan: 1\nefficiency:\n  mfuu: 0.4\n' >"$P/typo.yaml"
printf 'gpuplan: 1\nname: empty\n' >"$P/empty.yaml"
printf 'gpuplan: 1\nefficiency: [\n' >"$P/syntax.yaml"
for c in "range:3:8: efficiency.mfu: 3 is out of range" "gpu:4:1: 'hardware' in a calibration profile" \
	"typo:3:3: unknown key 'mfuu'" "empty:1:1: no knob in profile 'empty'" "syntax:3:1: "; do
	n=${c%%:*}
	"$G" report "$T/fit.yaml" --profile "$n" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc = 2 ] && ok || bad "bad profile $n: exit $rc, expected 2"
	grep -qF "$P/$n.yaml:${c#*:}" "$T/err" && ok || bad "bad profile $n: expected '$P/$n.yaml:${c#*:}', got: $(cat "$T/err")"
done
"$G" report "$T/fit.yaml" --profile nosuch >/dev/null 2>"$T/err"
[ $? = 1 ] && grep -qF "no calibration profile 'nosuch' ($P/nosuch.yaml): gpuplan calibrate" "$T/err" && ok ||
	bad "missing profile: $(cat "$T/err")"
for n in ../x .hidden a/b "" "$(printf 'x%.0s' $(seq 70))"; do
	"$G" report "$T/fit.yaml" --profile "$n" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc = 2 ] && grep -q "profile name" "$T/err" && ok || bad "profile name '$n': exit $rc ($(cat "$T/err"))"
done
# a relative XDG_CONFIG_HOME is ignored (XDG Base Directory Specification): ~/.config
mkdir -p "$T/home/.config/gpuplan/profiles"
cp "$P/h100x8.yaml" "$T/home/.config/gpuplan/profiles/"
got=$(HOME=$T/home XDG_CONFIG_HOME=rel tps "$T/fit.yaml" --profile h100x8)
within "$got" "$want" 0.01 && ok || bad "HOME's profile with a relative XDG_CONFIG_HOME: $got"

summary profile
