#!/bin/sh
# Prints the scenario keys of the field table in src/scenario.c (scenario_fields[]), one a
# line, in table order. tests/man/run-man.sh uses it to check that gpuplan-scenario(5) and
# the bash completion know every key.
# Usage: sh tests/man/gen-keys.sh [src/scenario.c]
#        sh tests/man/gen-keys.sh --update contrib/gpuplan.bash   (rewrites its key list)
keys() {
	sed -n '/^const struct field scenario_fields\[\] = {/,/^};/p' "${1:-src/scenario.c}" |
		sed -n -e 's/^[[:space:]]*[A-Z_]*_[A-Z]*("\([a-z0-9_.]*\)".*/\1/p' \
			-e 's/^[[:space:]]*{"\([a-z0-9_.]*\)", FIELD_.*/\1/p'
}
if [ "$1" = --update ]; then
	f=$2
	keys >"$f.keys" || exit 1
	awk -v keys="$f.keys" '
		/^# BEGIN KEYS/ { print; getline; print; while ((getline k < keys) > 0) print k; skip = 1; next }
		/^"$/ && skip { skip = 0 }
		!skip { print }' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
	rm -f "$f.keys"
	exit 0
fi
keys "$1"
