#!/bin/sh
# The search view's rank column holds two digits inside the border: from rank 10 a row
# read "│10 ..." against the frame, where ranks 1 to 9 had a blank before them. At 80x24
# and 120x40, every row keeps a blank after the border, rank 10 included, and the heading's
# # stands over the ranks' last digit.
NAME=search-ranks
. "$(dirname "$0")/lib.sh"
for size in 80x24 120x40; do
	fresh
	T resize-window -t 0 -x "${size%x*}" -y "${size#*x}"
	start_ui
	T send-keys s
	if wait_for 'Search: best layouts' && wait_for '^│ 10[ !] '; then
		ok "$size: rank 10 has a blank between it and the border"
	else
		bad "$size: rank 10 has a blank between it and the border"
	fi
	screen | grep -Eq '^│[0-9]' && bad "$size: no rank touches the border" ||
		ok "$size: no rank touches the border"
	screen | grep -Eq '^│  # ' && ok "$size: the heading's # stands over the ranks" ||
		bad "$size: the heading's # stands over the ranks"
	quit_ui
done
finish
