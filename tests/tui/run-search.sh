#!/bin/sh
# The search view, in a UTF-8 locale and in LANG=C (ASCII only there): s opens it with its
# rows and legend, Enter applies the selected layout and u undoes it, H searches the
# catalog's GPUs, c ranks by cost, Esc closes, :search cost opens it; its first line says
# what ! means (the deadline, or the daily load for online serving).
NAME=search
. "$(dirname "$0")/lib.sh"
# A result row: the border, the rank, the value it ranks by (tokens/s), then tp, pp, dp, z
# and mb (v gives way at 80 columns).
row_re='^[│|] *[0-9]+[ !] +[0-9.]+[kM]? +[0-9]+ +[0-9]+ +[0-9]+ +[0-9] +[0-9]+ '
search_checks() {
	loc=$1
	fresh LANG=$2 LC_ALL=$2
	start_ui
	select_field 2 parallel.zero
	wait_for '^ zero +[0-3] ' || bad "$loc: the zero field is shown"
	zero0=$(screen | sed -n 's/^ zero  *\([0-3]\) .*/\1/p')
	T send-keys s
	if wait_for 'Search: best layouts by time' && wait_for "$row_re" &&
		wait_for 'EnterApply|Enter Apply'; then
		ok "$loc: s opens the search view with its rows and legend"
	else
		bad "$loc: s opens the search view with its rows and legend"
	fi
	screen >>"$TMP/search-$loc.txt"
	# the first row whose ZeRO stage differs from the scenario's: Down to it, Enter
	n=$(screen | grep -E "$row_re" | tr -d '│|' |
		awk -v z="$zero0" '$6 != z { print NR; exit }')
	z=$(screen | grep -E "$row_re" | tr -d '│|' | awk -v n="$n" 'NR == n { print $6 }')
	if [ -n "$n" ]; then
		i=1
		while [ "$i" -lt "$n" ]; do T send-keys Down; i=$((i + 1)); done
		T send-keys Enter
		if wait_for "applied layout $n" && wait_gone 'Search: best' &&
			wait_for "^ zero +$z "; then
			ok "$loc: Enter applies the selected layout (zero $zero0 -> $z)"
		else
			bad "$loc: Enter applies the selected layout (zero $zero0 -> $z)"
		fi
		T send-keys u
		wait_for "^ zero +$zero0 " && ok "$loc: u undoes the applied layout" ||
			bad "$loc: u undoes the applied layout"
	else
		bad "$loc: a result with another ZeRO stage than $zero0"
	fi
	# H: over the catalog's GPUs, a GPU column; c ranks by cost; Esc closes
	fresh LANG=$2 LC_ALL=$2
	start_ui
	T send-keys s H
	wait_for 'over the catalog' && wait_for 'gpus' && wait_for '[0-9]x[a-z]' &&
		ok "$loc: H searches the catalog's GPUs" || bad "$loc: H searches the catalog's GPUs"
	T send-keys c
	wait_for 'Search: best layouts by cost' && ok "$loc: c ranks by cost" ||
		bad "$loc: c ranks by cost"
	screen >>"$TMP/search-$loc.txt"
	T send-keys Escape
	wait_gone 'Search: best' && wait_for 'Results' && ok "$loc: Esc closes the search view" ||
		bad "$loc: Esc closes the search view"
	fresh LANG=$2 LC_ALL=$2
	start_ui
	T send-keys : "search cost" Enter
	wait_for 'Search: best layouts by cost' && ok "$loc: :search cost opens the search view" ||
		bad "$loc: :search cost opens the search view"
}
search_checks utf8 C.UTF-8
search_checks ascii C
ascii_only "LANG=C: the search view is ASCII only" "$TMP/search-ascii.txt"

# the first line says what ! means, whole, at 80 columns
fresh LANG=C.UTF-8 LC_ALL=C.UTF-8
start_ui
T send-keys : "set workload.deadline=1d" Enter s
wait_for 'Search: best' && wait_for '! misses the deadline or SLO +│' &&
	ok "the search view says what ! means" || bad "the search view says what ! means"
