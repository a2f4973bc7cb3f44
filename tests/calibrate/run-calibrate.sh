#!/bin/sh
# gpuplan calibrate from the command line: a measured row of tests/validation (MosaicML's
# MPT-30B on 32 H100s) calibrated, saved with --write and -o, and planned again within 1%
# of the measurement; the saved file keeps every other field; standard output is a
# scenario that check accepts; --json's shape; a measurement faster than the datasheet's
# peak or memory below the weights exits 1 with the limit named and the file's bytes
# unchanged; peak memory fits efficiency.memory_overhead, allocated memory is compared; a
# malformed --measured or --knob, or a figure of another workload, exits 2. A training step
# fits efficiency.gemm (the compute-bound step's knob); efficiency.mfu only with --knob mfu,
# and a file that gives efficiency.mfu is refused with the two ways out. The fitting
# itself is tests/unit/test_calibrate.c's (every row, and one run predicting another).
# Run from anywhere; runs $GPUPLAN, by default ./gpuplan.
. "$(dirname "$0")/../lib.sh"
. tests/calibrate/rows.sh

F=$T/mpt30.yaml
row_file mpt-30b-2k "$F" || exit 1
want=$(row_measured mpt-30b-2k)
[ "$want" = 2308 ] || bad "mpt-30b-2k's measurement is '$want', expected 2308"

# --write: the knob saved into the file, the report planned again within 1%
cp "$F" "$T/orig.yaml"
"$G" calibrate "$F" --measured tokens_per_s_per_gpu="$want" --write >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || bad "calibrate --write: exit $rc ($(head -3 "$T/err"))"
grep -q 'efficiency.gemm: auto' "$T/out" || bad "calibrate: the summary does not name the knob: $(head -5 "$T/out")"
grep -q 'why: the step is compute-bound' "$T/out" || bad "calibrate: no reason for the knob"
grep -q "saved $F" "$T/out" || bad "calibrate --write: does not say where it saved"
awk 'length($0) > 80 { n++ } END { exit n > 0 }' "$T/out" || bad "calibrate: lines over 80 columns"
grep -q '^  gemm: 0\.[0-9]*$' "$F" || bad "calibrate --write: no efficiency.gemm in the file: $(tail -3 "$F")"
grep -q '^  mfu:' "$F" && bad "calibrate --write: efficiency.mfu fitted without --knob mfu"
"$G" report --json "$F" >"$T/r.json" || bad "report of the calibrated file: exit $?"
got=$(json_num tokens_per_s_per_gpu "$T/r.json")
within "$got" "$want" 0.01 || bad "calibrated on mpt-30b-2k, report gives $got tokens/s per GPU, measured $want"
echo "calibrated mpt-30b-2k: $got tokens/s per GPU (measured $want)"
# every other field as it was: the two files differ by the efficiency block alone
"$G" fmt "$T/orig.yaml" >"$T/a" || bad "fmt of the file: exit $?"
diff "$T/a" "$F" | grep '^[<>]' >"$T/d"
{ grep -qx '> efficiency:' "$T/d" && grep -qx '>   gemm: 0\.[0-9]*' "$T/d" && [ "$(wc -l <"$T/d")" -eq 2 ]; } ||
	bad "calibrate --write changed more than the knob: $(head -5 "$T/d")"
grep -qx '  kept' "$F" || bad "calibrate --write lost the notes"

# -o: the same file elsewhere, the original untouched; standard output: a scenario
"$G" calibrate "$T/orig.yaml" --measured tokens_per_s_per_gpu="$want" -o "$T/o.yaml" >/dev/null 2>&1 ||
	bad "calibrate -o: exit $?"
cmp -s "$T/o.yaml" "$F" || bad "calibrate -o and --write wrote different files"
"$G" fmt "$T/orig.yaml" >"$T/a2" && cmp -s "$T/a" "$T/a2" || bad "calibrate -o changed its input"
"$G" calibrate "$T/orig.yaml" --measured tokens_per_s_per_gpu="$want" >"$T/stdout.yaml" 2>"$T/err" ||
	bad "calibrate to standard output: exit $?"
cmp -s "$T/stdout.yaml" "$F" || bad "calibrate's standard output is not the scenario --write saves"
grep -q 'the calibrated scenario follows' "$T/err" || bad "calibrate: no summary on standard error"
"$G" check "$T/stdout.yaml" >/dev/null || bad "calibrate's scenario does not pass check"

# --json
"$G" calibrate "$T/orig.yaml" --measured step_s=60s --json >"$T/j" 2>"$T/err" || bad "calibrate --json: exit $?"
for k in '"schema":	"gpuplan.calibrate/1"' '"status":	"fitted"' '"knob":	"efficiency.gemm"' \
	'"efficiency.network":' '"changed":' '"written":	null' '"ok":	true'; do
	grep -qF "$k" "$T/j" || bad "calibrate --json: no $k"
done

# --knob mfu: an absolute MFU, asked for, in place of the model's; the same round trip
"$G" calibrate "$T/orig.yaml" --measured tokens_per_s_per_gpu="$want" --knob mfu -o "$T/mfu.yaml" >"$T/out" 2>"$T/err" ||
	bad "calibrate --knob mfu: exit $? ($(head -3 "$T/err"))"
