# lib.sh - what each small terminal-UI script shares, sourced after it sets NAME (its
# socket and temporary folder are named by it): the locale, the binary and catalog, a
# fresh tmux socket (T runs tmux on it), a temporary folder removed on exit, and the
# ok/passed/failed counters, and bad(), which shows the screen (a script may bring its own).
# GPUPLAN=path overrides the binary; TUI_WAIT the seconds a marker may take.
set -u
cd "$(dirname "$0")/../.." || exit 1
LC_ALL=C.UTF-8
export LC_ALL
unset LANG LANGUAGE
WAIT=${TUI_WAIT:-20}
BIN=${GPUPLAN:-$(pwd)/gpuplan}
case "$BIN" in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
GPUPLAN_CATALOG=${GPUPLAN_CATALOG:-$(pwd)/catalog}
export GPUPLAN_CATALOG
command -v tmux >/dev/null 2>&1 || { echo "tmux is not installed (run 'make deps')"; exit 1; }
[ -x "$BIN" ] || { echo "no $BIN (run make)"; exit 1; }

SOCK=gpuplan-$NAME-$$-0
nsock=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-$NAME.XXXXXX")
T() { tmux -L "$SOCK" -f /dev/null "$@"; }
# cleanup: the server killed, and the program's hang-up handled (it may still be writing
# its recovery file into $TMP) before $TMP is removed
cleanup() {
	T kill-server >/dev/null 2>&1
	if [ -s "$TMP/pid" ]; then
		i=0
		while kill -0 "$(cat "$TMP/pid")" 2>/dev/null && [ $i -lt 100 ]; do
			sleep 0.03
			i=$((i + 1))
		done
	fi
	chmod -R u+w "$TMP" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }

# What every script shares besides: the screen, polling, a shell session and the program.
# bad NAME: a failed check, with the screen it saw.
bad() {
	failed=$((failed + 1))
	echo "FAIL $1"
	echo "---- screen:"
	T capture-pane -p 2>/dev/null | sed 's/^/    | /'
	echo "----"
}
screen() { T capture-pane -p; }

# poll TEST...: runs TEST on the screen (on its standard input) until it succeeds, on a
# settled screen only: two captures 30 ms apart that agree (ncurses writes a large update
# in pieces, and tmux may show the first before the next arrives).
poll() {
	i=0
	prev=
	while [ $i -lt $((WAIT * 33)) ]; do
		cur=$(T capture-pane -p 2>/dev/null)
		if [ "$cur" = "$prev" ] && printf '%s\n' "$cur" | "$@"; then
			return 0
		fi
		prev=$cur
		i=$((i + 1))
		sleep 0.03
	done
	return 1
}
has() { grep -Eq -- "$1"; }
lacks() { ! grep -Eq -- "$1"; }
line_has() { sed -n "$1p" | grep -Eq -- "$2"; }
wait_for() { poll has "$1"; }
wait_gone() { poll lacks "$1"; }
wait_line() { poll line_has "$1" "$2"; }

# new_shell [ENV...]: a fresh socket and session (80x24) running a plain shell; commands
# are typed into it, so stty -g can be taken in the pane before and after the program.
new_shell() {
	T kill-server >/dev/null 2>&1
	nsock=$((nsock + 1))
	SOCK=gpuplan-$NAME-$$-$nsock
	T new-session -d -x 80 -y 24 \
		"env PS1='$ ' XDG_STATE_HOME='$TMP/state' HOME='$TMP' \
		GPUPLAN_CATALOG='$GPUPLAN_CATALOG' $* sh"
	T set-option -g status off >/dev/null
	wait_for '^\$' || { echo "the shell did not start"; exit 1; }
}

# run_ui ARGS: types the command that starts the program, recording its pid and the tty
# state before and after; EXIT=rc is printed when it ends.
run_ui() {
	rm -f "$TMP/pid"
	T send-keys "clear; stty -g >$TMP/stty.before; sh -c 'echo \$\$ >$TMP/pid; exec $BIN $*'; rc=\$?; stty -g >$TMP/stty.after; echo EXIT=\$rc" Enter
}
# ui_pid: the program's pid, once run_ui's shell has written it (up to 9 s).
ui_pid() {
	i=0
	while [ ! -s "$TMP/pid" ] && [ $i -lt 300 ]; do sleep 0.03; i=$((i + 1)); done
	cat "$TMP/pid"
}

# fresh [ENV...]: a clean start for one check: the program of the check before (if any) is
# killed outright (SIGKILL writes no recovery file; the pid only while it is still ours,
# the program), then new_shell. No state goes from one check to the next but the files the
# script itself wrote.
fresh() {
	if [ -s "$TMP/pid" ] && [ "$(ps -o comm= -p "$(cat "$TMP/pid")" 2>/dev/null)" = \
		"$(basename "$BIN" | cut -c1-15)" ]; then
		kill -KILL "$(cat "$TMP/pid")" 2>/dev/null
	fi
	rm -f "$TMP/pid"
	new_shell "$@"
}

# start_ui ARGS: run_ui, then waits for the results pane (a failure only when it never comes).
start_ui() { run_ui "$@"; wait_for 'Results' || bad "gpuplan $*: the results are drawn"; }

# quit_ui: :q! and the shell's EXIT= line.
quit_ui() { T send-keys : 'q!' Enter && wait_for 'EXIT=0'; }

# select_field PANE KEY: focuses input pane PANE (1-3) and selects its row of field KEY as
# a person would, from the pane's first row down, asking e (explain) which field each row
# is; so a check does not count rows, and a field added to a pane moves no check. Returns 1
# when no row within 60 is KEY's.
select_field() {
	T send-keys "$1" g
	_wait=$WAIT
	WAIT=3
	_n=0
	while [ $_n -lt 60 ]; do
		T send-keys e
		_k=
		if wait_for 'Explain [a-z]'; then
			_k=$(screen | sed -n 's/^.*Explain \([A-Za-z0-9_.]*\) .*$/\1/p' | head -1)
			T send-keys Escape
			wait_gone 'Explain [a-z]'
		fi
		[ "$_k" = "$2" ] && break
		T send-keys j
		_n=$((_n + 1))
	done
	WAIT=$_wait
	[ $_n -lt 60 ]
}

# ascii_only WHAT [FILE]: a check, named WHAT, that FILE (screens captured under LANG=C), or
# else the screen, holds no byte above 0x7f (not in a pipeline: ok and bad count here)
ascii_only() {
	if [ $# -gt 1 ]; then
		high=$(LC_ALL=C tr -d '\000-\177' <"$2" | wc -c)
	else
		high=$(screen | LC_ALL=C tr -d '\000-\177' | wc -c)
	fi
	[ "$high" -eq 0 ] && ok "$1" || bad "$1 ($high bytes >= 0x80)"
}

# finish: the script's summary line and exit status.
finish() {
	echo "$NAME: $passed passed, $failed failed"
	[ "$failed" = 0 ]
}
