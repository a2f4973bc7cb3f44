#!/bin/sh
# Prints the scenario keys of the field table in src/scenario.c (scenario_fields[]), one a
# line, in table order. Used to generate the key list in contrib/gpuplan.bash and by
# tests/man/run-man.sh to check that the man page and the completion know every key.
# Usage: sh tests/man/gen-keys.sh [src/scenario.c]
src=${1:-src/scenario.c}
sed -n '/^const struct field scenario_fields\[\] = {/,/^};/p' "$src" |
	sed -n -e 's/^[[:space:]]*[A-Z_]*_[A-Z]*("\([a-z0-9_.]*\)".*/\1/p' \
		-e 's/^[[:space:]]*{"\([a-z0-9_.]*\)", FIELD_.*/\1/p'
