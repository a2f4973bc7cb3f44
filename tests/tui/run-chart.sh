#!/bin/sh
# The chart view (issue 18): c charts a figure against the selected field as `gpuplan
# sweep` does, the fit limit and the SLO as lines; f changes the figure, q and Esc close
# it; it fits 80x24 and 64x18 and follows a resize; ASCII only outside a UTF-8 locale.
NAME=chart
. "$(dirname "$0")/lib.sh"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui
T send-keys 3 j
wait_for '^ count +8 '
T send-keys c
wait_for 'Chart: memory.per_gpu.total against hardware.count' &&
	wait_for 'hardware.count \(log scale\)' && wait_for '┄ memory.capacity \(fit limit\)' &&
	wait_for '^│ +1 +2 +4 +8 +16 +32 +64 +128 +│$' && wait_for '⠑|⠢|⣀' &&
	ok "c on hardware.count charts memory per GPU with the fit limit" ||
	bad "c on hardware.count charts memory per GPU with the fit limit"
wait_line 24 '^F1 Help  f/F Figure  u Undo  : Cmd  q/Esc Close' &&
	ok "the chart view's legend names its keys" || bad "the chart view's legend names its keys"
T send-keys f
wait_for 'Chart: memory.per_gpu.allocated against' && ok "f charts the next figure" ||
	bad "f charts the next figure"
T send-keys q
wait_gone 'Chart:' && wait_for 'Results' && ! screen | grep -q 'EXIT=' &&
	ok "q closes the chart view" || bad "q closes the chart view"
T send-keys c
wait_for 'Chart: memory.per_gpu.allocated' && T send-keys Escape
wait_gone 'Chart:' && ok "Esc closes the chart view" || bad "Esc closes the chart view"

# resized: the chart is drawn again at each size, whole (the axis' name and the legend in
# the frame; at 64 columns the legend takes two lines)
T send-keys c
wait_for 'Chart:'
sizes_bad=
for sz in 64x18 120x40 80x24; do
	T resize-window -t 0 -x "${sz%x*}" -y "${sz#*x}"
	wait_line "${sz#*x}" 'q/Esc Close' && wait_for '^│ +hardware.count \(log scale\) +│$' &&
		wait_for '^│ +⣿ memory.per_gpu.allocated ' && wait_for '┄ memory.capacity \(fit limit\) +│$' &&
		wait_line "$((${sz#*x} - 2))" '^└' || sizes_bad="$sizes_bad $sz"
done
[ -z "$sizes_bad" ] && ok "the chart is whole at 64x18, 120x40 and 80x24" ||
	bad "the chart is whole at 64x18, 120x40 and 80x24 (not at:$sizes_bad)"
# an edit over the view plans it again: u undoes nothing here, :set changes the count
T send-keys : "set hardware.count=4" Enter
wait_for '^│ hardware.count now 4;' && wait_for '^│ +1 +2 +4 +8 +16 +32 +64 +│$' &&
	ok "an edit over the chart view charts around the new value" ||
	bad "an edit over the chart view charts around the new value"

# online serving: the decode step against the batch, with the SLO; LANG=C draws ASCII
fresh LANG=C LC_ALL=C
start_ui scenarios/team-serve-70b-5m-requests.yaml
T send-keys : "chart workload.batch latency.tpot_s" Enter
wait_for 'Chart: latency.tpot_s against workload.batch' &&
	wait_for '- workload.slo.tpot \(SLO\)' && wait_for '\*\.+' &&
	ok ":chart draws a latency with its SLO line" || bad ":chart draws a latency with its SLO line"
ascii_only "LANG=C: the chart view is ASCII only"
# a field that is no number says why and opens nothing
T send-keys q 1 g c
wait_for 'chart: model.preset is not a number' && ! screen | grep -q 'Chart:' &&
	ok "c on a word field says it is no number" || bad "c on a word field says it is no number"
finish
