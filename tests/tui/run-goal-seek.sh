#!/bin/sh
# Goal seek, in a UTF-8 locale and in LANG=C: > on seq len sets the largest that fits as
# an edit, u undoes it, and a goal seek that cannot run says why.
NAME=goal-seek
. "$(dirname "$0")/lib.sh"
seek_checks() {
	loc=$1
	fresh LANG=$2 LC_ALL=$2
	start_ui
	select_field 2 workload.seq_len
	wait_for '^ seq len +8192'
	T send-keys '>'
	if wait_for 'largest workload.seq_len that fits: [0-9]+'; then
		v=$(screen | sed -n 's/.*largest workload.seq_len that fits: \([0-9]*\).*/\1/p')
		[ -n "$v" ] && [ "$v" -gt 8192 ] && wait_for "^ seq len +$v" &&
			ok "$loc: > sets the largest seq len that fits ($v)" ||
			bad "$loc: > sets the largest seq len that fits"
	else
		bad "$loc: > says what goal seek found"
	fi
	T send-keys u
	wait_for '^ seq len +8192' && ok "$loc: u undoes the goal seek" ||
		bad "$loc: u undoes the goal seek"
	fresh LANG=$2 LC_ALL=$2
	start_ui
	T send-keys : "solve max model.preset" Enter
	wait_for 'goal seek: .*not a number' && ok "$loc: a goal seek that cannot run says why" ||
		bad "$loc: a goal seek that cannot run says why"
}
seek_checks utf8 C.UTF-8
seek_checks ascii C
finish
