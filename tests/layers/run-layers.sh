#!/bin/sh
# The layer guard's self-test: tests/layers/check-layers.sh passes a copy of src/ as it is,
# and fails, naming the file and the rule, on each copy with one violation planted (a
# curses include, WINDOW, yaml.h or cJSON.h in the wrong file, a ui/ or cli/ header, a
# printf, an exit, stderr); a comment or a string that only mentions printf is no
# violation. The archive rules fail on a small archive whose object calls initscr (link)
# or printf (symbols). Needs cc.
# Run from anywhere: sh tests/layers/run-layers.sh
. "$(dirname "$0")/../lib.sh"
check=tests/layers/check-layers.sh
CC=${CC:-cc}
scratch layers-test

fresh() {
	rm -rf "$T/src"
	mkdir "$T/src"
	cp src/*.c src/*.h "$T/src/"
}

# expect_fail FILE RULE LINE: with LINE appended to a copy of src/FILE the check fails,
# and says FILE and "rule RULE"
expect_fail() {
	fresh
	printf '%s\n' "$3" >>"$T/src/$1"
	if sh $check "$T/src" >"$T/out" 2>&1; then
		bad "check-layers passed $1 with '$3' planted (rule $2)"
	elif ! grep "$T/src/$1:" "$T/out" | grep -q "rule $2:"; then
		bad "check-layers failed $1 with '$3' planted, but not naming $1 and rule $2:"
		sed 's/^/  /' "$T/out"
	fi
}

# expect_pass FILE LINE: LINE appended to a copy of src/FILE breaks no rule
expect_pass() {
	fresh
	printf '%s\n' "$2" >>"$T/src/$1"
	sh $check "$T/src" >"$T/out" 2>&1 ||
		{ bad "check-layers failed $1 with '$2' appended, which breaks no rule:" &&
			sed 's/^/  /' "$T/out"; }
}

fresh
sh $check "$T/src" >"$T/out" 2>&1 || { bad "check-layers fails src/ as it is:" &&
	sed 's/^/  /' "$T/out"; }

expect_fail plan.c curses '#include <curses.h>'
expect_fail units.h curses '#include <ncursesw/ncurses.h>'
expect_fail search.c curses '#include <panel.h>'
expect_fail model.c curses 'static WINDOW *win;'
expect_fail catalog.c yaml.h '#include <yaml.h>'
expect_fail scenario_yaml.c yaml.h '#include <yaml.h>'
expect_fail scenario.c cJSON.h '#include <cJSON.h>'
# a second reader beside the one behind hf_int.h (hf_quant.c was one), in a .c or a
# header, and a file of that reader that includes cJSON.h itself, not through hf_int.h
expect_fail hf_quant.c cJSON.h '#include <cJSON.h>'
expect_fail hf_family.c cJSON.h '#include <cJSON.h>'
expect_fail hf_quant.h cJSON.h '#include <cjson/cJSON.h>'
expect_fail validate.c cJSON.h '#include <cJSON.h>'
expect_fail text.c layers '#include "app.h"'
# a front end that includes cJSON.h or yaml.h
fresh
mkdir "$T/cli"
printf '#include "report_json.h"\n' >"$T/cli/ok.c"
FRONTS="$T/cli" sh $check "$T/src" >"$T/out" 2>&1 ||
	{ bad "check-layers failed a front end that includes report_json.h:" &&
		sed 's/^/  /' "$T/out"; }
for h in '<cJSON.h>' '<yaml.h>'; do
	printf '#include %s\n' "$h" >"$T/cli/bad.c"
	if FRONTS="$T/cli" sh $check "$T/src" >"$T/out" 2>&1; then
		bad "check-layers passed cli/bad.c including $h (rule fronts)"
	elif ! grep "$T/cli/bad.c:1:" "$T/out" | grep -q "rule fronts:"; then
		bad "check-layers failed cli/bad.c with $h, but not naming it and rule fronts:"
		sed 's/^/  /' "$T/out"
	fi
done
rm -rf "$T/cli"
expect_fail error.c layers '#include "../cli/cli.h"'
expect_fail dtype.c prints 'void probe(void) { printf("x\n"); }'
expect_fail file.c prints 'void probe(void) { exit(1); }'
expect_fail report.c prints 'void probe(void) { fprintf(stderr, "x"); }'
expect_fail explain.c prints 'void probe(void) { puts("x"); }'
expect_pass dtype.c '/* a front end may printf("x") and exit(1); the core returns -1 */'
expect_pass dtype.c 'static const char probe[] = "printf(x) exit(1) WINDOW stderr";'
expect_pass dtype.c 'int probe_exit_code(void); /* named like exit, not a call of it */'

# the archive rules: an object that calls curses, one that prints
cat >"$T/curses.c" <<'EOF'
void *initscr(void);
void probe_curses(void);
void probe_curses(void) { initscr(); }
EOF
cat >"$T/prints.c" <<'EOF'
#include <stdio.h>
void probe_prints(void);
void probe_prints(void) { printf("%d\n", 1); }
EOF
fresh
for o in curses prints; do
	if ! $CC -c -o "$T/$o.o" "$T/$o.c" 2>"$T/out" ||
		! ar rcs "$T/lib$o.a" "$T/$o.o" 2>>"$T/out"; then
		bad "cannot build the probe archive lib$o.a:"
		sed 's/^/  /' "$T/out"
	fi
done
if sh $check "$T/src" "$T/libcurses.a" >"$T/out" 2>&1; then
	bad "check-layers passed an archive whose object calls initscr (rule link)"
elif ! grep "libcurses.a" "$T/out" | grep -q "rule link:"; then
	bad "check-layers failed the curses archive, but not naming it and rule link:"
	sed 's/^/  /' "$T/out"
fi
if sh $check "$T/src" "$T/libprints.a" >"$T/out" 2>&1; then
	bad "check-layers passed an archive whose object calls printf (rule symbols)"
elif ! grep "libprints.a(prints.o): needs printf" "$T/out" | grep -q "rule symbols:"; then
	bad "check-layers failed the printing archive, but not naming its object and rule symbols:"
	sed 's/^/  /' "$T/out"
fi

[ $fail = 0 ] && echo "check-layers self-test: every rule passes the tree and fails its probe"
[ $fail = 0 ]
