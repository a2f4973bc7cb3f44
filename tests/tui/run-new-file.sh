#!/bin/sh
# gpuplan NEWFILE.yaml: the built-in scenario bound to the new file; ^S creates it. A
# missing folder or a name that cannot be read is still an error that names the path.
NAME=new-file
. "$(dirname "$0")/lib.sh"
fresh
start_ui "$TMP/new.yaml"
screen | head -1 | grep -Eq '\[new file\] .*new\.yaml *$' && wait_line 23 '^new file .*new.yaml' &&
	! screen | head -1 | grep -Eq '●|\*' && [ ! -e "$TMP/new.yaml" ] &&
	ok "gpuplan NEWFILE.yaml opens the built-in scenario as a new file" ||
	bad "gpuplan NEWFILE.yaml opens the built-in scenario as a new file"
T send-keys C-s
wait_for "written $TMP/new.yaml" && [ -s "$TMP/new.yaml" ] &&
	! screen | head -1 | grep -q 'new file' && ok "^S creates the new file" ||
	bad "^S creates the new file"
T send-keys q
wait_for 'EXIT=0'
"$BIN" report "$TMP/new.yaml" >/dev/null 2>&1 && ok "the new file reads back" ||
	bad "the new file reads back"
fresh
run_ui "$TMP/nodir/x.yaml"
wait_for 'EXIT=1' && screen | grep -q "$TMP/nodir/x.yaml" &&
	ok "a file in a folder that does not exist is an error (exit 1)" ||
	bad "a file in a folder that does not exist is an error (exit 1)"
mkdir "$TMP/folder.yaml"
fresh
run_ui "$TMP/folder.yaml"
wait_for 'EXIT=1' && screen | grep -q "$TMP/folder.yaml" &&
	ok "a name that exists but cannot be read is an error (exit 1)" ||
	bad "a name that exists but cannot be read is an error (exit 1)"
finish
