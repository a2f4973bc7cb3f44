#!/bin/sh
# Resizing below the minimum says so (and which key quits) and the screen recovers when
# the terminal grows; a larger terminal is used.
NAME=resize
. "$(dirname "$0")/lib.sh"
fresh
start_ui
T resize-window -t 0 -x 60 -y 20
wait_for 'terminal too small' && ok "says the terminal is too small at 60x20" ||
	bad "says the terminal is too small at 60x20"
wait_for '^q quits' && ok "too small says q quits" || bad "too small says q quits"
T resize-window -t 0 -x 80 -y 24
wait_line 8 '^ 2 Workload' && ! screen | grep -q 'too small' &&
	ok "recovers when the terminal grows" || bad "recovers when the terminal grows"
T resize-window -t 0 -x 120 -y 40
wait_line 40 'F1 ?Help' && ! screen | sed -n 8p | grep -q '^ 2 Workload' &&
	ok "uses a larger terminal" || bad "uses a larger terminal"
finish
