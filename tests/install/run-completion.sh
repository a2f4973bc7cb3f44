#!/bin/sh
# The zsh and fish completions, driven in their shells: commands, options, --set keys and
# values, catalog ids, choices, explain's keys, --y's figures and a sweep's KEY= and values,
# each option's argument also in one word (--y=FIGURE, --set=KEY=VALUE, --by=cost), all
# asked of the program (`gpuplan commands`, `gpuplan fields`, `gpuplan figures`). A shell
# that is not installed is skipped with a note
# (tests/deps.sh installs both). Also: every option of `gpuplan commands` is under OPTIONS
# in gpuplan(1), and every command of cli/cli.c's table is in `gpuplan commands`.
# Run from anywhere: sh tests/install/run-completion.sh
. "$(dirname "$0")/../lib.sh"
program --catalog --absolute --built completion

# the table the completions read
table=$("$G" commands) && [ -n "$table" ] && ok || bad "gpuplan commands"
for c in $(grep -v CMD_HIDDEN cli/cli.c | sed -n 's/^[[:space:]]*{"\([a-z]*\)", cmd_[a-z_]*,.*/\1/p'); do
	printf '%s\n' "$table" | cut -f1 | grep -qxF "$c" && ok || bad "gpuplan commands: no '$c'"
done
for o in $(printf '%s\n' "$table" | cut -f3 | tr ' ' '\n' | sed 's|.*--||; s|=.*||' | sort -u); do
	sed -n '/^\.SH OPTIONS/,/^\.SH /p' man/gpuplan.1 | grep -qF "\\-\\-$o" && ok ||
		bad "man/gpuplan.1: option --$o has no entry under OPTIONS"
done

# LINE|EXPECTED: the completions of LINE (the last word being completed), sorted, joined by
# spaces, must be EXPECTED
cases='gpuplan rep|report
gpuplan report x.yaml --se|--set
gpuplan report x.yaml --set workload.se|workload.seq_len=
gpuplan report x.yaml --set workload.kind=o|workload.kind=offline workload.kind=online
gpuplan report x.yaml --set parallel.zero=|parallel.zero=0 parallel.zero=1 parallel.zero=2 parallel.zero=3 parallel.zero=auto
gpuplan report x.yaml -js hardware.gpu=h20|hardware.gpu=h20 hardware.gpu=h200 hardware.gpu=h200-nvl
gpuplan catalog m|models
gpuplan search x.yaml --by c|cost
gpuplan search x.yaml --to|--top
gpuplan solve x.yaml --max workload.seq|workload.seq_len
gpuplan explain tests/data/cli/train.yaml memory.per_gpu.o|memory.per_gpu.optimizer memory.per_gpu.optimizer_paged memory.per_gpu.overhead memory.per_gpu.overhead_parts.blas_workspace memory.per_gpu.overhead_parts.comm_buffers memory.per_gpu.overhead_parts.cuda_context memory.per_gpu.overhead_parts.fp8_weights memory.per_gpu.overhead_parts.fragmentation memory.per_gpu.overhead_parts.recomputed_layer
gpuplan sweep x.yaml --y latency.tpot_p|latency.tpot_p50_s latency.tpot_p90_s latency.tpot_p99_s
gpuplan sweep x.yaml --y memory.per_gpu.total,latency.tpot_p9|memory.per_gpu.total,latency.tpot_p90_s memory.per_gpu.total,latency.tpot_p99_s
gpuplan sweep x.yaml --y serving.overl|
gpuplan sweep x.yaml --y=latency.tpot_p|--y=latency.tpot_p50_s --y=latency.tpot_p90_s --y=latency.tpot_p99_s
gpuplan sweep x.yaml --y=memory.per_gpu.total,latency.tpot_p9|--y=memory.per_gpu.total,latency.tpot_p90_s --y=memory.per_gpu.total,latency.tpot_p99_s
gpuplan sweep x.yaml --y=serving.overl|
gpuplan sweep x.yaml workload.seq_len=1..2 --y=memory.per_gpu.to|--y=memory.per_gpu.total
gpuplan report x.yaml --set=workload.kind=o|--set=workload.kind=offline --set=workload.kind=online
gpuplan search x.yaml --by=c|--by=cost
gpuplan solve x.yaml --max=workload.seq|--max=workload.seq_len
gpuplan report x.yaml --profile h1|h100x8 h1b
gpuplan sweep x.yaml --profile=h1|--profile=h100x8 --profile=h1b
gpuplan sweep x.yaml workload.seq|workload.seq_len=
gpuplan sweep x.yaml workload.seq_len=1..2 hardware.gp|hardware.gpu= hardware.gpus_per_node=
gpuplan sweep x.yaml hardware.gpu=h200,h20|hardware.gpu=h200,h20 hardware.gpu=h200,h200 hardware.gpu=h200,h200-nvl
gpuplan sweep x.yaml workload.recompute=s|workload.recompute=selective'

