#!/bin/sh
# The tree guard's self-test: tests/layers/check-tree.sh passes a copy of the tracked tree
# as it is, and fails, naming the file and the rule, on copies with one fault planted: a .c
# file of src/ without its purpose line, a test .c file starting with code or with a
# comment that does not name it, README.md's layout section without a src/ file, without a
# top-level folder, without a folder of tests/. A word like pane_*.c names a new file it
# matches.
# Run from anywhere: sh tests/layers/run-tree.sh
. "$(dirname "$0")/../lib.sh"
check=$(pwd)/tests/layers/check-tree.sh
scratch tree-test

# a copy of the files git tracks (and the untracked ones it does not ignore), not a work tree
fresh() {
	rm -rf "$T/t"
	mkdir "$T/t"
	git ls-files --cached --others --exclude-standard -z |
		xargs -0 sh -c 'for f; do [ -f "$f" ] && echo "$f"; done' sh >"$T/list"
	tar -cf - -T "$T/list" | tar -xf - -C "$T/t"
}

# expect_fail WHAT RULE: check-tree fails on the copy, with a line naming WHAT and RULE
expect_fail() {
	if sh "$check" "$T/t" >"$T/out" 2>&1; then
		bad "check-tree passed with $1 (rule $2)"
	elif ! grep -F "$1" "$T/out" | grep -q "rule $2"; then
		bad "check-tree failed, but not naming $1 and rule $2:"
		sed 's/^/  /' "$T/out"
	fi
}

fresh
sh "$check" "$T/t" >"$T/out" 2>&1 || { bad "check-tree fails the tree as it is:" &&
	sed 's/^/  /' "$T/out"; }

fresh
printf '#include "error.h"\n' >"$T/t/src/probe.c"
expect_fail src/probe.c purpose

fresh
printf '#include <stdio.h>\n/* test_probe.c - late */\n' >"$T/t/tests/unit/test_probe.c"
expect_fail tests/unit/test_probe.c purpose

fresh
printf '/* A probe without its name. */\n' >"$T/t/tests/unit/test_probe.c"
expect_fail tests/unit/test_probe.c purpose

fresh
sed -i 's/chart\.c (text and SVG charts)/(charts)/' "$T/t/README.md"
expect_fail src/chart.c layout

fresh
sed -i 's|^debian/ .*||' "$T/t/README.md"
expect_fail debian/ layout

fresh
sed -i 's|^tests/sweep/ .*||' "$T/t/README.md"
expect_fail tests/sweep layout

fresh
mkdir "$T/t/newdir" && printf 'x\n' >"$T/t/newdir/file"
expect_fail newdir/ layout

# pane_*.c names a new pane
fresh
printf '/* pane_probe.c - a probe. */\n' >"$T/t/ui/pane_probe.c"
sh "$check" "$T/t" >"$T/out" 2>&1 || { bad "check-tree fails a new ui/pane_probe.c that pane_*.c names:" &&
	sed 's/^/  /' "$T/out"; }

[ $fail = 0 ] && echo "check-tree self-test: every rule passes the tree and fails its probe"
[ $fail = 0 ]
