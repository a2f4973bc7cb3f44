#!/bin/sh
# The help: ? opens it, it says what each moving key does, a key closes it, it scrolls no
# further than its last line, and in a narrow window it wraps its lines and still scrolls
# to the last.
NAME=help
. "$(dirname "$0")/lib.sh"
fresh
start_ui
T send-keys '?'
wait_for 'Help' && wait_for 'Tab, Shift-Tab' && ok "? opens the help" || bad "? opens the help"
# the moving keys as the man page lists them, each with what it does (not a bare
# "PgUp/PgDn, g/G" after the field keys)
wait_for '│   PgUp/PgDn +a page up, down +│' &&
	wait_for '│   Home/End, g/G +the first, the last field +│' &&
	ok "the help says what PgUp/PgDn, Home/End and g/G do" ||
	bad "the help says what PgUp/PgDn, Home/End and g/G do"
T send-keys Escape
wait_gone 'Tab, Shift-Tab' && wait_for 'Results' && ok "any key closes the help" ||
	bad "any key closes the help"

fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui
T send-keys '?'
wait_for 'Tab, Shift-Tab'
i=0
while [ $i -lt 40 ]; do T send-keys j; i=$((i + 1)); done
wait_for 'that the next start offers to restore' && wait_line 22 '^└' &&
	screen | sed -n 21p | grep -q 'that the next start offers to restore' &&
	ok "the help scrolls no further than its last line" ||
	bad "the help scrolls no further than its last line"

fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
T resize-window -t 0 -x 64 -y 18
start_ui
wait_line 18 'F1 ?Help.*q ?Quit'
T send-keys '?'
wait_for 'Help \(Up/Down' && wait_for '^│ +\(80GB, 400Gb/s, +│$' &&
	ok "the help wraps its lines at 64 columns" || bad "the help wraps its lines at 64 columns"
i=0
while [ $i -lt 30 ]; do T send-keys PgDn; i=$((i + 1)); done
wait_line 15 '^│ +that the next start offers to restore. +│$' && wait_line 16 '^└' &&
	ok "the wrapped help scrolls to its last line" || bad "the wrapped help scrolls to its last line"
finish
