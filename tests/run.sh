#!/bin/sh
# Runs every test: the unit test binaries given before "--", the fuzz replayers given after
# it (each over its corpus), then every tests/*/run-*.sh script (golden, tui, man, cli).
# Ends with one "N passed, N failed" line; exits non-zero if anything failed.
passed=0
failed=0
failures=""
log=${TEST_LOG:-build/test.log}
mkdir -p build
: >"$log"
out=$(mktemp "${TMPDIR:-/tmp}/gpuplan-test.XXXXXX")
why=$(mktemp "${TMPDIR:-/tmp}/gpuplan-why.XXXXXX")
trap 'rm -f "$out" "$why"' EXIT

# run NAME COMMAND...: the command's output goes to the log. A failure's own lines (the
# checks that failed, a sanitizer's report) are also kept for the end of standard output, so
# a CI log that shows only its last lines still says what failed.
run() {
	name=$1
	shift
	"$@" >"$out" 2>&1
	rc=$?
	cat "$out" >>"$log"
	result $rc "$name"
	[ $rc = 0 ] && return
	{
		echo "$name (exit $rc):"
		grep -E '^FAIL|FAILED|ERROR: AddressSanitizer|runtime error|LeakSanitizer|[Ee]rror' \
			"$out" | head -12
		grep -Eq '^FAIL|FAILED|ERROR|runtime error|[Ee]rror' "$out" || tail -5 "$out"
	} | sed 's/^/  /' >>"$why"
}

result() {
	if [ "$1" = 0 ]; then
		passed=$((passed + 1))
		printf '  PASS   %s\n' "$2"
	else
		failed=$((failed + 1))
		failures="$failures $2"
		printf '  FAIL   %s (see %s)\n' "$2" "$log"
	fi
}

phase=unit
for t in "$@"; do
	if [ "$t" = "--" ]; then phase=fuzz; continue; fi
	if [ $phase = unit ]; then
		echo "== $t" >>"$log"
		run "$t" "$t"
	else
		name=$(basename "$t")
		corpus=tests/fuzz/corpus/${name#fuzz_}
		echo "== $t $corpus" >>"$log"
		if [ -d "$corpus" ]; then
			run "$t (corpus replay)" "$t" "$corpus"
		else
			echo "no corpus at $corpus" >>"$log"
			result 1 "$t (no corpus)"
		fi
	fi
done

for s in tests/*/run-*.sh; do
	[ -f "$s" ] || continue
	echo "== $s" >>"$log"
	run "$s" sh "$s"
done

echo
[ -n "$failures" ] && echo "failed:$failures" && cat "$why"
echo "$passed passed, $failed failed"
echo "$passed passed, $failed failed" >"${log%.log}.summary"
[ "$failed" = 0 ]
