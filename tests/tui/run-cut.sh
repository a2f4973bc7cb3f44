#!/bin/sh
# What the panes cut is never lost: a cut verdict or plan detail ends in an ellipsis and
# is whole on the status line while selected, as is a cut value or a result a short pane
# has no line for; the memory legend shows every part; the step's parts have whole labels.
NAME=cut
. "$(dirname "$0")/lib.sh"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui
wait_line 7 '│ ✔  fits: .*…$' && ok "a verdict the pane cuts ends in an ellipsis" ||
	bad "a verdict the pane cuts ends in an ellipsis"

# a verdict longer than the pane is wide is whole on the status line, over two lines
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui
T send-keys 4 g j j j j j j j
wait_for '^bandwidth and interconnect: ' &&
	screen | sed -n 23,24p | tr '\n' ' ' | grep -q 'of the time' &&
	ok "a selected verdict is whole on the status line" ||
	bad "a selected verdict is whole on the status line"

fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
T resize-window -t 0 -x 84 -y 36
start_ui
wait_for '│ plan' && wait_for '│ batch +[0-9]+ sequences.*…$' &&
	ok "a plan detail the pane cuts ends in an ellipsis" ||
	bad "a plan detail the pane cuts ends in an ellipsis"

# a tall terminal shows where the step goes, each label whole
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
T resize-window -t 0 -x 200 -y 50
start_ui
wait_for 'step time by part' && wait_for 'zero3 gather +[0-9]' &&
	ok "the step's parts have whole labels" || bad "the step's parts have whole labels"

# every memory part is in the legend (shorter names when they do not all fit), so the
# parts shown add up to the total: here "other" was left out
cp scenarios/workshop/02-optimizer-states-and-zero.yaml "$TMP/w2.yaml"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui "$TMP/w2.yaml"
wait_for 'opt(im)? 89.7G'
screen | sed -n 5,6p | grep -Eq '(other|oth) [0-9.]+G' &&
	screen | sed -n 5,6p | grep -Eq 'opt(im)? 89.7G' &&
	ok "the memory legend shows every part" || bad "the memory legend shows every part"

# a value the pane cuts is whole on the status line while its field is selected
cp tests/data/scenarios/hf-config.yaml "$TMP/hf.yaml"
mkdir -p "$TMP/catalog/models"
cp catalog/models/llama-2-7b.json "$TMP/catalog/models/"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui "$TMP/hf.yaml"
select_field 1 model.hf_config
wait_for '^ hf config +catalog/models/llama-.*…' &&
	wait_line 23 '^model.hf_config = catalog/models/llama-2-7b.json$' &&
	ok "a cut value is whole on the status line" || bad "a cut value is whole on the status line"

# a figure a short pane has no line for is read on the status line while selected, and is
# in the pane again at 80x24
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
T resize-window -t 0 -x 80 -y 18
start_ui
T send-keys 4 G
wait_line 17 '^bottleneck.shares.data_io = 0%' && ! screen | grep -q '│ data i/o' &&
	ok "a result without a line at 80x18 is whole on the status line" ||
	bad "a result without a line at 80x18 is whole on the status line"
T resize-window -t 0 -x 80 -y 24
wait_for '│ data i/o' && ! screen | grep -q 'bottleneck.shares.data_io =' &&
	ok "... and in the pane again at 80x24" || bad "... and in the pane again at 80x24"
finish
