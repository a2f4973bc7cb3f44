#!/bin/sh
# The field editor: results follow a typed value, a value that does not read is reported,
# Esc reverts; an auto efficiency steps and edits as a percentage; a long description
# leaves the edit legend in place.
NAME=field-editor
. "$(dirname "$0")/lib.sh"
results_of() { cut -c41-80; }

fresh
start_ui
select_field 2 workload.seq_len
wait_for '^ seq len +8192'
T send-keys Enter
wait_for 'EnterApply|Enter Apply' || bad "Enter opens the field editor"
before=$(screen | results_of)
T send-keys C-u 2 0 4 8
if wait_for '^ seq len +2048' && [ "$(screen | results_of)" != "$before" ]; then
	ok "results follow a typed value before Enter"
else
	bad "results follow a typed value before Enter"
fi
T send-keys x
wait_for "cannot read '2048x'" && ok "a value that does not read is reported while typing" ||
	bad "a value that does not read is reported while typing"
T send-keys Escape
wait_for '^ seq len +8192' && ok "Esc reverts the field" || bad "Esc reverts the field"

# an efficiency set by hand reads as a percentage, as its auto value does
fresh
start_ui
select_field 2 efficiency.mfu && T send-keys +
wait_for '^ mfu +50% ' && ok "+ on an auto efficiency shows 50%, not 0.5" ||
	bad "+ on an auto efficiency shows 50%, not 0.5"
T send-keys Enter
wait_for '^ mfu +50% +│' && wait_for 'EnterApply|Enter Apply' &&
	ok "the editor starts from the percentage" || bad "the editor starts from the percentage"

# a field whose description is longer than the line: the edit legend stays
fresh
start_ui
select_field 2 workload.grad_dtype && T send-keys Enter
wait_for 'EnterApply|Enter Apply' && wait_line 23 'gradient buffer: auto' &&
	wait_line 24 'Enter ?Apply +Esc ?Cancel' &&
	ok "editing a long-described field keeps the edit legend" ||
	bad "editing a long-described field keeps the edit legend"
finish
