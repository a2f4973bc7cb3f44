#!/bin/sh
# Files on the command line (issue 16): no input hangs (a FIFO, hf_config: "-"), no save
# replaces a FIFO or a device, -o - and -o /dev/stdout write standard output, new files
# follow the umask, read-only targets are refused, ulimit -f leaves no temporary file,
# invalid UTF-8 from --set is refused with the field and the byte offset, a dangling chain
# of links is written at its end or refused as dangling (ELOOP only for a loop), and paths
# of 300 and 3800 bytes work whole while one past PATH_MAX is refused whole.
# Usage: GPUPLAN=./gpuplan sh tests/safety/run-safety.sh
set -u
# byte patterns: the messages may hold the invalid bytes they name
LC_ALL=C
export LC_ALL
cd "$(dirname "$0")/../.." || exit 1
bin=${GPUPLAN:-./gpuplan}
case "$bin" in /*) ;; *) bin=$(pwd)/$bin ;; esac
GPUPLAN_CATALOG=${GPUPLAN_CATALOG:-$(pwd)/catalog}
export GPUPLAN_CATALOG
good=$(pwd)/scenarios/default.yaml
cfg=$(pwd)/catalog/models/llama-2-7b.json
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-safety.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -s "$tmp/err" ] && sed 's/^/    /' "$tmp/err" | head -3; }

# run ARGS...: the program, killed after 5 s (a hang is exit 124), stdin empty
run() { timeout 5 "$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; }

cd "$tmp" || exit 1
mkfifo fifo.yaml fifo.json

# inputs never block: a FIFO as scenario, hf_config, import source, catalog, user model
run check fifo.yaml
rc=$?
[ $rc = 1 ] && grep -q 'fifo.yaml.*not a regular file' err && ok || bad "check FIFO (exit $rc)"
run import fifo.json
rc=$?
[ $rc != 124 ] && [ $rc != 0 ] && ok || bad "import FIFO (exit $rc)"
printf 'gpuplan: 1\nmodel:\n  hf_config: fifo.json\nhardware:\n  gpu: h100-sxm-80gb\n' >s.yaml
run check s.yaml
rc=$?
[ $rc = 2 ] && grep -q '^s.yaml:3:[0-9]*: .*not a regular file' err && ok ||
	bad "hf_config FIFO (exit $rc)"
mkdir -p cat/models && cp -r "$GPUPLAN_CATALOG"/. cat/ && rm -f cat/gpus.yaml && mkfifo cat/gpus.yaml
GPUPLAN_CATALOG=$tmp/cat run check "$good"
rc=$?
[ $rc != 124 ] && [ $rc != 0 ] && ok || bad "catalog gpus.yaml FIFO (exit $rc)"
mkdir -p home/gpuplan/models && mkfifo home/gpuplan/models/evil.json
XDG_CONFIG_HOME=$tmp/home run check "$good"
rc=$?
[ $rc != 124 ] && ok || bad "user model FIFO hangs"

# hf_config: "-" is a file named -, never standard input
printf 'gpuplan: 1\nmodel:\n  hf_config: "-"\nhardware:\n  gpu: h100-sxm-80gb\n' >dash.yaml
timeout 5 "$bin" check dash.yaml <"$cfg" >out 2>err
rc=$?
[ $rc = 2 ] && grep -q "^dash.yaml:3:[0-9]*: model.hf_config: cannot read '-'" err && ok ||
	bad "hf_config: \"-\" reads standard input (exit $rc)"

# a save never replaces a FIFO or a device node
run fmt "$good" -o fifo.yaml
rc=$?
[ $rc = 1 ] && [ -p fifo.yaml ] && grep -q 'not a regular file' err && ok ||
	bad "fmt -o FIFO (exit $rc)"
run import "$cfg" -o fifo.json
rc=$?
[ $rc = 1 ] && [ -p fifo.json ] && ok || bad "import -o FIFO (exit $rc)"
# a device node: never the system's own (a broken build run as root would replace it),
# one made here when root may, else /dev/null, which then cannot be replaced
if [ "$(id -u)" = 0 ] && mknod null c 1 3 2>/dev/null; then
	dev=$tmp/null
else
	dev=/dev/null
fi
[ "$dev" = /dev/null ] && [ "$(id -u)" = 0 ] && dev=
if [ -n "$dev" ]; then
	run fmt "$good" -o "$dev"
	rc=$?
	[ $rc = 1 ] && [ -c "$dev" ] && grep -q 'not a regular file' err && ok ||
		bad "fmt -o a device node (exit $rc)"
	ln -s "$dev" devlink.yaml
	run fmt "$good" -o devlink.yaml
	rc=$?
	[ $rc = 1 ] && [ -L devlink.yaml ] && [ -c "$dev" ] && ok ||
		bad "fmt -o a link to a device node (exit $rc)"
fi
ln -s fifo.yaml fifolink.yaml
run fmt "$good" -o fifolink.yaml
rc=$?
[ $rc = 1 ] && [ -L fifolink.yaml ] && [ -p fifo.yaml ] && ok || bad "fmt -o a link to a FIFO (exit $rc)"
ln -s loopb loopa && ln -s loopa loopb
run fmt "$good" -o loopa
rc=$?
[ $rc = 1 ] && [ -L loopa ] && [ -L loopb ] && ok || bad "fmt -o a link loop (exit $rc)"
grep -q 'Too many levels of symbolic links' err && ok || bad "fmt -o a link loop says ELOOP"
# a dangling chain of links: never a link replaced by a regular file, nothing created
mkdir chaintgt && ln -s chain2 chain1 && ln -s chaintgt/chained.yaml chain2
run fmt "$good" -o chain1
rc=$?
[ -L chain1 ] && [ -L chain2 ] && ok || bad "fmt -o a dangling chain replaced a link (exit $rc)"
[ $rc = 0 ] && [ -f chaintgt/chained.yaml ] || { [ $rc = 1 ] && [ ! -e chaintgt/chained.yaml ]; } &&
	ok || bad "fmt -o a dangling chain: neither written at its end nor refused (exit $rc)"
# ... and one whose end is in no folder says so, creating nothing (ELOOP is for loops)
ln -s chain4 chain3 && ln -s gone/chained.yaml chain4
run fmt "$good" -o chain3
rc=$?
[ $rc = 1 ] && [ -L chain3 ] && [ ! -e gone ] && grep -q 'dangling symbolic link' err &&
	! grep -q 'Too many levels' err && ok || bad "fmt -o a chain into no folder (exit $rc)"

# long paths (300 and 4000 bytes) work whole, with the whole path in messages; one past
# PATH_MAX is refused whole, saying so
part=$(printf '%0200d' 0)
deep=$tmp
while [ ${#deep} -lt 300 ]; do deep=$deep/$part; done
mkdir -p "$deep" && cp "$cfg" "$deep/config.json"
printf 'gpuplan: 1\nmodel:\n  hf_config: config.json\nhardware:\n  gpu: h100-sxm-80gb\n' >"$deep/s.yaml"
run report "$deep/s.yaml" --json
rc=$?
# llama-2-7b's 6,738,415,616 parameters, read beside the file; the file named whole
[ $rc = 0 ] && grep -q '"params":.6738415616' out && grep -qF "\"$deep/s.yaml\"" out && ok ||
	bad "report on a 300-byte path (exit $rc)"
printf 'gpuplan: 1\nworkload:\n  seq_len: many\n' >"$deep/bad.yaml"
run check "$deep/bad.yaml"
rc=$?
[ $rc = 2 ] && grep -qF "$deep/bad.yaml:3:" err && ok || bad "a 300-byte path whole in the message (exit $rc)"
while [ ${#deep} -lt 3800 ]; do deep=$deep/$part; done
mkdir -p "$deep" && cp "$cfg" "$deep/config.json"
printf 'gpuplan: 1\nmodel:\n  hf_config: config.json\nhardware:\n  gpu: h100-sxm-80gb\n' >"$deep/s.yaml"
run fmt "$deep/s.yaml" -o "$deep/copy.yaml"
rc=$?
[ $rc = 0 ] && grep -q 'hf_config: config.json' "$deep/copy.yaml" && ok ||
	bad "fmt between 3800-byte paths (exit $rc)"
printf 'gpuplan: 1\nworkload:\n  seq_len: many\n' >"$deep/bad.yaml"
run check "$deep/bad.yaml"
rc=$?
[ $rc = 2 ] && grep -qF "$deep/bad.yaml:3:" err && ok || bad "a 3800-byte path whole in the message (exit $rc)"
# saved at the top, the relative config would be longer than model.hf_config holds
run fmt "$deep/s.yaml" -o "$tmp/far.yaml"
rc=$?
[ $rc = 2 ] && [ ! -e "$tmp/far.yaml" ] && grep -q 'limit 255' err && ok ||
	bad "fmt refuses an hf_config rewrite that does not fit (exit $rc)"
toolong=$deep/$part/$part/x.yaml
run check "$toolong"
rc=$?
[ $rc = 1 ] && grep -q "path too long (${#toolong} bytes, limit 4095): " err && ok ||
	bad "a path past PATH_MAX is refused whole (exit $rc)"
run fmt "$good" -o "$toolong"
rc=$?
[ $rc = 1 ] && grep -q "path too long (${#toolong} bytes, limit 4095): " err && ok ||
	bad "fmt -o a path past PATH_MAX is refused whole (exit $rc)"

# a device or a file too large as hf_config: the scenario's FILE:LINE:COL named too
printf 'gpuplan: 1\nmodel:\n  hf_config: /dev/zero\nhardware:\n  gpu: h100-sxm-80gb\n' >zero.yaml
run check zero.yaml
rc=$?
[ $rc = 2 ] && grep -q '^zero.yaml:3:14: model.hf_config: .*/dev/zero' err && ok ||
	bad "hf_config /dev/zero names the scenario's line (exit $rc)"

