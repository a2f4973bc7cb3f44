#!/bin/sh
# Calibration profiles (issue 17): calibrate --profile NAME on one measured row of
# tests/validation (MosaicML's MPT-7B at 2k on 8 H100s) saves the knob under
# $XDG_CONFIG_HOME/gpuplan/profiles/NAME.yaml; planning another row of the same cluster
# and framework (MPT-7B at 4k and 8k, MPT-13B, the same 8 H100s) with --profile NAME is the
# test the issue asks for, its error printed beside the model's own; the row it was fitted
# on comes back within 1%. Every command that plans takes --profile; --set comes after it.
# The save is atomic, mode 0600, never through a symbolic link nor onto a FIFO or a device;
# a bad profile is a FILE:LINE:COL error, a missing one names the command that makes it.
# Run from anywhere; runs $GPUPLAN, by default ./gpuplan.
cd "$(dirname "$0")/../.." || exit 1
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
grep -q '^  mfu: 0\.[0-9]*$' "$P/h100x8.yaml" && ok || bad "profile has no efficiency.mfu: $(cat "$P/h100x8.yaml")"
grep -q "^notes: .*fitted by gpuplan calibrate on .*throughput.tokens_per_s_per_gpu measured" "$P/h100x8.yaml" &&
	ok || bad "profile notes do not say what it was fitted on"
[ "$(stat -c %a "$P/h100x8.yaml")" = 600 ] && ok || bad "profile mode $(stat -c %a "$P/h100x8.yaml"), expected 600"
[ "$(stat -c %a "$P")" = 700 ] && ok || bad "profiles folder mode $(stat -c %a "$P"), expected 700"
"$G" check "$P/h100x8.yaml" >/dev/null 2>&1 # a profile is no scenario (no model): only read as a profile

# the row it was fitted on, planned again with the profile: within 1%
got=$(tps "$T/fit.yaml" --profile h100x8)
within "$got" "$want" 0.01 && ok || bad "mpt-7b-2k with its own profile: $got tokens/s per GPU, measured $want"

# the test the issue asks for: other rows of the same cluster predicted through the profile.
# The knob is an absolute MFU: fitted at 2k tokens it is carried to 4k and 8k, where the
# model's own MFU rises with the attention FLOPs, and to 13B: the calibrated error comes out
# worse than the model's alone on these rows, as tests/unit/test_calibrate.c finds for
# MosaicML's table (gpuplan(1), calibrate, says so). Its MAPE is pinned as it came out.
sum=0
for id in mpt-7b-4k mpt-7b-8k mpt-13b-2k; do
	row_file "$id" "$T/$id.yaml" || continue
	m=$(row_measured "$id")
	cal=$(tps "$T/$id.yaml" --profile h100x8)
	model=$(tps "$T/$id.yaml")
	printf 'profile h100x8 (fitted on mpt-7b-2k) -> %-11s measured %6s, predicted %.0f (%+.1f%%), model alone %.0f (%+.1f%%)\n' \
		"$id" "$m" "$cal" "$(awk -v g="$cal" -v w="$m" 'BEGIN { print 100 * (g / w - 1) }')" \
		"$model" "$(awk -v g="$model" -v w="$m" 'BEGIN { print 100 * (g / w - 1) }')"
	sum=$(awk -v s="$sum" -v g="$cal" -v w="$m" 'BEGIN { e = g / w - 1; print s + (e < 0 ? -e : e) }')
	# the profile's knob is what moved the figure: it differs from the model's own
	within "$cal" "$model" 0.0001 && bad "$id: --profile changed nothing ($cal)" || ok
	# the same plan as the knob given by --set
	mfu=$(sed -n 's/^  mfu: //p' "$P/h100x8.yaml")
	viaset=$(tps "$T/$id.yaml" --set efficiency.mfu="$mfu")
	[ "$cal" = "$viaset" ] && ok || bad "$id: --profile gives $cal, --set efficiency.mfu=$mfu gives $viaset"
done

mape=$(awk -v s="$sum" 'BEGIN { printf "%.1f", 100 * s / 3 }')
echo "profile h100x8 predicting 3 other rows of its cluster: MAPE $mape% (pinned 18.9%)"
[ "$mape" = 18.9 ] && ok || bad "the cross-row MAPE moved: $mape%, pinned 18.9%"

