#!/bin/sh
# The README's first example shows real output: the block after the line
# "<!-- EXAMPLE OUTPUT ... -->" must be what the command in the "$ ..." line above it
# prints. `sh tests/man/readme-example.sh --update` rewrites the block (and the marker's
# version, commit and date) from the program; without --update it exits 1 on a difference
# and shows it. Run from anywhere; runs $GPUPLAN, by default ./gpuplan.
cd "$(dirname "$0")/../.." || exit 1
bin=${GPUPLAN:-./gpuplan}
[ -x "$bin" ] || { echo "readme: $bin is not built"; exit 1; }
if [ -z "${GPUPLAN_CATALOG:-}" ]; then
	GPUPLAN_CATALOG=$(pwd)/catalog
	export GPUPLAN_CATALOG
fi
tmp=${TMPDIR:-/tmp}/gpuplan-readme.$$
trap 'rm -f "$tmp".*' EXIT INT TERM

# the command: the last "$ ./gpuplan ..." line before the marker
cmd=$(awk '/^<!-- EXAMPLE OUTPUT/ { print last; exit } /^\$ \.\/gpuplan / { last = $0 }' README.md |
	sed 's/^\$ \.\/gpuplan //')
[ -n "$cmd" ] || { echo "readme: no '\$ ./gpuplan' command before the example marker"; exit 1; }
# shellcheck disable=SC2086 # the command's words, as the README gives them
"$bin" $cmd >"$tmp.want" 2>&1
# the block: from the fence after the marker to the next fence
awk '/^<!-- EXAMPLE OUTPUT/ { on = 1; next } on == 1 && /^```/ { on = 2; next }
     on == 2 && /^```/ { exit } on == 2 { print }' README.md >"$tmp.got"

if [ "${1:-}" = --update ]; then
	rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
	ver=$("$bin" --version 2>/dev/null | head -1)
	awk -v out="$tmp.want" -v mark="<!-- EXAMPLE OUTPUT: ${ver:-gpuplan}, main $rev, $(date -u +%Y-%m-%d) -->" '
		/^<!-- EXAMPLE OUTPUT/ { print mark; on = 1; next }
		on == 1 && /^```/ { print; while ((getline l < out) > 0) print l; on = 2; next }
		on == 2 && /^```/ { on = 0 }
		on == 2 { next }
		{ print }' README.md >"$tmp.new" && mv "$tmp.new" README.md
	echo "readme: example updated"
	exit 0
fi
if ! cmp -s "$tmp.got" "$tmp.want"; then
	echo "readme: the example output in README.md differs from '$bin $cmd'" \
		"(sh tests/man/readme-example.sh --update rewrites it):"
	diff "$tmp.got" "$tmp.want" | head -20
	exit 1
fi
echo "readme: example output matches"
