#!/bin/sh
# A field changed with keys: Hardware pane, down to count, + doubles it; the results
# follow and the title marks the unsaved edit.
NAME=step-keys
. "$(dirname "$0")/lib.sh"
results_of() { cut -c41-80; }
fresh
start_ui
wait_for 'step time +[0-9]'
before=$(screen | results_of)
T send-keys 3 j +
if wait_for '^ count +16 '; then
	after=$(screen | results_of)
	[ "$before" != "$after" ] && ok "+ on hardware.count doubles it and results change" ||
		bad "+ on hardware.count: results did not change"
else
	bad "+ on hardware.count doubles it"
fi
wait_for '●|\*' && screen | head -1 | grep -Eq '●|\*' && ok "the title marks unsaved edits" ||
	bad "the title marks unsaved edits"
finish
