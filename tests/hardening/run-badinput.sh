#!/bin/sh
# The bad-input table, end to end: every file in tests/data/bad/ given to `check` and to
# `report` exits 2, prints nothing on standard output, puts FILE:LINE:COL: first on standard
# error, says what was expected, and answers in under 100 ms. Also: a 20,000-deep nesting,
# a 100 MB file, bad --set values and bad command lines.
# Usage: GPUPLAN=./gpuplan sh tests/hardening/run-badinput.sh
set -u
bin=${GPUPLAN:-./gpuplan}
[ "$bin" = ./gpuplan ] || export GPUPLAN_CATALOG="${GPUPLAN_CATALOG:-$PWD/catalog}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# sanitizer and valgrind builds run slower; the limit is for the real program
limit_ms=${GPUPLAN_BADINPUT_MS:-100}
case "$bin" in *asan*) limit_ms=$((limit_ms * 20)) ;; esac
pass=0
fail=0

ms() { date +%s%N | awk '{ printf "%d", $1 / 1000000 }'; }

# expect_bad NAME [ARGS...]: exit 2, empty stdout, "FILE:LINE:COL: " or "gpuplan" on stderr
expect_bad() {
	name=$1
	shift
	t0=$(ms)
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	t1=$(ms)
	why=""
	[ $rc = 2 ] || why="exit $rc, expected 2"
	[ -s "$tmp/out" ] && why="$why; wrote to standard output"
	[ -s "$tmp/err" ] || why="$why; no message"
	[ $((t1 - t0)) -lt "$limit_ms" ] || why="$why; took $((t1 - t0)) ms"
	if [ -n "$POSITION" ] && ! grep -Eq "^[^ ]+:[0-9]+:[0-9]+: " "$tmp/err"; then
		why="$why; no FILE:LINE:COL: in: $(head -c 200 "$tmp/err")"
	fi
	if [ -n "$EXPECT" ] && ! grep -Eq -- "$EXPECT" "$tmp/err"; then
		why="$why; message does not match /$EXPECT/: $(head -c 200 "$tmp/err")"
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name:$why"
	fi
}

POSITION=1
# every message says what was expected, or what is wrong with the value read
EXPECT='expected|unknown|duplicate|not |unsupported|must|too |no |cannot|invalid|empty|does not|above|out of range|mean|only'
for f in tests/data/bad/*.yaml; do
	expect_bad "check $f" check "$f"
	expect_bad "report $f" report "$f" --json
done

# generated: nesting 20,000 deep, and a 100 MB file (sparse)
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "["; print "" }' >"$tmp/deep.yaml"
expect_bad "20,000-deep nesting" check "$tmp/deep.yaml"
printf 'gpuplan: 1\n' >"$tmp/huge.yaml"
truncate -s 100M "$tmp/huge.yaml"
EXPECT='limit'
expect_bad "100 MB file" check "$tmp/huge.yaml"

# bad --set values name the key and what was expected
POSITION=""
good=scenarios/default.yaml
[ -f "$good" ] || good=tests/data/cli/train.yaml
EXPECT='--set.*(expected|unknown)'
expect_bad "--set unit typo" report "$good" --set hardware.network=400Gbit
expect_bad "--set zero count" report "$good" --set hardware.count=0
expect_bad "--set NaN" report "$good" --set workload.seq_len=nan
expect_bad "--set unknown key" report "$good" --set workload.batchsize=8
expect_bad "--set not an assignment" report "$good" --set hardware.count
# a list with unpaired brackets is not read as the words in it
EXPECT='cannot read .* as a list'
expect_bad "--set targets, an open bracket" report "$good" --set 'workload.finetune.targets=[q, k'
expect_bad "--set targets, extra brackets" report "$good" --set 'workload.finetune.targets=[[q]]]'
# an interleaved schedule with more model chunks than layers
EXPECT='model chunks is more than the [0-9]+ layers'
expect_bad "virtual stages beyond the layers" report "$good" --set parallel.pp=2 \
	--set parallel.virtual_stages=1024
EXPECT='--set.*(expected|unknown)'
# a bandwidth without its unit is a few bytes per second: an error, not a silent plan
EXPECT='hardware.network.*out of range'
expect_bad "--set network without a unit" report "$good" --set hardware.network=400
EXPECT='hardware.storage.*bare number'
expect_bad "--set storage without a unit" report "$good" --set hardware.storage=2
EXPECT='usage|unknown|missing|expected'
expect_bad "no command arguments" report
expect_bad "unknown option" --frobnicate
expect_bad "unknown option" report "$good" --jsno
expect_bad "explain without file" explain
expect_bad "explain of a bad file without key" explain tests/data/bad/syntax.yaml

# extreme but valid inputs give finite figures (no inf or nan in the JSON; as words, so
# that text such as "inference" does not match)
"$bin" report "$good" --json --set model.params=405B --set workload.seq_len=1M \
	--set hardware.count=1000000 --set workload.tokens=1e18 >"$tmp/x.json" 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && ! grep -Eqiw '(-?inf(inity)?|nan)' "$tmp/x.json"; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL extreme valid scenario: exit $rc: $(head -c 300 "$tmp/err")"
fi

echo "bad input: $pass passed, $fail failed"
[ $fail = 0 ]
