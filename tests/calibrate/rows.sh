# Sourced by tests/calibrate/run-*.sh after tests/lib.sh: $G (the program, $GPUPLAN or
# ./gpuplan), $T (a temporary folder, kept with KEEP=1), ok and bad counting into $pass and
# $fail (tests/lib.sh's); a measured row of tests/validation/*.yaml as a scenario file,
# its measurement, and number checks.
program --built calibrate
scratch calibrate

# A row's scenario as a file: its set: block of tests/validation/ as --set options to fmt.
row_file() { # ID OUT
	awk -v id="$1" '
		$0 ~ "^  - id: " id "$" { on = 1; next }
		on && /^  - id: / { exit }
		on && /^    set:/ { s = 1; next }
		on && s && /^      [a-z_.]+: / { k = $1; sub(":$", "", k); v = $0; sub("^ *[a-z_.]+: ", "", v); printf "--set\n%s=%s\n", k, v; next }
		on && s { s = 0 }' tests/validation/*.yaml >"$T/sets.$1"
	[ -s "$T/sets.$1" ] || { bad "no row $1 in tests/validation"; return 1; }
	printf 'gpuplan: 1\nname: "calibrate test"\nnotes: "kept"\n' >"$T/base.yaml"
	# shellcheck disable=SC2046
	(IFS='
'; "$G" fmt "$T/base.yaml" $(cat "$T/sets.$1") -o "$2") || bad "fmt of row $1: exit $?"
}
row_measured() { # ID
	awk -v id="$1" '$0 ~ "^  - id: " id "$" { on = 1; next } on && /^    measured: / { print $2; exit }' \
		tests/validation/*.yaml
}
json_num() { # KEY FILE: the first "KEY": number of a JSON report
	sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\([-0-9.e+]*\),\{0,1\}$/\1/p" "$2" | head -1
}
within() { # GOT WANT FRACTION
	awk -v g="$1" -v w="$2" -v f="$3" 'BEGIN { e = g / w - 1; if (e < 0) e = -e; exit !(g != "" && e <= f) }'
}
