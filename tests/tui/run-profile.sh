#!/bin/sh
# gpuplan --profile NAME FILE: the terminal UI plans with the calibration profile's knobs
# (the results pane's MFU is the profile's 40%), and so does a file :e opens later in the
# session; without it, the modelled 64.6%.
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
finish