# -o - and -o /dev/stdout: standard output, through a pipe, no temporary file
"$bin" fmt "$good" >want.yaml 2>/dev/null
timeout 5 "$bin" fmt "$good" -o - </dev/null 2>err | cat >got.yaml
cmp -s want.yaml got.yaml && ok || bad "fmt -o - writes standard output"
timeout 5 "$bin" fmt "$good" -o /dev/stdout </dev/null 2>err | cat >got.yaml
cmp -s want.yaml got.yaml && ok || bad "fmt -o /dev/stdout into a pipe"
timeout 5 "$bin" import "$cfg" -o - </dev/null 2>err | grep -q 'model' && ok ||
	bad "import -o - writes standard output"

# new files follow the umask; a replaced file keeps its mode
(umask 077 && "$bin" fmt "$good" -o um.yaml 2>err)
[ "$(stat -c %a um.yaml 2>/dev/null)" = 600 ] && ok ||
	bad "umask 077: new file is $(stat -c %a um.yaml 2>/dev/null), not 600"
(umask 022 && "$bin" fmt "$good" -o keep.yaml && chmod 640 keep.yaml &&
	"$bin" fmt "$good" -o keep.yaml 2>err)
[ "$(stat -c %a keep.yaml 2>/dev/null)" = 640 ] && ok || bad "a replaced file keeps its mode"

