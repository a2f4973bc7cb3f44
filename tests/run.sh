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
		"$t" >>"$log" 2>&1
		result $? "$t"
	else
		name=$(basename "$t")
		corpus=tests/fuzz/corpus/${name#fuzz_}
		echo "== $t $corpus" >>"$log"
		if [ -d "$corpus" ]; then
			"$t" "$corpus" >>"$log" 2>&1
			result $? "$t (corpus replay)"
		else
			echo "no corpus at $corpus" >>"$log"
			result 1 "$t (no corpus)"
		fi
	fi
done

for s in tests/*/run-*.sh; do
	[ -f "$s" ] || continue
	echo "== $s" >>"$log"
	sh "$s" >>"$log" 2>&1
	result $? "$s"
done

echo
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed"
echo "$passed passed, $failed failed" >"${log%.log}.summary"
[ "$failed" = 0 ]
