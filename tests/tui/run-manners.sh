#!/bin/sh
# Terminal manners (issue 15): the key legend spaced as htop's, the quit question on the
# too-small screen, numbers never cut at 64x18. Each check starts its own session on a
# fresh tmux socket (no state carried from one to the next) and polls the screen for a
# marker. GPUPLAN=path overrides the binary.
NAME=manners
. "$(dirname "$0")/lib.sh"
check() { if "$@"; then ok "$name"; else bad "$name"; fi; }

# start COLSxROWS ARGS: the program alone in a fresh session of that size; EXIT=rc is
# printed when it ends
start() {
	T kill-server >/dev/null 2>&1
	nsock=$((nsock + 1))
	SOCK=gpuplan-$NAME-$$-$nsock
	size=$1
	shift
	T new-session -d -x "${size%x*}" -y "${size#*x}" \
		"env XDG_STATE_HOME='$TMP/state' HOME='$TMP' GPUPLAN_CATALOG='$GPUPLAN_CATALOG' \
		sh -c '$BIN $*; echo EXIT=\$?; sleep 60'"
	T set-option -g status off >/dev/null
}

# 1. the legend: a space between a key and its meaning, two between items; what does not
# fit is left out whole (the first and the last items stay)
name="the legend reads 'F1 Help  Tab Pane' at 80x24"
start 80x24
check wait_line 24 '^F1 Help  Tab Pane  Enter Edit  \+- Step  u Undo  .*  q Quit'
name="the legend at 80x24 has n Notes (a lesson's text), and ends with q Quit"
check wait_line 24 '  n Notes  q Quit *$'
name="the legend is spaced and keeps its ends at 64x18"
start 64x18
check wait_line 18 '^F1 Help  Tab Pane  .*  q Quit'
name="the : line's legend is spaced too"
T send-keys :
check wait_line 18 '^Enter Run  Esc Cancel  Tab Complete'

# 2. q with unsaved edits on the too-small screen: the question is shown there, and its
# answer works there
name="the too-small screen shows quit's question and takes its answer"
start 80x24
wait_for 'Results' && T send-keys 3 j + && wait_for '^ count +16 ' &&
	T resize-window -t 0 -x 50 -y 14 && wait_for 'terminal too small' && T send-keys q
check wait_for 'quit without saving\?' && wait_for 'y/n' && T send-keys y && wait_for '^EXIT=0'

# 3. at 64x18 a number is never cut: the scaling view leaves out whole columns (979
# tokens/s per GPU stays 979, and eff stays), the memory legend the smallest parts (the
# 96.4 GiB optimizer, why seed 12 does not fit, stays)
name="64x18: the scaling view drops columns, never cuts a number"
start 64x18 scenarios/team-serve-70b-5m-requests.yaml
wait_for 'Results' && T send-keys S
check wait_for '^│ +gpus .* tok/gpu +eff +│' && wait_for '^│ +8 .* 979 +100% +│'
name="64x18: the memory legend keeps the largest part"
start 64x18 scenarios/seed-12-70b-full-training-8xh100.yaml
check wait_for '│ .*█opt 96.4G' && wait_for 'does not fit'

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
