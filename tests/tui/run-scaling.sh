#!/bin/sh
# The scaling view, in a UTF-8 locale and in LANG=C (ASCII only there): S and :scaling
# draw 8 to 1,024 GPUs with their efficiency; at 64x18 its key line says it is cut.
NAME=scaling
. "$(dirname "$0")/lib.sh"
scaling_checks() {
	loc=$1
	fresh LANG=$2 LC_ALL=$2
	start_ui
	T send-keys S
	if wait_for 'Scaling:' && wait_for '^[│|] +8 ' && wait_for '^[│|] +1024 ' &&
		wait_for '[0-9]+%'; then
		ok "$loc: S draws the scaling table"
	else
		bad "$loc: S draws the scaling table"
	fi
	screen >>"$TMP/scaling-$loc.txt"
	fresh LANG=$2 LC_ALL=$2
	start_ui
	T send-keys : scaling Enter
	wait_for 'Scaling:' && ok "$loc: :scaling opens it too" || bad "$loc: :scaling opens it too"
}
scaling_checks utf8 C.UTF-8
scaling_checks ascii C
ascii_only "LANG=C: the scaling view is ASCII only" "$TMP/scaling-ascii.txt"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
T resize-window -t 0 -x 64 -y 18
start_ui
T send-keys S
wait_for 'Scaling:' && wait_for '^│ off: offload.*… *│$' && ok "the scaling view's key line says it is cut" ||
	bad "the scaling view's key line says it is cut"
finish
