#!/bin/sh
# Error bands in the Results pane (issue 17): at 80x24 each figure the reports band shows
# its band after the value ("±11%", "±?" where no measured run shares its regime), a
# figure without one (cost) shows none; selected, the status line says where the band
# comes from as the text report does; Enter's explanation ends with it; ASCII writes "+-".
NAME=bands
. "$(dirname "$0")/lib.sh"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui
wait_for '│ step time +[0-9.]+ [a-z]+ ±[0-9]+%' &&
	wait_for '│ total time +[0-9.]+ [a-z]+ ±[0-9]+%' &&
	wait_for '│ throughput +[0-9.]+k tok/s ±[0-9]+%' &&
	ok "step time, total time and throughput show their band" ||
	bad "step time, total time and throughput show their band"
wait_for '│ memory/gpu +[0-9.]+ GiB / [0-9.]+ GiB ±\?' &&
	ok "memory outside every validated regime shows ±?" ||
	bad "memory outside every validated regime shows ±?"
screen | grep -E '│ (cost|energy) ' | grep -q '±' &&
	bad "a cost or energy has no band" || ok "a cost or energy has no band"

# the same band the text report prints, whole on the status line while selected
want=$("$BIN" report scenarios/default.yaml | sed -n '/^  step time /{N;p;}' | tr -s ' \n' '  ' |
	sed 's/.*\(+-[0-9]*%: [0-9]* measured [^ ]* runs\).*/\1/')
T send-keys 4 g
i=0
while [ $i -lt 9 ]; do T send-keys j; i=$((i + 1)); done
case $want in
+-*) wait_for "^step time [0-9.]+ min, \\$want on " &&
	ok "the selected step time's band is the report's ($want)" ||
	bad "the selected step time's band is the report's ($want)" ;;
*) bad "the text report gives the step time's band (read '$want')" ;;
esac
T send-keys Enter
wait_for 'Explain time.step_s' && T send-keys NPage NPage NPage && wait_for 'band: \+-[0-9]+%: [0-9]+ measured' &&
	ok "the explanation ends with the band" || bad "the explanation ends with the band"
T send-keys Escape
wait_gone 'Explain time.step_s'
T send-keys g
wait_for '^memory/gpu [0-9.]+ GiB, unvalidated: outside every validated regime' &&
	ok "the selected memory says it is unvalidated" ||
	bad "the selected memory says it is unvalidated"

# serving: time per output token and throughput
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui scenarios/team-serve-70b-5m-requests.yaml
wait_for '│ tpot +[0-9.]+ ms ±[0-9]+%' && wait_for '│ throughput +[0-9.]+k tok/s ±[0-9]+%' &&
	ok "serving shows the bands of tpot and throughput" ||
	bad "serving shows the bands of tpot and throughput"

fresh LANG=C LC_ALL=C
start_ui
wait_for '\| step time +[0-9.]+ [a-z]+ \+-[0-9]+%' && ok "ASCII writes the band with +-" ||
	bad "ASCII writes the band with +-"
finish
