#!/bin/sh
# Runs COMMAND with address-space layout randomisation off, where the system allows it.
# AddressSanitizer from Debian 12's GCC 12 and clang 14 puts its shadow memory at fixed
# addresses; on a kernel that randomises mmap with 32 bits (vm.mmap_rnd_bits = 32) a
# program can be placed over them and dies at its start, printing
# "AddressSanitizer:DEADLYSIGNAL" (one start in four here, at 32 bits). Fixed in GCC 13 and
# LLVM 18. setarch -R is inherited by every process the command starts (tmux and the
# program in it too). Where setarch is missing or personality(2) is refused (a container's
# seccomp filter), COMMAND runs as it is.
if setarch "$(uname -m)" -R true 2>/dev/null; then
	exec setarch "$(uname -m)" -R "$@"
fi
exec "$@"
