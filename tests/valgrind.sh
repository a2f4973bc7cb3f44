#!/bin/sh
# Memcheck over the report of every shipped scenario and the catalog listing: no errors,
# no leaks. Usage: GPUPLAN=./gpuplan sh tests/valgrind.sh
set -u
bin=${GPUPLAN:-./gpuplan}
command -v valgrind >/dev/null 2>&1 || { echo "valgrind: not installed (apt-get install valgrind)" >&2; exit 1; }
fail=0
n=0
run() {
	n=$((n + 1))
	if ! valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
		"$@" >/dev/null 2>build/valgrind.log; then
		rc=$?
		if [ $rc = 99 ] || grep -q "==" build/valgrind.log; then
			echo "valgrind: errors in: $*" >&2
			cat build/valgrind.log >&2
			fail=1
		fi
	fi
}
mkdir -p build
for f in scenarios/*.yaml scenarios/workshop/*.yaml; do
	[ -f "$f" ] || continue
	run "$bin" report "$f" --json
	run "$bin" report "$f"
done
run "$bin" catalog gpus
run "$bin" catalog models
echo "valgrind: $n runs, $([ $fail = 0 ] && echo clean || echo ERRORS)"
exit $fail
