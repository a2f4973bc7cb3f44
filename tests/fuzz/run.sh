#!/bin/sh
# Runs every libFuzzer target (tests/fuzz/fuzz_*.c) for a bounded time each, seeded from its
# corpus (tests/fuzz/corpus/NAME) and the key dictionary. A crash leaves its input in
# tests/fuzz/out/ and fails the run: add it to the corpus as a regression file once fixed.
# Usage: sh tests/fuzz/run.sh [SECONDS_PER_TARGET]   (default 60)
set -eu
secs=${1:-60}
command -v clang >/dev/null 2>&1 || { echo "fuzz: clang is needed (apt-get install clang)" >&2; exit 1; }
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
# the UI's objects too (all of ui/ but main.c), for fuzz_ui
uiobj=$(for f in ui/*.c; do [ "$f" = ui/main.c ] || echo "build-fuzz/${f%.c}.o"; done)
make -s --no-print-directory B=build-fuzz CC=clang \
	CFLAGS="-O1 -g -fsanitize=fuzzer-no-link $san" build-fuzz/libgpuplan.a $uiobj
mkdir -p build-fuzz/fuzz tests/fuzz/out
cflags="$(pkg-config --cflags yaml-0.1 libcjson)"
libs="$(pkg-config --libs yaml-0.1 libcjson) -lm"
status=0
for src in tests/fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	short=${name#fuzz_}
	bin=build-fuzz/fuzz/$name
	extra=
	[ "$name" = fuzz_ui ] &&
		extra="$(pkg-config --cflags ncursesw) -Iui -Icli $uiobj $(pkg-config --libs ncursesw)"
	# shellcheck disable=SC2086
	clang -std=c11 -D_DEFAULT_SOURCE -O1 -g -fsanitize=fuzzer $san $cflags -Isrc -o "$bin" \
		"$src" $extra build-fuzz/libgpuplan.a $libs
	work=$(mktemp -d)
	[ -d "tests/fuzz/corpus/$short" ] && cp -r "tests/fuzz/corpus/$short/." "$work/"
	dict=""
	[ -f "tests/fuzz/$short.dict" ] && dict="-dict=tests/fuzz/$short.dict"
	# a hang is an input past the timeout; fuzz_ui's inputs may run two catalog-wide
	# searches, about 2 s each under the sanitizers (fuzz_ui.c, MAX_LAYOUTS)
	timeout=5
	[ "$name" = fuzz_ui ] && timeout=25
	# its temporary files (fuzz_ui's folder, left by a crash) go with the run's
	tmp=$(mktemp -d)
	echo "fuzz: $name for ${secs}s"
	# the artifacts by an absolute name: fuzz_ui works in a temporary folder during an input
	if ! TMPDIR=$tmp sh tests/noaslr.sh "$bin" $dict -max_total_time="$secs" -max_len=65536 \
		-timeout="$timeout" -rss_limit_mb=2048 \
		-artifact_prefix="$PWD/tests/fuzz/out/$short-" "$work" >build-fuzz/"$name".log 2>&1; then
		echo "fuzz: $name FAILED; see build-fuzz/$name.log and tests/fuzz/out/" >&2
		tail -30 build-fuzz/"$name".log >&2
		status=1
	fi
	rm -rf "$work" "$tmp"
done
exit $status
