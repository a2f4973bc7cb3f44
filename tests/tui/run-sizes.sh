#!/bin/sh
# Smaller terminals: tmux's status line in an 80x24 terminal leaves 80x23, screen and SSH
# windows less; every height from 18 to 24 at 80 columns and every width from 64 to 80 at
# 24 rows is usable, the selection kept, the results' key figures in view; below 64x18 the
# screen says so and comes back with the selection.
NAME=sizes
. "$(dirname "$0")/lib.sh"
# usable_at W H: the size is taken, nothing says too small, and the title, the selected
# field, the memory total with the fit, the step time, the binding bottleneck and the
# legend's first and last keys are on the screen. Polls until one capture has all of them
# (right after a resize tmux still shows the old drawing, cut or shifted).
usable_at() {
	T resize-window -t 0 -x "$1" -y "$2"
	i=0
	while [ $i -lt $((WAIT * 20)) ]; do
		screen >"$TMP/size.txt" 2>/dev/null
		if [ "$(wc -l <"$TMP/size.txt")" -eq "$2" ] &&
			[ "$(LC_ALL=C.UTF-8 wc -L <"$TMP/size.txt")" -le "$1" ] &&
			! grep -q 'too small' "$TMP/size.txt" &&
			head -1 "$TMP/size.txt" | grep -q '^ gpuplan  Llama' &&
			sed -n "$2p" "$TMP/size.txt" | grep -Eq 'F1 ?Help.*q ?Quit' &&
			grep -Eq '^ network +400Gb/s' "$TMP/size.txt" &&
			grep -Eq 'memory/gpu +[0-9.]+ ?G' "$TMP/size.txt" &&
			grep -Eq 'Results .*fits ✔' "$TMP/size.txt" &&
			grep -Eq '│ step time +[0-9.]+ min' "$TMP/size.txt" &&
			grep -Eq '│ compute +[█▏▎▍▌▋▊▉]+ +[0-9]+%◀' "$TMP/size.txt"; then
			return 0
		fi
		i=$((i + 1))
		sleep 0.05
	done
	return 1
}
# the selection: Hardware's network, which a short Hardware pane has to scroll to
select_network() {
	fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
	start_ui
	T send-keys 3 g j j j
	wait_for '^ network +400Gb/s' || bad "the network field is selected"
}

select_network
small_bad=
for h in 23 22 21 20 19 18; do
	usable_at 80 $h || small_bad="$small_bad 80x$h"
done
for w in 79 78 77 76 75 74 73 72 71 70 69 68 67 66 65 64; do
	usable_at $w 24 || small_bad="$small_bad ${w}x24"
done
usable_at 64 18 || small_bad="$small_bad 64x18"
[ -z "$small_bad" ] && ok "usable at 80x18..80x23 and 64x24..79x24 and 64x18" ||
	bad "usable at every size from 64x18 (not at:$small_bad)"

# resizing back and forth keeps the selection and never crashes
select_network
resize_bad=
for sz in 80x24 64x18 200x50 80x23 64x18 80x24; do
	usable_at "${sz%x*}" "${sz#*x}" || resize_bad="$resize_bad $sz"
done
T send-keys e
wait_for 'Explain hardware.network' && [ -z "$resize_bad" ] &&
	ok "80x24 -> 64x18 -> 200x50 -> 80x23 keeps the selection" ||
	bad "80x24 -> 64x18 -> 200x50 -> 80x23 keeps the selection (lost at:$resize_bad)"

# below 64x18 it says so, and comes back with the selection
select_network
T resize-window -t 0 -x 63 -y 24
wait_for 'terminal too small' && wait_for 'need 64x18, have 63x24' &&
	T resize-window -t 0 -x 80 -y 17 && wait_for 'need 64x18, have 80x17' &&
	ok "too small only below 64x18 (63x24, 80x17)" || bad "too small only below 64x18"
usable_at 80 18 && ok "back from too small with the selection" ||
	bad "back from too small with the selection"
finish