grep -q '^  mfu: 0\.[0-9]*$' "$T/mfu.yaml" || bad "calibrate --knob mfu: no efficiency.mfu in the file"
grep -q '^  gemm:' "$T/mfu.yaml" && bad "calibrate --knob mfu: efficiency.gemm fitted too"
grep -q 'efficiency.mfu: auto' "$T/out" || bad "calibrate --knob mfu: the summary does not name the knob"
grep -q 'knob asked for' "$T/out" || bad "calibrate --knob mfu: the reason does not say it was asked for"
"$G" report --json "$T/mfu.yaml" >"$T/r.json" || bad "report of the --knob mfu file: exit $?"
within "$(json_num tokens_per_s_per_gpu "$T/r.json")" "$want" 0.01 || bad "calibrated with --knob mfu, not within 1%"
# a file that gives efficiency.mfu: it sets the step, no other knob moves it; refused
"$G" calibrate "$T/mfu.yaml" --measured step_s=60s >/dev/null 2>"$T/err"
rc=$?
[ $rc = 1 ] || bad "calibrate of a file with efficiency.mfu: exit $rc, expected 1"
grep -q 'efficiency.mfu sets the training step.*--set efficiency.mfu=auto.*--knob efficiency.mfu refits it' "$T/err" ||
	bad "calibrate of a file with efficiency.mfu: the ways out are not named: $(cat "$T/err")"
"$G" calibrate "$T/mfu.yaml" --measured step_s=60s --set efficiency.mfu=auto >"$T/o.yaml" 2>/dev/null &&
	grep -q '^  gemm: 0\.[0-9]*$' "$T/o.yaml" || bad "calibrate --set efficiency.mfu=auto: not fitted on efficiency.gemm"
for k in overlap memory_overhead efficiency.gem ""; do
	"$G" calibrate "$F" --measured step_s=60s --knob "$k" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc = 2 ] && grep -q "^gpuplan calibrate: --knob '$k': expected efficiency.gemm" "$T/err" ||
		bad "calibrate --knob '$k': exit $rc ($(cat "$T/err"))"
done
"$G" calibrate "$F" --measured step_s=60s --knob gemm --knob efficiency.gemm >/dev/null 2>"$T/err"
[ $? = 2 ] && grep -q 'efficiency.gemm given twice' "$T/err" || bad "calibrate --knob twice: $(cat "$T/err")"

# impossible: faster than the peak, memory below the weights; nothing written, exit 1
cp "$F" "$T/keep.yaml"
"$G" calibrate "$F" --measured step_s=1ms --write >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 1 ] || bad "calibrate faster than the peak: exit $rc, expected 1"
grep -q 'faster than the hardware allows.*datasheet peak' "$T/err" || bad "calibrate: the limit is not named: $(cat "$T/err")"
grep -q 'nothing written' "$T/err" || bad "calibrate: does not say nothing was written"
[ -s "$T/out" ] && bad "calibrate faster than the peak: standard output not empty"
cmp -s "$F" "$T/keep.yaml" || bad "calibrate faster than the peak changed the file"
"$G" calibrate "$F" --measured peak_memory=1GiB --write >/dev/null 2>"$T/err"
rc=$?
[ $rc = 1 ] || bad "calibrate with memory below the weights: exit $rc, expected 1"
grep -q 'below the weights alone' "$T/err" || bad "calibrate: memory limit not named: $(cat "$T/err")"
cmp -s "$F" "$T/keep.yaml" || bad "calibrate with memory below the weights changed the file"
# peak memory (max_memory_reserved) on the allocator's slack; allocated memory compared
"$G" calibrate "$F" --measured peak_memory=70GiB >"$T/o.yaml" 2>"$T/err" || bad "calibrate peak memory: exit $? ($(head -3 "$T/err"))"
grep -q 'efficiency.memory_overhead: auto' "$T/err" || bad "calibrate: peak memory not fitted on efficiency.memory_overhead: $(head -6 "$T/err")"
grep -q '^  memory_overhead: 0\.[0-9]*$' "$T/o.yaml" || bad "calibrate peak memory: no efficiency.memory_overhead in the scenario"
"$G" report --json "$T/o.yaml" >"$T/r.json" || bad "report of the memory-calibrated file: exit $?"
got=$(json_num reserved "$T/r.json")
within "$got" 75161927680 0.01 || bad "calibrated on 70 GiB reserved, report gives $got bytes"
"$G" calibrate "$F" --measured allocated=70GiB >/dev/null 2>"$T/err" || bad "calibrate allocated compared: exit $?"
grep -q 'compared, not fitted' "$T/err" || bad "calibrate: allocated memory not said to be compared only"

# malformed: exit 2, nothing written
for m in step_s step_s=fast step=4 step_s=0 peak_memory=71 tpot_s=20ms; do
	"$G" calibrate "$F" --measured "$m" --write >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] || bad "calibrate --measured '$m': exit $rc, expected 2"
	[ -s "$T/err" ] || bad "calibrate --measured '$m': no message"
	cmp -s "$F" "$T/keep.yaml" || bad "calibrate --measured '$m' changed the file"
done
"$G" calibrate "$F" >/dev/null 2>&1
[ $? = 2 ] || bad "calibrate without --measured: expected exit 2"
"$G" calibrate - --measured step_s=5 --write <"$F" >/dev/null 2>&1
[ $? = 2 ] || bad "calibrate - --write: expected exit 2"
"$G" calibrate "$F" --measured step_s=5 --write -o "$T/x.yaml" >/dev/null 2>&1
[ $? = 2 ] || bad "calibrate --write -o: expected exit 2"

[ $fail = 0 ] && echo "calibrate: ok"
[ $fail = 0 ]
