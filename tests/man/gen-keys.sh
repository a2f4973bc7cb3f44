#!/bin/sh
# Prints the scenario keys of the field table, one a line, in table order, as the program
# itself lists them (`$GPUPLAN fields`, the hidden TSV command; ./gpuplan by default).
# tests/man/run-man.sh uses it to check that gpuplan-scenario(5) knows every key.
# Usage: sh tests/man/gen-keys.sh
#        sh tests/man/gen-keys.sh --tsv                            (the whole table)
bin=${GPUPLAN:-./gpuplan}
fields() {
	if ! "$bin" fields; then
		echo "gen-keys.sh: '$bin fields' failed (build gpuplan, or set GPUPLAN)" >&2
		return 1
	fi
}
case $1 in
--tsv) fields ;;
*)
	out=$(fields) || exit 1
	printf '%s\n' "$out" | cut -f1
	;;
esac
