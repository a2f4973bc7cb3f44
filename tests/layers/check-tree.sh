#!/bin/sh
# The tree guard (`make check-tree`, run by `make check`): the habits of issue 11 that a
# script can test, over the files git tracks in ROOT (every file below ROOT when it is
# not a git work tree).
#   purpose   each .c file starts with a one-line purpose comment: "/* NAME.c - ..."
#   layout    README.md's "Layout of the tree" names every top-level folder ("man/", or a
#             path in it: ".ci/run"), every folder of tests/ ("tests/unit/"), and every .c
#             file of src/, ui/ and cli/ (a word with a * in it, as pane_*.c, names every
#             file it matches)
# Prints "FILE: what (rule NAME)" for each problem and exits 1 when there is one.
# tests/layers/run-tree.sh proves that each rule can fail.
# Run from anywhere: sh tests/layers/check-tree.sh [ROOT]
root=${1:-.}
bad=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-tree.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
	[ "$(git -C "$root" rev-parse --show-prefix)" = "" ]; then
	git -C "$root" ls-files --cached --others --exclude-standard >"$tmp/files"
else
	(cd "$root" && find . -type f ! -path './.git/*' | sed 's|^\./||') >"$tmp/files"
fi
# files deleted in the work tree but not yet in the index are gone
while read -r f; do [ -f "$root/$f" ] && echo "$f"; done <"$tmp/files" | sort >"$tmp/tree"

# ---- purpose ----
grep '\.c$' "$tmp/tree" | while read -r f; do
	first=$(head -n 1 "$root/$f")
	base=${f##*/}
	want="/* $base - "
	case $first in
	"$want"*) ;;
	*) echo "$f:1: starts '$(printf '%.40s' "$first")', not '$want' (rule purpose: a one-line purpose comment)" ;;
	esac
done >"$tmp/out"

# ---- layout ----
readme=$root/README.md
if [ ! -f "$readme" ]; then
	echo "README.md: missing (rule layout)" >>"$tmp/out"
else
	awk '/^## Layout of the tree/ { on = 1; next } /^## / { on = 0 } on' "$readme" |
		tr -s ' \t(),:;`' '\n' | sed 's|^\./||; s|[.,]$||' | grep -v '^$' |
		awk -F/ '{ print } NF > 1 { print $1 "/"; print $1 "/" $2 "/" }' | sort -u >"$tmp/words"
	[ -s "$tmp/words" ] || echo "README.md: no '## Layout of the tree' section (rule layout)" >>"$tmp/out"
	named() { # named NAME...: one of the section's words is (or matches) one of NAMES
		while read -r w; do
			for n in "$@"; do
				# shellcheck disable=SC2254
				case $n in $w) return 0 ;; esac
			done
		done <"$tmp/words"
		return 1
	}
	{
		# top-level folders and the folders of tests/
		sed -n 's|^\([^/]*\)/.*|\1|p' "$tmp/tree" | sort -u | sed 's|$|/|'
		sed -n 's|^tests/\([^/]*\)/.*|tests/\1|p' "$tmp/tree" | sort -u
		grep -E '^(src|ui|cli)/[^/]*\.c$' "$tmp/tree"
	} >"$tmp/want"
	while read -r p; do
		case $p in
		*/) named "$p" ;;
		tests/*) named "$p/" ;;
		*) named "${p##*/}" "$p" ;;
		esac || echo "README.md: the layout section does not name $p (rule layout)"
	done <"$tmp/want" >>"$tmp/out"
fi

if [ -s "$tmp/out" ]; then
	cat "$tmp/out"
	bad=1
	echo "check-tree: README.md's layout or a file's purpose line is behind the tree (CONTRIBUTING.md)"
fi
exit $bad
