#!/bin/sh
# Runs every test: the unit test binaries given before "--", the fuzz replayers given after
# it (each over its corpus), then every tests/*/run-*.sh script (golden, tui, man, cli).
# The terminal-UI scripts (tests/tui/run-*.sh, each on its own tmux socket with no state
# shared) run last, TUI_JOBS (default 4) at a time, each reported under its own name.
# TEST_SCRIPTS=GLOB runs only those scripts (no binaries needed): `make check-tui`.
# Ends with one "N passed, N failed" line; exits non-zero if anything failed.
passed=0
failed=0
failures=""
log=${TEST_LOG:-build/test.log}
mkdir -p build
: >"$log"
out=$(mktemp "${TMPDIR:-/tmp}/gpuplan-test.XXXXXX")
why=$(mktemp "${TMPDIR:-/tmp}/gpuplan-why.XXXXXX")
tuidir=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-tui.XXXXXX")
trap 'rm -rf "$out" "$why" "$tuidir"' EXIT
scripts=${TEST_SCRIPTS:-tests/*/run-*.sh}

# run NAME COMMAND...: the command's output goes to the log. A failure's own lines (the
# checks that failed, a sanitizer's report) are also kept for the end of standard output, so
# a CI log that shows only its last lines still says what failed.
run() {
	name=$1
	shift
	"$@" >"$out" 2>&1
	report $? "$name" "$out"
}

# report RC NAME OUTPUT: OUTPUT goes to the log, the result is counted, and a failure's
# own lines kept.
report() {
	cat "$3" >>"$log"
	result "$1" "$2"
	[ "$1" = 0 ] && return
	{
		echo "$2 (exit $1):"
		grep -E '^FAIL|FAILED|ERROR: AddressSanitizer|runtime error|LeakSanitizer|[Ee]rror' \
			"$3" | head -12
		grep -Eq '^FAIL|FAILED|ERROR|runtime error|[Ee]rror' "$3" || tail -5 "$3"
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

for s in $scripts; do
	[ -f "$s" ] || continue
	case $s in tests/tui/run-*.sh) continue ;; esac
	echo "== $s" >>"$log"
	run "$s" sh "$s"
done

# The terminal-UI scripts last, in parallel among themselves only (a unit test that times
# itself is not run beside them): each writes DIR/N.out and then DIR/N.rc.
tui=
for s in $scripts; do
	case $s in tests/tui/run-*.sh) [ -f "$s" ] && tui="$tui $s" ;; esac
done
if [ -n "$tui" ]; then
	printf '%s\n' $tui | xargs -P "${TUI_JOBS:-4}" -I{} sh -c \
		'n=$(basename "$1" .sh); sh "$1" >"$2/$n.out" 2>&1; echo $? >"$2/$n.rc"' \
		sh {} "$tuidir"
	for s in $tui; do
		n=$(basename "$s" .sh)
		echo "== $s" >>"$log"
		if [ -f "$tuidir/$n.rc" ]; then
			report "$(cat "$tuidir/$n.rc")" "$s" "$tuidir/$n.out"
		else
			echo "$s did not finish" >"$tuidir/$n.out"
			report 1 "$s" "$tuidir/$n.out"
		fi
	done
fi

echo
[ -n "$failures" ] && echo "failed:$failures" && cat "$why"
echo "$passed passed, $failed failed"
echo "$passed passed, $failed failed" >"${log%.log}.summary"
[ "$failed" = 0 ]
