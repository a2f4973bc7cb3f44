#!/bin/sh
# One rule for the views (issue 15, review m1): q closes the search and scaling views (it
# used to quit the program), the help and the notes; q at the panes quits.
NAME=views-close
. "$(dirname "$0")/lib.sh"
new_shell
run_ui scenarios/default.yaml
wait_for 'Results' || bad "the program starts"
for v in s S '?' n; do
	case $v in
	s) marker='Search: best' ;;
	S) marker='Scaling' ;;
	'?') marker='Tab, Shift-Tab' ;; # the help's first page
	n) marker='Notes Llama' ;; # the view's title (the legend says "n Notes")
	esac
	T send-keys "$v"
	if wait_for "$marker" && T send-keys q && wait_gone "$marker" && wait_for 'Results' &&
		! screen | grep -q 'EXIT='; then
		ok "q closes the view of '$v' and the program goes on"
	else
		bad "q closes the view of '$v' and the program goes on"
	fi
done
T send-keys s
wait_for 'q/Esc Close' && ok "the search view's legend says q closes it" ||
	bad "the search view's legend says q closes it"
T send-keys q
wait_gone 'Search: best'
T send-keys q
wait_for 'EXIT=0' && ok "q at the panes quits" || bad "q at the panes quits"
finish
