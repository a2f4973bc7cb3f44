#!/bin/sh
# :q with unsaved edits asks and n keeps the session; :q! quits without asking.
NAME=quit
. "$(dirname "$0")/lib.sh"
fresh
start_ui
T send-keys 3 j +
wait_for '^ count +16 '
T send-keys : q Enter
wait_for 'quit without saving' && ok ":q with unsaved edits asks" || bad ":q with unsaved edits asks"
T send-keys n
wait_gone 'quit without saving' && ! screen | grep -q 'EXIT=' && ok "n keeps the session" ||
	bad "n keeps the session"
fresh
start_ui
T send-keys 3 j +
wait_for '^ count +16 '
T send-keys : 'q!' Enter
wait_for 'EXIT=0' && ok ":q! quits without asking" || bad ":q! quits without asking"
finish
