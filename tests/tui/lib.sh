# lib.sh - what each small terminal-UI script shares, sourced after it sets NAME (its
# socket and temporary folder are named by it): the locale, the binary and catalog, a
# fresh tmux socket (T runs tmux on it), a temporary folder removed on exit, and the
# ok/passed/failed counters. Each script brings its own bad(), which shows what failed.
# GPUPLAN=path overrides the binary; TUI_WAIT the seconds a marker may take.
set -u
cd "$(dirname "$0")/../.." || exit 1
LC_ALL=C.UTF-8
export LC_ALL
unset LANG LANGUAGE
WAIT=${TUI_WAIT:-20}
BIN=${GPUPLAN:-$(pwd)/gpuplan}
GPUPLAN_CATALOG=${GPUPLAN_CATALOG:-$(pwd)/catalog}
export GPUPLAN_CATALOG
command -v tmux >/dev/null 2>&1 || { echo "tmux is not installed (run 'make deps')"; exit 1; }
[ -x "$BIN" ] || { echo "no $BIN (run make)"; exit 1; }

SOCK=gpuplan-$NAME-$$-0
nsock=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-$NAME.XXXXXX")
T() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() { T kill-server >/dev/null 2>&1; rm -rf "$TMP"; }
trap cleanup EXIT INT TERM

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
