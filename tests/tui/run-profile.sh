#!/bin/sh
# gpuplan --profile NAME FILE: the terminal UI plans with the calibration profile's knobs
# (the results pane's MFU is the profile's 40%), and so does a file :e opens later in the
# session; without it, the modelled 64.6%. :w writes the file's own knobs and the edits,
# never the profile's.
NAME=profile
. "$(dirname "$0")/lib.sh"
fresh "XDG_CONFIG_HOME='$(pwd)/tests/data/profiles'"
start_ui --profile test-h100x8 tests/data/cli/train.yaml
wait_for 'MFU 40.0% of 312' && ok "--profile: the UI plans with the profile's efficiency.mfu" ||
	bad "--profile: the UI plans with the profile's efficiency.mfu"
T send-keys : "e tests/data/cli/train-1gpu.yaml" Enter
wait_for 'read tests/data/cli/train-1gpu.yaml' && wait_for 'MFU 40.0% of 312' &&
	ok ":e FILE under --profile: the file is planned with the profile's knobs" ||
	bad ":e FILE under --profile: the file is planned with the profile's knobs"
fresh "XDG_CONFIG_HOME='$(pwd)/tests/data/profiles'"
start_ui tests/data/cli/train.yaml
wait_for 'MFU 64.6% of 312' && ok "without --profile the MFU is modelled" ||
	bad "without --profile the MFU is modelled"
# :w writes what the file had and the edits, not the profile's knobs (the cluster's,
# inherited): a file without efficiency.mfu gets none, one with its own keeps its own, and
# a knob the user set is written
cp tests/data/cli/train.yaml "$TMP/t.yaml"
fresh "XDG_CONFIG_HOME='$(pwd)/tests/data/profiles'"
start_ui --profile test-h100x8 "$TMP/t.yaml"
wait_for 'MFU 40.0% of 312' && T send-keys 3 j + && wait_for '^ count +128 ' &&
	T send-keys : w Enter && wait_for 'written'
if grep -q 'count: 128' "$TMP/t.yaml" && ! grep -q 'mfu' "$TMP/t.yaml"; then
	ok ":w under --profile leaves the profile's knob out of a file that had none"
else
	bad ":w under --profile leaves the profile's knob out of a file that had none ($(grep mfu "$TMP/t.yaml"))"
fi
T send-keys : "set efficiency.mfu=0.45" Enter : w Enter
wait_for 'written' && grep -q 'mfu: 0.45' "$TMP/t.yaml" &&
	ok ":w under --profile writes a knob the user set" ||
	bad ":w under --profile writes a knob the user set"
{ cat tests/data/cli/train.yaml; printf 'efficiency:\n  mfu: 0.5\n'; } >"$TMP/u.yaml"
fresh "XDG_CONFIG_HOME='$(pwd)/tests/data/profiles'"
start_ui --profile test-h100x8 "$TMP/u.yaml"
wait_for 'MFU 40.0% of 312' && T send-keys 3 j + && wait_for '^ count +128 ' &&
	T send-keys : w Enter && wait_for 'written'
if grep -q 'count: 128' "$TMP/u.yaml" && grep -q 'mfu: 0.5$' "$TMP/u.yaml"; then
	ok ":w under --profile keeps the file's own knob, not the profile's"
else
	bad ":w under --profile keeps the file's own knob, not the profile's ($(grep mfu "$TMP/u.yaml"))"
fi
finish