# online serving with a daily load: ! also marks layouts whose GPUs cannot carry the
# requests
fresh
start_ui scenarios/team-serve-70b-5m-requests.yaml
T send-keys s
wait_for 'Search: best' && wait_for '! misses the SLO or the daily load +│' &&
	ok "the search view's ! names the daily load for online serving" ||
	bad "the search view's ! names the daily load for online serving"
# batch auto: the batch column shows the batch the engine runs, its running cap
# (serving.max_running: vLLM's max_num_seqs, 256) where that holds the KV pool's bound
# (capacity_plan.max_batch, 839 for the file's layout) below, as the results pane does
F=scenarios/team-serve-70b-5m-requests.yaml
wait_for '^[│|] *1[ !] ' || bad "the search view of $F has result rows"
cap=$("$BIN" report $F --json 2>/dev/null | sed -n 's/^[[:space:]]*"max_running":[[:space:]]*\([0-9]*\),*$/\1/p')
pool=$("$BIN" report $F --json 2>/dev/null | sed -n 's/^[[:space:]]*"max_batch":[[:space:]]*\([0-9]*\),*$/\1/p')
batches=$(screen | grep -E '^[│|] *[0-9]+[ !] ' | tr -d '│|' | awk '{ print $6 }')
over=$(echo "$batches" | awk -v c="$cap" '$1 + 0 > c + 0')
if [ -n "$cap" ] && [ "$pool" -gt "$cap" ] && [ "$(echo "$batches" | head -1)" = "$cap" ] &&
	[ -z "$over" ]; then
	ok "the search view's batch auto is the engine's running cap ($cap, KV pool $pool)"
else
	bad "the search view's batch auto: $(echo $batches) against the cap $cap (KV pool $pool)"
fi

# The value search ranks by, after the rank, under a heading that names it, and the same
# number as `gpuplan search --json`'s first score: tokens/s (1/score) and $/M tokens for
# training, and for a daily load the GPUs it needs and their $/h.
first_score() { # FILE [--by cost]: results[0].score of gpuplan search --json
	"$BIN" search "$@" --json | sed -n 's/^[[:space:]]*"score":[[:space:]]*\([^,]*\),*$/\1/p' |
		head -1
}
first_cell() { # the second field of the first result row (the score's cell)
	screen | grep -E '^[│|] *1[ !] ' | head -1 | tr -d '│|' | awk '{ print $2 }'
}
rank_check() { # FILE KEYS HEADING TITLE WANT: the score column for KEYS
	fresh
	start_ui "$1"
	T send-keys s $2
	if wait_for "Search: best layouts by $4" && wait_for "^[│|]  #  +$3 " &&
		wait_for '^[│|] *1[ !] ' && [ "$(first_cell)" = "$5" ]; then
		ok "search by $(echo "$4" | tr -d '\\') shows its value after the rank ($5)"
	else
		bad "search by $(echo "$4" | tr -d '\\'): $(first_cell) after the rank, search --json $5"
	fi
}
s=$(first_score scenarios/default.yaml)
rank_check scenarios/default.yaml '' 'tok/s' 'time \(tokens/s\)' \
	"$(awk -v s="$s" 'BEGIN { printf "%.3gk", 1 / s / 1000 }')"
s=$(first_score scenarios/default.yaml --by cost)
rank_check scenarios/default.yaml c '\$/Mtok' 'cost \(\$/M tokens\)' \
	"$(awk -v s="$s" 'BEGIN { printf "$%.3f", s * 1e6 }')"
F=scenarios/team-serve-70b-5m-requests.yaml
rank_check $F '' fleet 'GPUs the load needs' "$(first_score $F)"
rank_check $F c '\$/h' "cost of the load's GPUs \\(\\\$/h\\)" \
	"$(awk -v s="$(first_score $F --by cost)" 'BEGIN { printf "$%.0f", s }')"
finish
