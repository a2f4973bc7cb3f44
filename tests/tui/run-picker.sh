#!/bin/sh
# The pickers: Enter on the GPU, type to filter, Enter takes it; the model picker gives
# contexts as they are known (4k, 128k, not 4.1k and 131k).
NAME=picker
. "$(dirname "$0")/lib.sh"
fresh
start_ui
T send-keys 3 g Enter
wait_for 'Choose a GPU' || bad "Enter on the GPU opens the picker"
T send-keys a 1 0 0 - 4 0
wait_for 'a100-40gb' && T send-keys Enter
wait_for '^ gpu +a100-40gb' && ok "the GPU picker filters and takes a choice" ||
	bad "the GPU picker filters and takes a choice"
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui
T send-keys 1 g Enter
wait_for 'Choose a model' && wait_for 'llama-2-7b +6.74B +6.74B +32 +4k ' &&
	wait_for 'llama-3.1-8b +8.03B +8.03B +32 +128k ' &&
	ok "the model picker's contexts read 4k and 128k" ||
	bad "the model picker's contexts read 4k and 128k"
finish
