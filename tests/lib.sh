# lib.sh - what the shell tests share, sourced first by each tests/*/run-*.sh as
#   . "$(dirname "$0")/../lib.sh"
# It moves to the top of the tree and defines the helpers a script calls for what it needs:
#   program [--catalog] [--absolute] [--built NAME]
#                 G: the program under test, $GPUPLAN or ./gpuplan (see below)
#   scratch NAME  T: a fresh temporary folder, removed on exit (KEEP=1 keeps it)
#   ok, bad WHAT  count a check passed or failed; bad says what failed, with the first
#                 lines of $ERR when it names a file that is not empty (ERR=$T/err)
#   tally FILE    count the "ok" and "FAIL: ..." lines a pipeline's loop wrote to FILE
#   summary NAME  the script's last line, "NAME: N passed, N failed", and its exit status
# The terminal-UI scripts share tests/tui/lib.sh (tmux) instead.
cd "$(dirname "$0")/../.." || exit 1
pass=0
fail=0
ERR=

ok() { pass=$((pass + 1)); }

bad() {
	fail=$((fail + 1))
	echo "FAIL: $*"
	if [ -n "$ERR" ] && [ -s "$ERR" ]; then sed 's/^/  stderr: /' "$ERR" | head -5; fi
}

# program [--catalog] [--absolute] [--built NAME]: G is $GPUPLAN, or ./gpuplan. A program
# built elsewhere (make asan: build-asan/gpuplan) has no catalog beside it, so the tree's
# catalog is exported for it unless GPUPLAN_CATALOG is set; --catalog exports it for
# ./gpuplan too. --absolute makes G an absolute path (for a script that leaves the top of
# the tree); --built NAME exits 1 with a message when G is not an executable.
program() {
	G=${GPUPLAN:-./gpuplan}
	_cat=no
	while [ $# -gt 0 ]; do
		case $1 in
		--catalog) _cat=yes ;;
		--absolute) case $G in /*) ;; *) G=$PWD/${G#./} ;; esac ;;
		--built)
			shift
			[ -x "$G" ] || { echo "$1: $G is not built (run make first)"; exit 1; }
			;;
		esac
		shift
	done
	if [ -z "${GPUPLAN_CATALOG:-}" ] && { [ $_cat = yes ] || [ "${GPUPLAN:-./gpuplan}" != ./gpuplan ]; }; then
		GPUPLAN_CATALOG=$PWD/catalog
		export GPUPLAN_CATALOG
	fi
}

scratch() {
	T=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-$1.XXXXXX") || exit 1
	[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT INT TERM
}

# tally FILE: the checks a pipeline's loop (a subshell, whose ok and bad count nothing here)
# wrote to FILE, "ok" or "FAIL: ..." a line (a failure's detail on the lines after it):
# counted, and with a failure every line but the oks shown; $tallied is the oks' count.
tally() {
	tallied=$(grep -c '^ok$' "$1")
	pass=$((pass + tallied))
	if grep -q '^FAIL' "$1"; then
		grep -v '^ok$' "$1"
		fail=$((fail + $(grep -c '^FAIL' "$1")))
	fi
}

summary() {
	echo "$1: $pass passed, $fail failed"
	[ "$fail" = 0 ]
}
