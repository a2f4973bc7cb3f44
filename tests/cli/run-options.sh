#!/bin/sh
# The command line's option table is written once: --help's options block comes from it,
# and gpuplan(1)'s OPTIONS has an entry for each of its options (with the same short letter)
# and for no other. Every error path's message starts with "gpuplan:" or "gpuplan COMMAND:"
# (or names the file, FILE:LINE:COL, or the --set at fault).
# Run from anywhere; runs $GPUPLAN, by default ./gpuplan at the top of the tree.
. "$(dirname "$0")/../lib.sh"
program --catalog --built options
scratch options

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
# every option a command takes (gpuplan commands, from the option table) is in its --help:
# in the usage line (as --LONG or -S) and in its options block; and in gpuplan(1)'s
# SYNOPSIS for the command (--profile was once left out of calibrate --help)
"$G" commands | while IFS='	' read -r cmd operands opts summary; do
	[ "$cmd" = - ] && continue
	"$G" "$cmd" --help >"$T/cmd.help" 2>&1 || { echo "FAIL: $cmd --help exited $?"; continue; }
	sed -n '1,/^$/p' "$T/cmd.help" >"$T/cmd.usage"
	sed -n '/^options:$/,$p' "$T/cmd.help" >"$T/cmd.block"
	sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' man/gpuplan.1 |
		awk -v c="$cmd" '$0 == ".SY gpuplan" { on = 0 } $0 == ".B " c { on = 1 } on' |
		sed 's/\\-/-/g' >"$T/cmd.syn"
	for o in $opts; do
		case $o in -h/--help) continue ;; esac
		long=${o#*--}
		long=--${long%%=*}
		short=
		case $o in -?/*) short=${o%%/*} ;; esac
		if ! grep -qE -- "(^|[[( ])($long|${short:-$long})([] =|]|$)" "$T/cmd.usage"; then
			echo "FAIL: $cmd --help: usage does not name $long"
		elif ! grep -qE -- "^  (-[a-z], )? *$long([= ]|$)" "$T/cmd.block"; then
			echo "FAIL: $cmd --help: options block has no $long"
		elif ! grep -qE -- "(^|[[( ])($long|${short:-$long})( |$)" "$T/cmd.syn"; then
			echo "FAIL: gpuplan(1) SYNOPSIS of $cmd does not name $long"
		else
			echo ok
		fi
	done
done >"$T/cmdopts"
tally "$T/cmdopts"
# a hidden command takes no option but --help (gpuplan(1)), and its --help says so
for cmd in fields keys figures commands; do
	"$G" $cmd --help | sed -n '/^options:$/,$p' | grep -E '^  (-[a-z], |    )--' |
		grep -qv -- '--help' && bad "$cmd --help lists options other than --help" || ok
done
# gpuplan commands hidden: the hidden rows alone, in the same form (the man page check's);
# another operand is a usage error
"$G" commands hidden | cut -f1 >"$T/hidden"
printf 'fields\nkeys\nfigures\ncommands\n' | cmp -s - "$T/hidden" && ok ||
	bad "gpuplan commands hidden: $(tr '\n' ' ' <"$T/hidden")"
"$G" commands | cut -f1 | grep -qxF fields && bad "gpuplan commands lists the hidden fields" ||
	ok
# a summary is the help's first phrase whole, across its line breaks: it ends at a word's
# ": " or ". ", never mid-sentence at a line's end (fmt's once stopped at "to standard")
"$G" commands | awk -F'\t' '$1 == "fmt" || $1 == "keys" { print $1 ": " $4 }' >"$T/summary"
"$G" commands hidden | awk -F'\t' '$1 == "keys" { print $1 ": " $4 }' >>"$T/summary"
printf '%s\n' "fmt: Reads a scenario and writes it back in canonical form (key order, units), to standard output or atomically to OUT" \
	"keys: The terminal UI's keys and : commands as TSV (mode, key, action, help)" |
	cmp -s - "$T/summary" && ok || bad "gpuplan commands: summaries cut: $(cat "$T/summary")"
"$G" commands bogus >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "expected hidden" "$T/err" && ok ||
	bad "gpuplan commands bogus: not a usage error naming hidden"
# operands: an option's argument is none (calibrate --measured KEY=VALUE...), an optional
# operand keeps its brackets (explain FILE [KEY])
"$G" commands | awk -F'\t' '$1 == "calibrate" || $1 == "explain" { print $1 " " $2 }' \
	>"$T/operands"
printf 'explain FILE [KEY]\ncalibrate FILE\n' | cmp -s - "$T/operands" && ok ||
	bad "gpuplan commands: operands $(tr '\n' ';' <"$T/operands")"
n=$tallied
[ "$n" -ge 30 ] || bad "only $n options checked against their command's --help"

# --- every message starts with gpuplan: or names its place ---------------------------------
# a line of standard error is "gpuplan: ...", "gpuplan COMMAND: ...", "usage: ..." (the line
# after a usage error, and its indented continuation), "FILE:LINE[:COL]: ..." or "--set
# KEY=VALUE: ..."
D=tests/data/cli
mkdir -p "$T/dir" && mkfifo "$T/fifo" && ln -s loopb "$T/loopa" && ln -s loopa "$T/loopb"
printf 'gpuplan: 1\nmodel:\n  preset: llama-2-7b\nhardware:\n  gpu: h100-sxm-80gb\n' >"$T/ro.yaml"
chmod 444 "$T/ro.yaml"
# one error path a line: ARGS (word-split)
cases="reprot
--jsn
report
report $D/no-such-file.yaml
report $D/bad-syntax.yaml
report $D/invalid.yaml
report $D/train.yaml --set hardware.count=abc
report $D/train.yaml --set parallel.tp=3
report $D/train.yaml --set nosuch.key=1
report $D/train.yaml --top 3
report $T/dir
report $T/loopa
check $D/invalid.yaml
check $D/no-such-file.yaml
check tests/data/bad/many-problems.yaml
check tests/data/bad/unknown-key.yaml
check tests/data/bad/invalid-utf8.yaml
explain $D/train.yaml no.such.key
solve $D/train.yaml
solve $D/train.yaml --max no.such.key
search $D/train.yaml --by speed
search $D/train.yaml --top 0
diff - -
import $D/no-such.json
import $D/bad-json.json
catalog nothing
catalog --csv
fmt $D/train.yaml -o $T/dir
fmt $D/train.yaml -o $T/loopa
fmt $D/train.yaml -o $T/ro.yaml
validate $T/dir"
printf '%s\n' "$cases" | while read -r args; do
	# shellcheck disable=SC2086 # word-split on purpose
	timeout 20 "$G" $args </dev/null >/dev/null 2>"$T/err"
	rc=$?
	if [ $rc = 0 ]; then echo "FAIL: gpuplan $args: exit 0, expected an error"; continue; fi
	[ -s "$T/err" ] || { echo "FAIL: gpuplan $args: exit $rc without a message"; continue; }
	if grep -vE '^(gpuplan( [a-z]+)?: |usage: | +\[|[^ :]+:[0-9]+(:[0-9]+)?: |--set [^ :]+: )' \
		"$T/err" >"$T/stray"; then
		echo "FAIL: gpuplan $args: a message without gpuplan: or its place:"
		sed 's/^/  /' "$T/stray"
	else
		echo ok
	fi
done >"$T/prefix"
tally "$T/prefix"
n=$tallied
[ "$n" -ge 25 ] || bad "only $n error paths checked for the gpuplan: prefix"

# --- limits: --set has none of its own; the catalog's are the man page's ------------------
args=""
for i in $(seq 150); do args="$args --set hardware.count=8"; done
# shellcheck disable=SC2086 # word-split on purpose
"$G" fmt tests/data/cli/train.yaml $args --set hardware.count=16 >"$T/out" 2>"$T/err" &&
	grep -q '^  count: 16$' "$T/out" && ok || bad "151 --set options (the last one wins)"
for what in GPUS MODELS; do
	n=$(sed -n "s/^#define CATALOG_MAX_$what  *\([0-9]*\).*/\1/p" src/catalog.h)
	word=$(echo "$what" | tr 'A-Z' 'a-z' | sed 's/gpus/GPUs/')
	[ -n "$n" ] && tr '\n' ' ' <man/gpuplan.1 | grep -qE "at most ([0-9]+ GPUs and )?$n $word" && ok ||
		bad "gpuplan(1) does not give the catalog's limit of $n $word (src/catalog.h)"
done

summary options
