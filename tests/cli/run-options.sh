#!/bin/sh
# The command line's option table is written once: --help's options block comes from it,
# and gpuplan(1)'s OPTIONS has an entry for each of its options (with the same short letter)
# and for no other. Every error path's message starts with "gpuplan:" or "gpuplan COMMAND:"
# (or names the file, FILE:LINE:COL, or the --set at fault).
# Run from anywhere; runs $GPUPLAN, by default ./gpuplan at the top of the tree.
cd "$(dirname "$0")/../.." || exit 1
G=${GPUPLAN:-./gpuplan}
[ -n "${GPUPLAN_CATALOG:-}" ] || GPUPLAN_CATALOG=$PWD/catalog
export GPUPLAN_CATALOG
T=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-options.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
	fail=$((fail + 1))
	echo "FAIL: $*"
}
[ -x "$G" ] || { echo "no $G: run make first"; exit 1; }

# --- --help's options block and the man page's OPTIONS ---------------------------------
# "SHORT LONG" per option ("- LONG" without a short letter), sorted
"$G" --help >"$T/help" || bad "gpuplan --help exited $?"
sed -n '/^options:$/,/^$/p' "$T/help" |
	sed -n 's/^  \(-\([a-z]\), \)\{0,1\} *--\([a-z-]*\).*/\2 \3/p' |
	awk '{ if (NF == 1) print "- " $1; else print }' | sort >"$T/help.opts"
n=$(wc -l <"$T/help.opts")
[ "$n" -ge 10 ] && ok || bad "--help: $n options in its options block (expected 10 or more)"
# every row of --help's block has its help text, not only a name
sed -n '/^options:$/,/^$/p' "$T/help" | grep -E '^  (-[a-z], |    )--' |
	grep -vE -- '--[a-z=A-Z|-]+ +[a-zA-Z(]' && bad "--help: an option without its help line" || ok
# the man page: each .TP tag under OPTIONS, its long options, each with the tag's short one
sed -n '/^\.SH OPTIONS/,/^\.SH /p' man/gpuplan.1 | awk 'prev == ".TP" { print } { prev = $0 }' |
	sed 's/\\-/-/g' | while read -r tag; do
	short=$(printf '%s\n' "$tag" | grep -oE '(^|[ "])-[a-z]([ "]|$)' | tr -d ' "' | head -1)
	nlong=$(printf '%s\n' "$tag" | grep -oE -- '--[a-z-]+' | wc -l)
	printf '%s\n' "$tag" | grep -oE -- '--[a-z-]+' | while read -r l; do
		# a tag of two long options (--max, --min) has no short letter
		if [ -n "$short" ] && [ "$nlong" = 1 ]; then echo "${short#-} ${l#--}"
		else echo "- ${l#--}"; fi
	done
done | sort >"$T/man.opts"
if cmp -s "$T/help.opts" "$T/man.opts"; then ok
else
	bad "gpuplan --help's options and gpuplan(1)'s OPTIONS differ (< help, > man):"
	diff "$T/help.opts" "$T/man.opts"
fi
# the options a command's --help usage names are options it takes
"$G" commands | cut -f3 | tr ' ' '\n' | sed -n 's|^.*--\([a-z-]*\).*|\1|p' | sort -u >"$T/cmd.opts"
cut -d' ' -f2 "$T/help.opts" | sort -u | cmp -s - "$T/cmd.opts" && ok ||
	bad "gpuplan commands lists other options than --help"

echo "options: $pass passed, $fail failed"
[ "$fail" = 0 ]
