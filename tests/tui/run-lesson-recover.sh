#!/bin/sh
# Lesson mode and a lost session (issue 15/16): a hang-up writes the edits kept in the other
# lessons too, each to its own lesson's recovery file, not only the lesson on screen; :prev
# into such a lesson offers its recovery as the start does.
NAME=lesson-recover
. "$(dirname "$0")/lib.sh"
mkdir "$TMP/w"
cp scenarios/workshop/*.yaml "$TMP/w/"
l1=$TMP/w/01-weights-and-precision.yaml
l2=$TMP/w/02-optimizer-states-and-zero.yaml
rec1=$TMP/w/.01-weights-and-precision.yaml.recover
rec2=$TMP/w/.02-optimizer-states-and-zero.yaml.recover
fresh
start_ui "$l1"
T send-keys 3 j +
wait_for '^ count +2 ' || bad "an edit in lesson 1"
T send-keys : next Enter
wait_for 'lesson 2 of 9' || bad ":next opens lesson 2"
select_field 2 workload.seq_len
wait_for '^ seq len +' && T send-keys +
wait_for 'workload.seq_len = ' || bad "an edit in lesson 2"
kill -HUP "$(ui_pid)"
wait_for 'EXIT=129' || bad "the hang-up ends the session"
[ -f "$rec2" ] && ok "the hang-up writes the lesson on screen's recovery file" ||
	bad "the hang-up writes the lesson on screen's recovery file"
[ -f "$rec1" ] && grep -Eq '^  count: 2$' "$rec1" &&
	ok "the hang-up writes lesson 1's kept edit to lesson 1's recovery file" ||
	bad "the hang-up writes lesson 1's kept edit to lesson 1's recovery file"
# the next session, on lesson 2: its own recovery first, kept for later; then :prev into
# lesson 1 offers lesson 1's, and y brings the edit back
run_ui "$l2"
wait_for 'restore \(y\), discard' && T send-keys n
wait_for 'kept for later'
T send-keys : prev Enter
wait_for 'restore \(y\), discard' && screen | tr -d '\n' | grep -qF "$(basename "$rec1")" && T send-keys y
wait_for '^ count +2 ' && wait_for 'restored' &&
	ok ":prev into lesson 1 offers its recovery file and y restores the edit" ||
	bad ":prev into lesson 1 offers its recovery file and y restores the edit"
finish
