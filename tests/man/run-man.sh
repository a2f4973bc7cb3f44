#!/bin/sh
# Man pages and completion: groff reports no warnings on either page, nor at 80 columns;
# every key of the field table (as `$GPUPLAN fields` lists it) has an entry in
# gpuplan-scenario(5); every command and option (as `gpuplan commands` and `gpuplan
# commands hidden` list them) and environment variable the program reads is in
# gpuplan(1), and every key of the terminal UI; contrib/gpuplan.bash holds no copy of a
# table and completes commands, keys and values by asking the program.
# Run from anywhere: sh tests/man/run-man.sh
. "$(dirname "$0")/../lib.sh"

man1=man/gpuplan.1
man5=man/gpuplan-scenario.5
scratch man
tmp=$T/out

# 1. groff: no warnings at all (-ww), no output, exit 0
if ! command -v groff >/dev/null 2>&1; then
	bad "groff not found (Debian: apt-get install groff-base)"
else
	for page in $man1 $man5 man/gpuplan-catalog.5; do
		if ! groff -man -ww -z "$page" >"$tmp" 2>&1 || [ -s "$tmp" ]; then
			bad "groff -man -ww -z $page:"
			cat "$tmp"
		fi
		# and as man(1) sets it on an 80-column terminal (line length 78n): no line it
		# cannot break or adjust
		if ! groff -man -ww -Tutf8 -rLL=78n -z "$page" >"$tmp" 2>&1 || [ -s "$tmp" ]; then
			bad "groff -man -ww -Tutf8 -rLL=78n -z $page (man at 80 columns):"
			cat "$tmp"
		fi
	done
fi

# 2. every scenario key has its own entry (".B key") in gpuplan-scenario(5)
keys=$(sh tests/man/gen-keys.sh)
[ -n "$keys" ] || bad "tests/man/gen-keys.sh found no keys (gpuplan fields)"
n=0
for k in $keys; do
	n=$((n + 1))
	grep -qxF ".B $k" $man5 || bad "$man5: no entry for key '$k' (expected a line '.B $k')"
done
echo "scenario keys: $n"

