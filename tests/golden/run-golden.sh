#!/bin/sh
# Golden tests: every shipped scenario (scenarios/**/*.yaml) has an expectation,
# tests/golden/expected/<path under scenarios/ with .json>, whose pinned figures
# `gpuplan report FILE --json` must match within the tolerance stated there (with its
# source). Fails on any mismatch, on a scenario without an expectation and on an
# expectation without a scenario. Needs cc and libcjson (build dependencies anyway).
# Run from the top of the tree: sh tests/golden/run-golden.sh [EXPECTED.json...]
GPUPLAN=${GPUPLAN:-./gpuplan}
# a program built elsewhere (build-asan/gpuplan) finds the tree's catalog
if [ -z "${GPUPLAN_CATALOG:-}" ] && [ -d catalog ]; then
	GPUPLAN_CATALOG=$(pwd)/catalog
	export GPUPLAN_CATALOG
fi
CC=${CC:-cc}
B=build/golden
cmp=$B/golden_cmp
mkdir -p $B
if [ ! -x $cmp ] || [ tests/golden/golden_cmp.c -nt $cmp ]; then
	# shellcheck disable=SC2046
	$CC -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -O1 \
		$(pkg-config --cflags libcjson) -o $cmp tests/golden/golden_cmp.c \
		$(pkg-config --libs libcjson) -lm || { echo "cannot build $cmp"; exit 1; }
fi
# The comparer's self-test: it must pass what holds and catch each of 11 mismatches.
st=tests/golden/selftest
if ! $cmp -g $st/fake-gpuplan $st/pass.json; then
	echo "FAIL golden_cmp self-test: $st/pass.json should pass"
	exit 1
fi
n=$($cmp -g $st/fake-gpuplan $st/fail.json 2>&1 | grep -c '^FAIL')
if [ "$n" != 11 ]; then
	echo "FAIL golden_cmp self-test: $st/fail.json gave $n failures, expected 11"
	exit 1
fi

if [ ! -x "$GPUPLAN" ]; then
	echo "no $GPUPLAN (run make first)"
	exit 1
fi

failed=0
passed=0

if [ $# -gt 0 ]; then
	list="$*"
else
	# every scenario needs an expectation ...
	for s in $(find scenarios -name '*.yaml' | sort); do
		e=tests/golden/expected/${s#scenarios/}
		e=${e%.yaml}.json
		if [ ! -f "$e" ]; then
			echo "FAIL $s: no expectation ($e)"
			failed=$((failed + 1))
		fi
	done
	# every scenario says what it is: a name and notes (the built-in one has none), and
	# each workshop lesson a question to try
	for s in $(find scenarios -name '*.yaml' | sort); do
		grep -q '^name: ' "$s" || { echo "FAIL $s: no name"; failed=$((failed + 1)); }
		[ "$s" = scenarios/default.yaml ] && continue
		grep -q '^notes: ' "$s" || { echo "FAIL $s: no notes"; failed=$((failed + 1)); }
		case $s in
		scenarios/workshop/*)
			grep -q 'Question to try' "$s" ||
				{ echo "FAIL $s: no 'Question to try' in its notes"; failed=$((failed + 1)); } ;;
		esac
	done
	# ... and every expectation its scenario
	list=$(find tests/golden/expected -name '*.json' | sort)
	for e in $list; do
		s=scenarios/${e#tests/golden/expected/}
		s=${s%.json}.yaml
		if [ ! -f "$s" ]; then
			echo "FAIL $e: no scenario $s"
			failed=$((failed + 1))
		fi
	done
fi

for e in $list; do
	if $cmp -g "$GPUPLAN" "$e" 2>$B/err; then
		echo "ok   $e"
		passed=$((passed + 1))
	else
		cat $B/err
		failed=$((failed + 1))
	fi
done
# `gpuplan check` passes every shipped scenario, and `gpuplan fmt` on each is idempotent
# and never changes a result (issue 5). Only when the whole set is run.
if [ $# -eq 0 ]; then
	for s in $(find scenarios -name '*.yaml' | sort); do
		if ! "$GPUPLAN" check "$s" >$B/out 2>$B/err; then
			echo "FAIL $s: gpuplan check finds problems"
			cat $B/out $B/err
			failed=$((failed + 1))
		elif ! "$GPUPLAN" fmt "$s" >$B/fmt1.yaml 2>$B/err ||
			! "$GPUPLAN" fmt $B/fmt1.yaml >$B/fmt2.yaml 2>>$B/err; then
			echo "FAIL $s: gpuplan fmt failed"
			cat $B/err
			failed=$((failed + 1))
		elif ! cmp -s $B/fmt1.yaml $B/fmt2.yaml; then
			echo "FAIL $s: gpuplan fmt is not idempotent"
			diff $B/fmt1.yaml $B/fmt2.yaml | head -20
			failed=$((failed + 1))
		elif ! "$GPUPLAN" report "$s" --json >$B/r1.json 2>$B/err ||
			! "$GPUPLAN" report $B/fmt1.yaml --json >$B/r2.json 2>>$B/err ||
			! $cmp -s $B/r1.json $B/r2.json 2>>$B/err; then
			echo "FAIL $s: the report of its gpuplan fmt output differs"
			cat $B/err
			failed=$((failed + 1))
		else
			passed=$((passed + 1))
		fi
	done
fi

echo "golden: $passed passed, $failed failed"
[ $failed = 0 ]
