#!/bin/sh
# Lesson mode (issue 15): :next and :prev walk scenarios/workshop/ in name order; each
# lesson keeps the learner's edits until :reset.
NAME=lesson
. "$(dirname "$0")/lib.sh"
new_shell
run_ui scenarios/workshop/01-weights-and-precision.yaml
wait_for 'Results' || bad "lesson 1 starts"
T send-keys 3 j + && wait_for '^ count +2 ' || bad "an edit in lesson 1"
T send-keys : next Enter
wait_for 'lesson 2 of 9: 02-optimizer-states-and-zero.yaml' && wait_for '02-optimizer' &&
	ok ":next opens lesson 2" || bad ":next opens lesson 2"
T send-keys : next Enter
wait_for 'lesson 3 of 9: 03-activations' && ok "a second :next opens lesson 3" ||
	bad "a second :next opens lesson 3"
T send-keys : prev Enter : prev Enter
wait_for 'lesson 1 of 9: .*with your edits' && wait_for '^ count +2 ' &&
	ok ":prev back to lesson 1 brings its edit back" ||
	bad ":prev back to lesson 1 brings its edit back"
T send-keys : reset Enter
wait_for 'reset to ' && wait_for '^ count +1 ' && ok ":reset drops the lesson's edits" ||
	bad ":reset drops the lesson's edits"
T send-keys : prev Enter
wait_for 'the first lesson of the folder' && ok ":prev at lesson 1 says it is the first" ||
	bad ":prev at lesson 1 says it is the first"
T send-keys '?' && wait_for 'Help'
# down the help a line at a time until :next's line (where it is moves with the help)
n=0
while [ $n -lt 60 ] && ! screen | grep -q ':next, :prev'; do
	T send-keys j
	sleep 0.05
	n=$((n + 1))
done
wait_for ':next, :prev' && ok "the help names :next and :prev" ||
	bad "the help names :next and :prev"
T send-keys q : q Enter
wait_for 'EXIT=0' || bad "quits"
finish
