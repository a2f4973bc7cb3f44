#!/bin/sh
# gpuplan --profile NAME FILE: the terminal UI plans with the calibration profile's knobs
# (the results pane's MFU is the profile's 40%); without it, the modelled 64.6%.
NAME=profile
. "$(dirname "$0")/lib.sh"
fresh "XDG_CONFIG_HOME='$(pwd)/tests/data/profiles'"
start_ui --profile test-h100x8 tests/data/cli/train.yaml
wait_for 'MFU 40.0% of 312' && ok "--profile: the UI plans with the profile's efficiency.mfu" ||
	bad "--profile: the UI plans with the profile's efficiency.mfu"
fresh "XDG_CONFIG_HOME='$(pwd)/tests/data/profiles'"
start_ui tests/data/cli/train.yaml
wait_for 'MFU 64.6% of 312' && ok "without --profile the MFU is modelled" ||
	bad "without --profile the MFU is modelled"
finish