# a read-only target is refused (the command line has no :w!), the file untouched
printf 'old\n' >ro.yaml && chmod 444 ro.yaml
run fmt "$good" -o ro.yaml
rc=$?
[ $rc = 1 ] && [ "$(cat ro.yaml)" = old ] && grep -q 'read-only' err && ok ||
	bad "fmt -o a read-only file (exit $rc)"

# a hard link: the user is told that the other name keeps the old text
printf 'old\n' >hl.yaml && ln hl.yaml hl2.yaml
run fmt "$good" -o hl.yaml
rc=$?
[ $rc = 0 ] && grep -q 'hard link' err && ok || bad "fmt -o a hard-linked file says so (exit $rc)"

# ulimit -f: the save fails, the old file is whole, no temporary is left
printf 'old\n' >big.yaml
(ulimit -f 0 && exec "$bin" fmt "$good" -o big.yaml) >out 2>err
rc=$?
[ $rc = 1 ] && [ "$(cat big.yaml)" = old ] && ! ls big.yaml.tmp.* >/dev/null 2>&1 && ok ||
	bad "ulimit -f: exit $rc, temporaries: $(ls big.yaml.tmp.* 2>/dev/null)"

# invalid UTF-8 from --set: refused with the field and the offset, never printed as JSON
latin=$(printf 'caf\351')
run report "$good" --json --set "name=$latin"
rc=$?
[ $rc = 2 ] && [ ! -s out ] && grep -q 'name.*invalid UTF-8.*offset 3' err && ok ||
	bad "--set name=<latin-1> (exit $rc)"
run fmt "$good" --set "notes=$(printf 'a\355\240\200')" -o u.yaml
rc=$?
[ $rc = 2 ] && [ ! -e u.yaml ] && grep -q 'invalid UTF-8' err && ok ||
	bad "--set notes=<surrogate> (exit $rc)"
run report "$good" --json --set "name=café ✓"
rc=$?
[ $rc = 0 ] && grep -q 'café ✓' out && ok || bad "--set name=<valid UTF-8> (exit $rc)"

echo "safety: $pass passed, $fail failed"
[ $fail = 0 ]
