#!/bin/sh
# The tree guard's self-test: tests/layers/check-tree.sh passes a copy of the tracked tree
# as it is, and fails, naming the file and the rule, on copies with one fault planted: a .c
# file of src/ without its purpose line, a test .c file starting with code, README.md's
# layout section without a src/ file, without a top-level folder, without a folder of
# tests/. A word like pane_*.c names a new file it matches.
# Run from the top of the tree: sh tests/layers/run-tree.sh
check=$(pwd)/tests/layers/check-tree.sh
failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-tree-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

fail() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}

# a copy of the files git tracks (and the untracked ones it does not ignore), not a work tree
fresh() {
	rm -rf "$tmp/t"
	mkdir "$tmp/t"
	git ls-files --cached --others --exclude-standard -z |
		xargs -0 sh -c 'for f; do [ -f "$f" ] && echo "$f"; done' sh >"$tmp/list"
	tar -cf - -T "$tmp/list" | tar -xf - -C "$tmp/t"
}

# expect_fail WHAT RULE: check-tree fails on the copy, with a line naming WHAT and RULE
expect_fail() {
	if sh "$check" "$tmp/t" >"$tmp/out" 2>&1; then
		fail "check-tree passed with $1 (rule $2)"
	elif ! grep -F "$1" "$tmp/out" | grep -q "rule $2"; then
		fail "check-tree failed, but not naming $1 and rule $2:"
		sed 's/^/  /' "$tmp/out"
	fi
}

fresh
sh "$check" "$tmp/t" >"$tmp/out" 2>&1 || { fail "check-tree fails the tree as it is:" &&
	sed 's/^/  /' "$tmp/out"; }

fresh
printf '#include "error.h"\n' >"$tmp/t/src/probe.c"
expect_fail src/probe.c purpose

fresh
printf '#include <stdio.h>\n/* test_probe.c - late */\n' >"$tmp/t/tests/unit/test_probe.c"
expect_fail tests/unit/test_probe.c purpose

fresh
sed -i 's/chart\.c (text and SVG charts)/(charts)/' "$tmp/t/README.md"
expect_fail src/chart.c layout

fresh
sed -i 's|^debian/ .*||' "$tmp/t/README.md"
expect_fail debian/ layout

fresh
sed -i 's|^tests/sweep/ .*||' "$tmp/t/README.md"
expect_fail tests/sweep layout

fresh
mkdir "$tmp/t/newdir" && printf 'x\n' >"$tmp/t/newdir/file"
expect_fail newdir/ layout

# pane_*.c names a new pane
fresh
printf '/* pane_probe.c - a probe. */\n' >"$tmp/t/ui/pane_probe.c"
sh "$check" "$tmp/t" >"$tmp/out" 2>&1 || { fail "check-tree fails a new ui/pane_probe.c that pane_*.c names:" &&
	sed 's/^/  /' "$tmp/out"; }

[ $failed = 0 ] && echo "check-tree self-test: every rule passes the tree and fails its probe"
[ $failed = 0 ]
