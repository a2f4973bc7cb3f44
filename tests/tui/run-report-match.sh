#!/bin/sh
# The Results pane's figures as `gpuplan report` writes them for the same file: the plan
# details' reliability line (120x40) gives the report's expected interruptions and goodput
# (1.46 and 99.6%, not a rounded "1" and "100%"); the header's fit mark is the report's
# capacity verdict: "fits !" where it is a WARNING (92% full), "fits ✔" where ok; the
# cost and energy as the report writes them.
NAME=report-match
. "$(dirname "$0")/lib.sh"
F=scenarios/team-pretrain-8b-512xh100.yaml
rep=$("$BIN" report "$F")
intr=$(printf '%s\n' "$rep" | sed -n 's/^ *expected interruptions *\([0-9.]*\) .*$/\1/p')
good=$(printf '%s\n' "$rep" | sed -n 's/^ *goodput *\([0-9.]*%\).*$/\1/p')
[ -n "$intr" ] && [ -n "$good" ] || { echo "FAIL the report names no interruptions, goodput"; exit 1; }
fresh
T resize-window -t 0 -x 120 -y 40
start_ui "$F"
wait_for "│ reliability  $intr interruptions, goodput $good, " &&
	ok "the reliability line gives the report's $intr interruptions and $good goodput" ||
	bad "the reliability line gives the report's $intr interruptions and $good goodput"
quit_ui

# the cost and energy as the report writes them, one formatter for both (src/units.c): the
# pane read "$197k" and "61.4 MWh" where the report read "$196701" and "61423 kWh" (80x24)
cost=$(printf '%s\n' "$rep" | sed -n 's/^.*cost in total *\(\$[0-9.]*[kMBT]*\).*$/\1/p')
kwh=$(printf '%s\n' "$rep" | sed -n 's/^.*energy *\([0-9.]* [kMGT]Wh\).*$/\1/p')
[ -n "$cost" ] && [ -n "$kwh" ] || { echo "FAIL the report names no cost, energy"; exit 1; }
fresh
start_ui "$F"
wait_for "│ cost +\\$cost\$" && ok "the pane's cost is the report's $cost" ||
	bad "the pane's cost is the report's $cost"
wait_for "│ energy +$kwh\$" && ok "the pane's energy is the report's $kwh" ||
	bad "the pane's energy is the report's $kwh"
quit_ui

# capacity_mark FILE: the mark the report's capacity verdict calls for
capacity_mark() {
	case $("$BIN" report "$1" | sed -n 's/^ *1\. capacity (\([A-Za-z]*\)).*$/\1/p') in
	WARNING) echo '!' ;;
	ok) echo '✔' ;;
	*) echo '?' ;;
	esac
}
for f in "$F" scenarios/seed-13a-7b-lora-rtx4090.yaml; do
	m=$(capacity_mark "$f")
	fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
	start_ui "$f"
	wait_line 2 "Results .* fits $m\$" && ok "$f: the header reads fits $m, as the report" ||
		bad "$f: the header reads fits $m, as the report"
	quit_ui
done
finish