# every command that plans takes --profile, and --set comes after it
for c in "report" "explain compute.mfu" "search --top 1" \
	"solve --min hardware.count --set workload.tokens=10B --set workload.deadline=2d"; do
	# shellcheck disable=SC2086
	set -- $c
	cmd=$1
	shift
	a=$("$G" "$cmd" "$T/mpt-7b-4k.yaml" "$@" 2>&1 | cksum)
	b=$("$G" "$cmd" "$T/mpt-7b-4k.yaml" "$@" --profile h100x8 2>&1 | cksum)
	[ "$a" != "$b" ] && ok || bad "$c --profile: the same output as without"
done
"$G" explain "$T/mpt-7b-4k.yaml" compute.mfu --profile h100x8 >"$T/e" 2>&1 && ok || bad "explain KEY --profile: exit $?"
grep -q "$(awk -v m="$mfu" 'BEGIN { printf "%.1f%%", 100 * m }')" "$T/e" && ok || bad "explain compute.mfu --profile: not the profile's $mfu: $(head -3 "$T/e")"
"$G" diff "$T/fit.yaml" "$T/mpt-7b-4k.yaml" --profile h100x8 --json >"$T/d" 2>&1 && ok || bad "diff --profile: exit $?"
a=$("$G" diff "$T/fit.yaml" "$T/mpt-7b-4k.yaml" --json | cksum)
[ "$a" != "$(cksum <"$T/d")" ] && ok || bad "diff --profile: the same output as without"
"$G" sweep "$T/mpt-7b-4k.yaml" hardware.count=8,16 --y throughput.tokens_per_s_per_gpu --csv --profile h100x8 >"$T/s" 2>&1 &&
	ok || bad "sweep --profile: exit $? ($(head -2 "$T/s"))"
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "throughput.tokens_per_s_per_gpu") k = i }
	NR == 2 { print $k }' "$T/s")
cal=$(tps "$T/mpt-7b-4k.yaml" --profile h100x8)
within "$got" "$cal" 1e-6 && ok || bad "sweep --profile at 8 GPUs: $got, report --profile $cal"
got=$(tps "$T/mpt-7b-4k.yaml" --profile h100x8 --set efficiency.mfu=auto)
model=$(tps "$T/mpt-7b-4k.yaml")
[ "$got" = "$model" ] && ok || bad "--set efficiency.mfu=auto after --profile: $got, the model's $model"
# the report says where the knob came from, and a --set after the profile is the scenario's
"$G" report "$T/mpt-7b-4k.yaml" --profile h100x8 --json >"$T/r.json" 2>&1
grep -q '"profile":[[:space:]]*"h100x8"' "$T/r.json" && ok || bad "report --json: no assumptions.profile"
grep -q '"matmul_efficiency_source":[[:space:]]*"from the calibration profile' "$T/r.json" && ok ||
	bad "report --json: the MFU's source is not the profile"
"$G" report "$T/mpt-7b-4k.yaml" --profile h100x8 --set efficiency.mfu=0.5 --json >"$T/r.json" 2>&1
grep -q '"matmul_efficiency_source":[[:space:]]*"given in the scenario' "$T/r.json" && ok ||
	bad "report --json: a --set after the profile is still called the profile's"
"$G" report "$T/mpt-7b-4k.yaml" --json >"$T/r.json" 2>&1
grep -q '"profile":[[:space:]]*null' "$T/r.json" && ok || bad "report --json without a profile: assumptions.profile not null"
"$G" report "$T/mpt-7b-4k.yaml" --profile h100x8 --markdown | grep -q '| matrix-multiply efficiency | .* | from the calibration profile' && ok ||
	bad "report --markdown: the MFU's source is not the profile"

# the terminal UI reads it before it starts: a missing one stops it
"$G" --profile nosuch "$T/fit.yaml" </dev/null >"$T/out" 2>"$T/err"
[ $? = 1 ] && grep -q "no calibration profile 'nosuch'" "$T/err" && ok ||
	bad "gpuplan --profile nosuch FILE: $(cat "$T/err")"

# a second calibration into the same profile keeps the knobs it does not fit
printf 'gpuplan: 1\nname: h100x8\nefficiency:\n  mfu: 0.3\n  network: 0.5\n' >"$P/two.yaml"
"$G" calibrate "$T/fit.yaml" --measured tokens_per_s_per_gpu="$want" --profile two >/dev/null 2>&1 && ok || bad "calibrate into an existing profile: exit $?"
grep -q '^  network: 0.5$' "$P/two.yaml" && ok || bad "calibrate --profile lost a knob it did not fit: $(cat "$P/two.yaml")"
grep -q '^  mfu: 0.3$' "$P/two.yaml" && bad "calibrate --profile did not refit mfu" || ok

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

echo "profile: $pass passed, $fail failed"
[ "$fail" = 0 ]
