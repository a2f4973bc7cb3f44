#!/bin/sh
# Text from a file never reaches the terminal raw (issue 16, D11): a scenario whose name,
# notes or keys hold escape sequences (OSC title, clear screen, bell, C1 CSI) gives text,
# Markdown and CSV output and messages without one raw control byte (only newlines and
# tabs), and valid JSON. Markdown output escapes the markup a value could inject.
# Run from anywhere; runs $GPUPLAN, by default ./gpuplan at the top of the tree.
. "$(dirname "$0")/../lib.sh"
program --catalog --absolute --built escape
scratch escape
cd "$T" || exit 1

# raw FILE WHAT: FILE holds no control byte but newline and tab (C0, DEL, C1 as UTF-8)
raw() {
	if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$1" ||
		LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$1"; then
		bad "$2: a raw control character reaches the terminal"
		od -c "$1" | grep -E '033|007|302' | head -3
	else
		ok
	fi
}

# YAML escapes: \e ESC, \a BEL, \x9b the C1 CSI
printf '%s\n' 'gpuplan: 1' 'name: "\e]0;pwned\a\e[2J\x9b2J"' \
	'notes: "first line\nsecond \e]52;c;cHduZWQ=\a"' \
	'model:' '  preset: llama-2-7b' 'workload:' '  seq_len: 4096' \
	'hardware:' '  gpu: h100-sxm-80gb' '  count: 8' >evil.yaml
printf '%s\n' 'gpuplan: 1' '"k\e]0;T\a": 1' 'model:' '  preset: "llama\e[2J"' >keys.yaml
"$G" check evil.yaml >/dev/null 2>&1 || bad "evil.yaml is a valid scenario"

for args in "report evil.yaml" "report --markdown evil.yaml" "explain evil.yaml" \
	"explain evil.yaml memory.per_gpu.weights" "diff evil.yaml evil.yaml" \
	"diff --markdown evil.yaml evil.yaml" "diff --csv evil.yaml evil.yaml" \
	"search evil.yaml --top 2" "search --csv evil.yaml --top 2" "check keys.yaml" \
	"report keys.yaml" "check evil.yaml"; do
	# shellcheck disable=SC2086 # word-split on purpose
	"$G" $args >out 2>err
	raw out "gpuplan $args (stdout)"
	raw err "gpuplan $args (stderr)"
done
"$G" report evil.yaml >out 2>&1 && grep -qF '\e]0;pwned\a\e[2J\xc2\x9b2J' out && ok ||
	bad "report: the name is shown escaped"
"$G" check keys.yaml >out 2>err
grep -qF "unknown key 'k\\e]0;T\\a'" err && ok || bad "check: the key is shown escaped"
"$G" explain evil.yaml "$(printf 'k\033[2J')" >out 2>err
raw err "explain with an escape in KEY"
grep -qF 'k\e[2J' err && ok || bad "explain: the key is shown escaped"
"$G" report evil.yaml --set "name=$(printf 'n\033[2J')" --set "parallel.tp=$(printf '\033')" \
	>out 2>err
raw err "--set with an escape"
# JSON is escaped by its own rules: valid, the name whole
"$G" report --json evil.yaml >out 2>err && python3 -c '
import json, sys
d = json.load(open("out"))
assert d["scenario"]["name"] == "\x1b]0;pwned\x07\x1b[2J\x9b2J", d["scenario"]["name"]' && ok ||
	bad "report --json: the name as JSON"
raw out "report --json"
# the canonical file keeps the text (YAML escapes it) and reads back the same
"$G" fmt evil.yaml >fmt.yaml 2>err && raw fmt.yaml "fmt"
"$G" report --json fmt.yaml >out2 && python3 -c '
import json
a, b = json.load(open("out")), json.load(open("out2"))
assert a["scenario"]["name"] == b["scenario"]["name"]' && ok || bad "fmt: the name reads back"

# Markdown: a value from the file is text, never markup (issue 16, Low): a name and notes
# with HTML, a link, an image, emphasis, code and a table row of their own
printf '%s\n' 'gpuplan: 1' 'name: "<img src=x onerror=alert(1)> **big** _it_ `c` | x |"' \
	'notes: "[click](javascript:alert(1))\n![i](http://x/i.png)\n# heading\n| a | b |"' \
	'model:' '  preset: llama-2-7b' 'hardware:' '  gpu: h100-sxm-80gb' >'md`x.yaml'
"$G" report --markdown 'md`x.yaml' >md.out 2>err && ok || bad "report --markdown (exit $?)"
python3 -c '
import re, sys
md = open("md.out").read().splitlines()
title = md[0]
assert title == "# \\<img src=x onerror=alert(1)\\> \\*\\*big\\*\\* \\_it\\_ \\`c\\` \\| x \\|", title
quote = [l for l in md if l.startswith(">")]
assert quote == ["> \\[click\\](javascript:alert(1))", "> !\\[i\\](http://x/i.png)",
                 "> \\# heading", "> \\| a \\| b \\|"], quote
# the file name in a code span that its backtick cannot end
assert "Scenario file: ``md`x.yaml``" in md, [l for l in md if "Scenario" in l]
# no unescaped markup character in those lines
for l in [title] + quote:
    assert not re.search(r"(?<!\\)[<>*_`|\[\]]", l[2:]), l
' && ok || bad "report --markdown: file text escaped"

"$G" diff --markdown 'md`x.yaml' evil.yaml >md.out 2>err && grep -F '| `name` |' md.out |
	grep -qF '\<img src=x onerror=alert(1)\> \*\*big\*\*' && ok || bad "diff --markdown: values escaped"
grep -qF '# Scenario diff: ``md`x.yaml`` vs `evil.yaml`' md.out && ok ||
	bad "diff --markdown: file names in code spans"

summary escape
