#!/bin/sh
# gpuplan validate over tests/validation: exit 0 with every group within its bound, the
# JSON report's shape, a row for every row of the data files, exit 1 past a bound and 2 on
# a bad data file; the serving errors it reports are the ones tests/unit/test_serving.c
# asserts (it prints them); and VALIDATION.md is what `validate --markdown` prints
# (`make validation-doc` rewrites it). Run from anywhere; runs $GPUPLAN, by default
# ./gpuplan.
. "$(dirname "$0")/../lib.sh"
program --built validate
scratch validate

# the text report: exit 0, 80 columns
"$G" validate >"$T/text" 2>"$T/err"
rc=$?
[ $rc = 0 ] || bad "validate: exit $rc, expected 0 ($(head -3 "$T/err"))"
awk 'length($0) > 80 { print; n++ } END { exit n > 0 }' "$T/text" >"$T/long" ||
	bad "validate: lines over 80 columns: $(head -2 "$T/long")"

# the headline counts the rows outside their tolerance (a group within its bound can hold
# some): as many as the rows marked !
marked=$(grep -c '%!' "$T/text")
said=$(sed -n 's/^(\([0-9]*\) rows\{0,1\} outside the tolerance.*/\1/p' "$T/text")
[ "$said" = "$(if [ "$marked" -gt 0 ]; then echo "$marked"; fi)" ] ||
	bad "validate: the headline says '$said' rows outside their tolerance, $marked are marked !"

# the JSON report
"$G" validate --json tests/validation >"$T/json" 2>"$T/err" || bad "validate --json: exit $?"
grep -q '"schema":	"gpuplan.validate/1"' "$T/json" || bad "validate --json: no schema"
grep -q '^	"pass":	true' "$T/json" || bad "validate --json: pass is not true"
for k in all groups regimes rows mape_bound stats predicted error tolerance pinned tags; do
	grep -q "\"$k\":" "$T/json" || bad "validate --json: no key '$k'"
done
want=$(cat tests/validation/*.yaml | grep -c '^  - id:')
got=$(grep -c '^			"id":' "$T/json")
[ "$want" = "$got" ] || bad "validate --json: $got rows, the data files hold $want"

# each row's signed error, id and percent to 0.1, from the JSON
awk -F'\t' '/^\t\t\t"id":/ { id = $NF; gsub(/[",]/, "", id) }
	/^\t\t\t"error":/ { v = $NF; sub(/,$/, "", v); printf "%s %+.1f\n", id, 100 * v }' \
	"$T/json" | sort >"$T/errors"
[ -s "$T/errors" ] || bad "validate --json: no row errors read"

# the serving rows: test_serving prints the errors it asserts
if [ -x build/tests/test_serving ]; then
	build/tests/test_serving 2>&1 |
		awk '/^serving rows/ { on = 1; next } on && /^  [a-z]/ { e = $2; sub(/%.*/, "", e);
			print $1, e }' | sort >"$T/unit"
	[ -s "$T/unit" ] || bad "test_serving printed no rows"
	join "$T/unit" "$T/errors" | awk '$2 != $3 { print; n++ } END { exit n > 0 }' \
		>"$T/diff" || bad "validate and test_serving differ: $(head -3 "$T/diff")"
	[ "$(wc -l <"$T/unit")" = "$(join "$T/unit" "$T/errors" | wc -l)" ] ||
		bad "a row test_serving asserts is missing from validate"
fi

# past a bound: exit 1, and the group says so
mkdir -p "$T/tight"
sed 's/^mape_bound: .*/mape_bound: 0.001/' tests/validation/framework-memory.yaml \
	>"$T/tight/framework-memory.yaml"
"$G" validate "$T/tight" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 1 ] || bad "validate past a bound: exit $rc, expected 1"
grep -q "OVER THE BOUND" "$T/out" || bad "validate past a bound: not said"

# a bad data file: exit 2, FILE:LINE:COL, nothing on standard output
mkdir -p "$T/bad"
sed 's/^    figure:/    figures:/' tests/validation/framework-memory.yaml >"$T/bad/x.yaml"
"$G" validate "$T/bad" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 2 ] || bad "validate of a bad file: exit $rc, expected 2"
grep -q "x.yaml:[0-9]*:[0-9]*: unknown key 'figures'" "$T/err" ||
	bad "validate of a bad file: $(cat "$T/err")"
[ -s "$T/out" ] && bad "validate of a bad file: wrote to standard output"
mkdir -p "$T/bad2"
sed '0,/derived.decode_rate/s//derived.nope/' tests/validation/decode-llamacpp.yaml >"$T/bad2/x.yaml"
"$G" validate "$T/bad2" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 2 ] || bad "validate of an unknown derived figure: exit $rc, expected 2"
grep -q "x.yaml:[0-9]*:[0-9]*: row '[a-z0-9-]*': unknown figure 'derived.nope'" "$T/err" ||
	bad "validate of an unknown derived figure: $(cat "$T/err")"
"$G" validate "$T/none" >/dev/null 2>&1
rc=$?
[ $rc != 0 ] || bad "validate of a missing folder: exit 0"

# VALIDATION.md is the program's
"$G" validate --markdown >"$T/md" 2>"$T/err" || bad "validate --markdown: exit $?"
if ! cmp -s "$T/md" VALIDATION.md; then
	bad "VALIDATION.md is not what 'gpuplan validate --markdown' prints (make validation-doc)"
	diff "$T/md" VALIDATION.md | head -10
fi

[ $fail = 0 ] && echo "validate: ok"
[ $fail = 0 ]