# ... and no entry for a key that is not in the table
for k in $(awk '/^\.SH KEYS/ { on = 1; next } /^\.SH / { on = 0 }
	on && prev == ".TP" && $1 == ".B" { print $2 } { prev = $0 }' $man5); do
	echo "$keys" | grep -qxF "$k" || bad "$man5: entry for '$k', which is not a key of the field table"
done

# 3. gpuplan(1): every command of the command table, as the program prints it (the hidden
# `gpuplan commands`, which the completions read too; `gpuplan commands hidden` the hidden
# rows, helpers for scripts such as `gpuplan fields`): each visible one in the synopsis and
# with its own entry
bin=${GPUPLAN:-./gpuplan}
commands=$("$bin" commands | cut -f1 | grep -vxF -- - | sort -u)
hidden_rows=$("$bin" commands hidden | cut -f1 | sort -u)
[ -n "$commands" ] || bad "$bin commands: no command listed (is $bin built?)"
[ -n "$hidden_rows" ] || bad "$bin commands hidden: no hidden command listed"
for c in report explain diff search import catalog check fmt; do
	echo "$commands" | grep -qxF "$c" ||
		bad "gpuplan commands: command '$c' missing (the completions would not offer it)"
done
for c in $commands; do
	grep -qxF ".B $c" $man1 || bad "$man1: command '$c' missing from the synopsis"
	grep -qE "^\.B[IR]? \"?$c( |\"|$)" $man1 || bad "$man1: command '$c' has no entry"
done
# ... and both ways between COMMANDS and the whole table, hidden rows too: each row has an
# entry (the tag line after a .TP), a hidden one under "Hidden commands" (what it prints,
# for whom), and each entry names a row, so a command removed from the table cannot stay
# on the page
all_rows=$(printf '%s\n%s\n' "$commands" "$hidden_rows" | sort -u)
entries=$(awk '/^\.SH COMMANDS/ { on = 1; next } /^\.SH / { on = 0 }
	on && prev ~ /^\.T[PQ]$/ && /^\.B[IR]? / { w = $2; gsub(/"/, "", w); print w }
	{ prev = $0 }' $man1 | sort -u)
hidden_entries=$(awk '/^\.SS Hidden commands/ { on = 1; next } /^\.S[HS] / { on = 0 }
	on && prev ~ /^\.T[PQ]$/ && /^\.B / { print $2 } { prev = $0 }' $man1 | sort -u)
for c in $all_rows; do
	echo "$entries" | grep -qxF "$c" ||
		bad "$man1: command '$c' of gpuplan commands has no entry under COMMANDS"
done
for c in $hidden_rows; do
	echo "$hidden_entries" | grep -qxF "$c" ||
		bad "$man1: hidden command '$c' has no entry under Hidden commands"
done
for c in $hidden_entries; do
	echo "$hidden_rows" | grep -qxF "$c" ||
		bad "$man1: '$c' under Hidden commands is not a hidden command (gpuplan commands hidden)"
done
for c in $entries; do
	echo "$all_rows" | grep -qxF "$c" ||
		bad "$man1: COMMANDS has an entry for '$c', which is not a command (gpuplan commands)"
done
echo "commands checked against gpuplan commands: $(echo "$all_rows" | wc -l)"
# options (as groff source: \- for each dash)
for o in '\-\-set' '\-\-json' '\-\-markdown' '\-\-top' '\-\-by' '\-\-hardware' '\-o' \
	'\-\-ascii' '\-\-help' '\-\-version'; do
	grep -qF "$o" $man1 || bad "$man1: option '$o' missing"
done
# every long option of the command line's option table, as the program lists it (the
# hidden `gpuplan commands`: NAME, OPERANDS, OPTIONS, HELP)
bin=${GPUPLAN:-./gpuplan}
if ! cmd_table=$("$bin" commands) || [ -z "$cmd_table" ]; then
	bad "$bin commands: no command table (is $bin built?)"
fi
longs=$(echo "$cmd_table" | cut -f3 | tr ' ' '\n' | sed -n 's/^\(-[a-z]\/\)\{0,1\}--\([a-z-]*\).*/\2/p' | sort -u)
[ -n "$longs" ] || bad "$bin commands: no long options listed"
for o in $longs; do
	sed -n '/^\.SH OPTIONS/,/^\.SH /p' $man1 | grep -qF "\\-\\-$o" ||
		bad "$man1: option --$o (of gpuplan commands) has no entry under OPTIONS"
done
echo "long options: $(echo "$longs" | wc -l)"
# environment
for v in NO_COLOR GPUPLAN_CATALOG XDG_CONFIG_HOME LANG LC_ALL TERM; do
	sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' $man1 | grep -qE "^\.BR? (.*\" )?$v( |$)" ||
		bad "$man1: environment variable $v missing"
done
# sections
for s in SYNOPSIS DESCRIPTION COMMANDS OPTIONS ENVIRONMENT FILES "EXIT STATUS" EXAMPLES; do
	grep -qx "\.SH $s" $man1 || bad "$man1: no $s section"
done
# exit statuses 0, 1, 2
for x in 0 1 2; do
	sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' $man1 | grep -qx ".B $x" ||
		bad "$man1: exit status $x not described"
done
# every key bound in the UI's key table (ui/keys.c, when it is there) has an entry under
# Keys: the key names as the page writes them, one a line
keys_section=$(sed -n '/^\.SS Keys/,/^\.SS Command line/p' $man1 | grep -E '^\.BR? ' |
	sed -e 's/^\.BR* //' -e 's/\\-/-/g' -e 's/"//g' -e 's/,/ /g' | tr -s ' ' '\n')
# the keys every pane has (gpuplan(1), Keys) and the command line
for k in Tab Shift-Tab Up Down j k Enter Esc + - Left Right u Ctrl-R b e F1 '?' :; do
	echo "$keys_section" | grep -qxF -- "$k" || bad "$man1: UI key '$k' has no entry under Keys"
done
for k in ':set ' ':w ' ':e ' ':q' ':q!' ':help'; do
	sed -n '/^\.SS Command line/,/^\.SH /p' $man1 | grep -qF "$k" ||
		bad "$man1: command line '$k' missing"
done
# every key of the UI's action table (ui/keys.c), in every mode and view, as the program
# lists it (the hidden `gpuplan keys`: CONTEXT, KEY, ACTION, HELP), has an entry under Keys
# (an answer's capital, Y for y, counts as the letter); every : command and alias of its
# command table (ui/command.c) is under Command line as :WORD
bin=${GPUPLAN:-./gpuplan}
if [ -f ui/keys.c ]; then
	if ! ui_table=$("$bin" keys) || [ -z "$ui_table" ]; then
		bad "$bin keys: no key table (is $bin built?)"
	fi
	ui_keys=$(echo "$ui_table" | awk -F'\t' '$1 != "command" { print $1 " " $2 }' | sort -u)
	[ -n "$ui_keys" ] || bad "$bin keys: no keys listed"
	n=0
	while read -r ctx k; do
		[ -n "$k" ] || continue
		n=$((n + 1))
		echo "$keys_section" | grep -qxF -- "$k" && continue
		case $ctx in prompt | quit | recover)
			echo "$keys_section" | grep -qxF -- "$(echo "$k" | tr '[:upper:]' '[:lower:]')" &&
				continue ;;
		esac
		bad "$man1: key '$k' ($ctx) of ui/keys.c has no entry under Keys"
	done <<EOF_KEYS
$ui_keys
EOF_KEYS
	echo "UI keys: $n"
	# and the other way: every key an entry of Keys names (the tag line after each .TP) is
	# bound in the table, in some mode, so the page cannot promise a key that does nothing
	table_labels=$(echo "$ui_table" | awk -F'\t' '$1 != "command" { print $2 }' | sort -u)
	tags=$(awk '/^\.SS Keys/ { k = 1; next } /^\.SS / { k = 0 } k && prev ~ /^\.TP/ { print } { prev = $0 }' $man1 |
		grep -E '^\.BR? ' | sed -e 's/^\.BR* //' -e 's/\\-/-/g' -e 's/"//g' -e 's/,/ /g' | tr -s ' ' '\n' |
		grep -v '^$' | sort -u)
	m=0
	for k in $tags; do
		m=$((m + 1))
		echo "$table_labels" | grep -qxF -- "$k" ||
			bad "$man1: Keys names '$k', which no row of ui/keys.c binds"
	done
	[ "$m" -gt 20 ] || bad "$man1: only $m keys named in the tags of Keys"
	echo "man keys checked against the table: $m"
	for w in $(echo "$ui_table" | awk -F'\t' '$1 == "command" { sub(/^:/, "", $2); print $2 }'); do
		sed -n '/^\.SS Command line/,/^\.SH /p' $man1 | grep -qE "(^|[ \"])[.]?B?[IR]? ?\"?:$w([ \"]|$)" ||
			bad "$man1: command-line word ':$w' of ui/command.c missing under Command line"
	done
	[ -n "$w" ] || bad "$bin keys: no : commands listed"
fi

# 4. the completion asks the program for everything (no copy of a table in it), and it
# completes commands, options, keys, values, catalog ids, explain's keys, --y's figures
# (numbers only, a comma-separated list) and a sweep's KEY= and its list of values
comp=contrib/gpuplan.bash
bin=${GPUPLAN:-./gpuplan}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
if [ -z "${GPUPLAN_CATALOG:-}" ] && [ -d catalog ]; then
	GPUPLAN_CATALOG=$(pwd)/catalog
	export GPUPLAN_CATALOG
fi
if [ ! -f $comp ]; then
	bad "no $comp"
else
	# no key of the field table, and no command, written into the script itself
	for k in workload.seq_len hardware.gpu parallel.tp; do
		grep -qF "$k" $comp && bad "$comp: holds a copy of the field table ('$k')"
	done
	grep -qE '(report|explain) +(explain|diff|search)' $comp &&
		bad "$comp: holds a copy of the command list"
	if command -v bash >/dev/null 2>&1; then
		out=$(BIN=$bin bash -c '
			source contrib/gpuplan.bash || exit 1
			t() { COMP_LINE=$1; COMP_POINT=${#1}; read -ra COMP_WORDS <<<"$1"
			      COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _gpuplan; echo "${COMPREPLY[*]}"; }
			t "$BIN re"
			t "$BIN report x.yaml --set workload.se"
			t "$BIN report x.yaml --set workload.kind=o"
			t "$BIN catalog m"
			t "$BIN search x.yaml --by c"
			t "$BIN search x.yaml --to"
			t "$BIN explain tests/data/cli/train.yaml memory.per_gpu.o"
			t "$BIN report x.yaml --set hardware.gpu=h20"
			t "$BIN report x.yaml --set model.preset=llama-3.1-"
			t "$BIN --vers"
			t "$BIN sweep x.yaml --y latency.tpot_p"
			t "$BIN sweep x.yaml --y memory.per_gpu.total,latency.tpot_p9"
			t "$BIN sweep x.yaml --y serving.overl"
			t "$BIN sweep x.yaml --y latency.ttft_s workload.seq"
			t "$BIN sweep x.yaml hardware.gpu=h200,h20"
			XDG_CONFIG_HOME=$PWD/tests/data/profiles t "$BIN report x.yaml --profile t"
		' 2>&1)
		expect="report
workload.seq_len=
online offline
models
cost
--top
memory.per_gpu.optimizer memory.per_gpu.overhead memory.per_gpu.overhead_parts.cuda_context memory.per_gpu.overhead_parts.fragmentation memory.per_gpu.overhead_parts.comm_buffers memory.per_gpu.overhead_parts.blas_workspace memory.per_gpu.overhead_parts.recomputed_layer memory.per_gpu.overhead_parts.fp8_weights memory.per_gpu.optimizer_paged
h200 h200-nvl h20
llama-3.1-405b llama-3.1-70b llama-3.1-8b
--version
latency.tpot_p50_s latency.tpot_p90_s latency.tpot_p99_s
memory.per_gpu.total,latency.tpot_p90_s memory.per_gpu.total,latency.tpot_p99_s

workload.seq_len=
h200,h200 h200,h200-nvl h200,h20
test-h100x8"
		if [ "$out" != "$expect" ]; then
			bad "$comp: completions differ"
			printf 'got:\n%s\nexpected:\n%s\n' "$out" "$expect"
		fi
		# a program that cannot be asked: nothing offered, no error
		out=$(bash -c '
			source contrib/gpuplan.bash || exit 1
			COMP_LINE="/nonexistent/gpuplan report x.yaml --set workload.se"
			COMP_POINT=${#COMP_LINE}; read -ra COMP_WORDS <<<"$COMP_LINE"
			COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _gpuplan; echo "[${COMPREPLY[*]}]"' 2>&1)
		[ "$out" = "[]" ] || bad "$comp: without a program to ask: '$out'"
	fi
fi

# the man page's EXAMPLES session shows the program's own lines: every line of the seed-12
# report and explanation excerpts (after "$ gpuplan report $F" or "... explain $F KEY", up to
# the next "$ "; a line "\\&..." marks a cut) is a line the program prints
bin=${GPUPLAN:-./gpuplan}
if [ -x "$bin" ] && [ -f scenarios/seed-12-70b-full-training-8xh100.yaml ]; then
	F=scenarios/seed-12-70b-full-training-8xh100.yaml
	out=$(GPUPLAN_CATALOG=${GPUPLAN_CATALOG:-$(pwd)/catalog} "$bin" report "$F" 2>&1
		GPUPLAN_CATALOG=${GPUPLAN_CATALOG:-$(pwd)/catalog} "$bin" explain "$F" \
			memory.per_gpu.optimizer 2>&1)
	lines=$(sed -n '/^\.SH EXAMPLES/,/^\.SH /p' man/gpuplan.1 |
		awk '/^\$ gpuplan (report \$F|explain \$F memory[^ ]*)$/ { on = 1; next }
		     /^\$ |^\.fi/ { on = 0 } /^\\&\.\.\./ { next } on' | sed 's/\\-/-/g')
	n=0
	while IFS= read -r l; do
		[ -n "$l" ] || continue
		n=$((n + 1))
		printf '%s\n' "$out" | grep -qxF -- "$l" || bad "gpuplan.1 EXAMPLES: '$l' is not what the program prints"
	done <<EOF_LINES
$lines
EOF_LINES
	[ "$n" -ge 4 ] || bad "gpuplan.1 EXAMPLES: found $n excerpt lines to check (expected 4 or more)"
fi

# the README's example output is the program's
if ! sh tests/man/readme-example.sh; then
	bad "README.md: example output"
fi

echo "man: $fail failed"
[ $fail = 0 ]
