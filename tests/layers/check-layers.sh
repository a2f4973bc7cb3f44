#!/bin/sh
# The layer guard (`make check-layers`, in the spirit of git's hdr-check and
# check-builtins): the layer rules of CONTRIBUTING.md ("Layers") that the build can test.
#
# Over the sources of SRCDIR (default src):
#   curses     no curses, ncurses, panel, form, menu or term header, and no WINDOW
#   yaml.h     included only by yaml_doc.c
#   cJSON.h    included only by the one reader's private header, hf_int.h (hf_config.c,
#              hf_json.c, hf_family.c, hf_hybrid.c; hf_quant.c plans a
#              quantization_config from the keys they copy out), and the one writer,
#              report_json.c: a second file of either side fails
# Over the front ends' sources (FRONTS, default SRCDIR/../ui and SRCDIR/../cli):
#   fronts     no yaml.h and no cJSON.h: they build and read documents through the core's
#              yaml_doc.h and report_json.h
#   layers     a quoted include names a header of SRCDIR itself, never one of ui/ or cli/
#   prints     no printf, vprintf, puts, putchar, perror, exit, _exit, _Exit, and no
#              stdout or stderr (comments and string literals are not code)
# Over the archive LIB, when given (the built libgpuplan.a):
#   symbols    none of its objects needs a printing or exiting function, nor stdout/stderr
#   link       it links alone, every object of it, into tests/layers/stub.c with $LIBS
#              (yaml, cJSON, libm) and without ncurses: a curses call anywhere fails
#
# Prints "FILE:LINE: what (rule NAME: why)" for each problem and exits 1 when there is
# one, 0 when there is none. tests/layers/run-layers.sh proves that each rule can fail.
# Environment: CC (default cc), LDFLAGS, LIBS (default: pkg-config yaml-0.1 libcjson, -lm).
# Run from the top of the tree: sh tests/layers/check-layers.sh [SRCDIR [LIB]]
dir=${1:-src}
lib=${2:-}
CC=${CC:-cc}
if [ -z "${LIBS+set}" ]; then
	LIBS="$(pkg-config --libs yaml-0.1 libcjson 2>/dev/null) -lm"
fi
bad=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-layers.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

problem() {
	echo "$*"
	bad=1
}

# The code of C files as "FILE:LINE:code": comments and the insides of string and
# character literals blanked, so that a comment naming printf or a message saying "exit"
# is no call.
code_of() {
	awk '
	FNR == 1 { incomment = 0 }
	{
		out = ""; i = 1; n = length($0)
		while (i <= n) {
			c = substr($0, i, 1); d = substr($0, i, 2)
			if (incomment) {
				if (d == "*/") { incomment = 0; i += 2; out = out "  " } else { i++; out = out " " }
			} else if (d == "/*") {
				incomment = 1; i += 2; out = out "  "
			} else if (d == "//") {
				break
			} else if (c == "\"" || c == "'\''") {
				q = c; out = out c; i++
				while (i <= n && substr($0, i, 1) != q) {
					if (substr($0, i, 1) == "\\") { i++; out = out " " }
					i++; out = out " "
				}
				out = out q; i++
			} else {
				out = out c; i++
			}
		}
		print FILENAME ":" FNR ":" out
	}' "$@"
}

# ---- rules over the sources ----
for f in "$dir"/*.c "$dir"/*.h; do
	[ -f "$f" ] || continue
	base=${f##*/}
	# includes, read from the raw text: "LINE DELIMITER NAME" for each #include
	grep -n '^[[:space:]]*#[[:space:]]*include' "$f" |
		sed -n 's/^\([0-9]*\):[^<"]*\([<"]\)\([^>"]*\)[>"].*/\1 \2 \3/p' >"$tmp/inc"
	while read -r line delim name; do
		at="$f:$line: includes '$name'"
		case $name in
		curses.h | ncurses.h | ncursesw/* | ncurses/* | *curses*.h | panel.h | form.h | \
			menu.h | term.h)
			problem "$at (rule curses: the core never sees curses; ui/ draws)"
			continue
			;;
		yaml.h)
			[ "$base" = yaml_doc.c ] ||
				problem "$at (rule yaml.h: only src/yaml_doc.c includes yaml.h; use yaml_doc.h)"
			continue
			;;
		cJSON.h | cjson/cJSON.h)
			case $base in
			hf_int.h | report_json.c) ;;
			*) problem "$at (rule cJSON.h: only src/hf_int.h, the reader's, and" \
				"src/report_json.c, the writer, include cJSON.h; pass values, not trees)" ;;
			esac
			continue
			;;
		esac
		# a quoted include: a header of the core itself
		if [ "$delim" = '"' ]; then
			case $name in
			*/*) outside=1 ;;
			*) [ -f "$dir/$name" ] && outside=0 || outside=1 ;;
			esac
			[ $outside = 0 ] ||
				problem "$at (rule layers: not a header of src/; ui/ and cli/ stand on" \
					"the core, never it on them)"
		fi
	done <"$tmp/inc"