# --profile NAME: the profiles folder's files (a folder and another suffix are not)
XDG_CONFIG_HOME=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-comp-xdg.XXXXXX") || exit 1
export XDG_CONFIG_HOME
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT INT TERM
mkdir -p "$XDG_CONFIG_HOME/gpuplan/profiles/h1dir.yaml"
: >"$XDG_CONFIG_HOME/gpuplan/profiles/h100x8.yaml"
: >"$XDG_CONFIG_HOME/gpuplan/profiles/h1b.yaml"
: >"$XDG_CONFIG_HOME/gpuplan/profiles/h1c.yml"

if command -v zsh >/dev/null 2>&1; then
	printf '%s\n' "$cases" | while IFS='|' read -r line want; do
		got=$(G=$G zsh -f -c 'source contrib/gpuplan.zsh || exit 1
			w=(${=1}); [[ $1 == *" " ]] && w+=("")
			w[1]=$G
			_gpuplan_candidates $G $w | sed "s/:.*//" | grep -F -- "${w[-1]}" | grep -v "^files " |
				awk -v p="${w[-1]}" "index(\$0, p) == 1" | sort | tr "\n" " " | sed "s/ \$//"' \
			zsh "$line" 2>&1)
		[ "$got" = "$want" ] && echo ok || echo "FAIL: zsh: '$line': got '$got', expected '$want'"
	done >"${TMPDIR:-/tmp}/gpuplan-comp.$$"
	tally "${TMPDIR:-/tmp}/gpuplan-comp.$$"
	rm -f "${TMPDIR:-/tmp}/gpuplan-comp.$$"
	# a scenario operand asks zsh for YAML files
	G=$G zsh -f -c 'source contrib/gpuplan.zsh; _gpuplan_candidates $G $G report ""' |
		grep -qxF 'files *.(yaml|yml)' && ok || bad "zsh: report FILE completes YAML files"
else
	echo "note: zsh not installed; its completion not driven (apt-get install zsh)"
fi

if command -v fish >/dev/null 2>&1; then
	printf '%s\n' "$cases" | while IFS='|' read -r line want; do
		got=$(G=$G fish -N -c 'source contrib/gpuplan.fish; or exit 1
			set -l l (string replace -r "^gpuplan" $G -- $argv[1])
			complete -C"$l" | string replace -r "\t.*" "" | sort | string join " "' "$line" 2>&1)
		[ "$got" = "$want" ] && echo ok || echo "FAIL: fish: '$line': got '$got', expected '$want'"
	done >"${TMPDIR:-/tmp}/gpuplan-comp.$$"
	tally "${TMPDIR:-/tmp}/gpuplan-comp.$$"
	rm -f "${TMPDIR:-/tmp}/gpuplan-comp.$$"
else
	echo "note: fish not installed; its completion not driven (apt-get install fish)"
fi

summary completion
