#!/bin/sh
# The plan details under the Results pane's figures in a tall window: a heading ("plan",
# "decode step (tpot) by part") comes with at least its first line, never alone on the
# pane's last row, at every height from 30 to 40 rows.
NAME=details
. "$(dirname "$0")/lib.sh"
# orphan: a heading of the details whose next line has nothing in the Results pane
orphan() {
	awk '{ if (h && $0 !~ /│ +[a-z]/) bad = 1; h = ($0 ~ /│ (plan|decode step \(tpot\) by part|step time by part) *$/) }
		END { exit !bad }'
}
fresh
T resize-window -t 0 -x 120 -y 40
start_ui scenarios/team-serve-70b-5m-requests.yaml
wait_for '│ decode step \(tpot\) by part' || bad "the details are drawn at 120x40"
h=40
seen=0
while [ $h -ge 30 ]; do
	T resize-window -t 0 -x 120 -y $h
	if wait_line "$h" 'F1 ?Help' && screen | orphan; then
		bad "a heading alone on the last row at 120x$h"
		seen=1
	fi
	h=$((h - 1))
done
[ $seen = 0 ] && ok "no details heading alone on the pane's last row, 120x30 to 120x40"
quit_ui
finish