done
# the front ends include neither library's header
for f in $(for d in ${FRONTS-"$dir/../ui" "$dir/../cli"}; do echo "$d"/*.c "$d"/*.h; done); do
	[ -f "$f" ] || continue
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]\(yaml\.h\|cJSON\.h\|cjson/cJSON\.h\)[>"]' \
		"$f" | cut -d: -f1 | while read -r line; do
		echo "$f:$line: includes yaml.h or cJSON.h (rule fronts: a front end builds and" \
			"reads JSON and YAML through src/report_json.h and src/yaml_doc.h)"
	done >>"$tmp/fronts"
done
if [ -s "$tmp/fronts" ]; then
	cat "$tmp/fronts"
	bad=1
fi
code_of "$dir"/*.c "$dir"/*.h >"$tmp/code"
grep -E '^[^:]*:[0-9]*:.*(^|[^A-Za-z0-9_])WINDOW([^A-Za-z0-9_]|$)' "$tmp/code" | cut -d: -f1,2 |
	while read -r at; do
		echo "$at: names WINDOW (rule curses: the core never sees curses; ui/ draws)"
	done >>"$tmp/out"
calls='printf|vprintf|puts|putchar|perror|exit|_exit|_Exit'
grep -E "^[^:]*:[0-9]*:.*(^|[^A-Za-z0-9_])($calls)[[:space:]]*\\(" "$tmp/code" |
	sed -E "s/^([^:]*:[0-9]*):(.*[^A-Za-z0-9_]|)($calls)[[:space:]]*\\(.*/\\1 \\3/" |
	while read -r at call; do
		echo "$at: calls $call (rule prints: the core never prints and never exits;" \
			"return -1 with a struct gp_error)"
	done >>"$tmp/out"
grep -E '^[^:]*:[0-9]*:.*(^|[^A-Za-z0-9_])std(out|err)([^A-Za-z0-9_]|$)' "$tmp/code" |
	cut -d: -f1,2 |
	while read -r at; do
		echo "$at: uses stdout or stderr (rule prints: the core never prints; front ends do)"
	done >>"$tmp/out"
if [ -s "$tmp/out" ]; then
	cat "$tmp/out"
	bad=1
fi

# ---- rules over the archive ----
if [ -n "$lib" ]; then
	if [ ! -f "$lib" ]; then
		problem "$lib: no such archive (rule link: build it first)"
	else
		# "object: symbol" for each forbidden symbol an object needs
		nm -A -u "$lib" 2>/dev/null |
			sed -n 's/^[^:]*:\([^:]*\):[[:space:]]*U[[:space:]]*\([A-Za-z0-9_]*\).*/\1 \2/p' |
			while read -r obj sym; do
				case $sym in
				printf | vprintf | puts | putchar | perror | exit | _exit | _Exit | \
					__printf_chk | __vprintf_chk | stdout | stderr)
					echo "$lib($obj): needs $sym (rule symbols: the core never prints and never exits)"
					;;
				esac
			done >"$tmp/sym"
		if [ -s "$tmp/sym" ]; then
			cat "$tmp/sym"
			bad=1
		fi
		# shellcheck disable=SC2086
		if ! $CC $LDFLAGS -o "$tmp/stub" -Isrc tests/layers/stub.c -Wl,--whole-archive "$lib" \
			-Wl,--no-whole-archive $LIBS >"$tmp/ld" 2>&1; then
			problem "$lib: does not link alone without ncurses (rule link: the core links without curses):"
			grep -E 'undefined reference|error' "$tmp/ld" | head -10 | sed 's/^/  /'
		fi
	fi
fi

[ $bad = 0 ] || echo "check-layers: the core breaks a layer rule (CONTRIBUTING.md, \"Layers\")"
exit $bad
