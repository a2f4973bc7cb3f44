#compdef gpuplan
# zsh completion for gpuplan(1). What it offers is asked of the program at completion time,
# as git's --git-completion-helper: commands, their operands and options from the hidden
# `gpuplan commands`, scenario keys and values from `gpuplan fields`, catalog ids from
# `gpuplan catalog gpus|models`, explain's keys from `gpuplan explain FILE`, and the
# figures --y charts from `gpuplan figures`.
# Installed by `make install` as _gpuplan in zsh's completion folder.

# _gpuplan_candidates EXE WORD...: what may replace the last WORD, one a line, each
# "value" or "value:description"; "files GLOB" asks for file names; a value ending in "="
# takes no space after it.
_gpuplan_candidates() {
	local exe=$1
	shift
	local -a w table opts
	w=("$@")
	local cur=${w[-1]} cmd= file= line kind= key o
	local -i i nops=0
	table=("${(@f)$("$exe" commands 2>/dev/null </dev/null)}")
	(( ${#table} )) || return
	_gpuplan_row() { # the row of command $1 ("-": the terminal UI)
		local r
		for r in $table; do [[ ${r%%$'\t'*} == $1 ]] && { print -r -- $r; return; }; done
	}
	line=$(_gpuplan_row -)
	# the command, the operands before the cursor, and the option whose argument this is
	for (( i = 2; i < ${#w}; i++ )); do
		opts=(${=${(ps:\t:)line}[3]})
		if [[ ${w[i]} == -?* && ${w[i]} != *=* ]]; then
			for o in $opts; do
				[[ $o == *=* ]] || continue
				if [[ ${w[i]} == --* && ${o#*/} == ${w[i]}* ]] ||
					[[ ${w[i]} != --* && $o == -?/* && ${w[i]} == *${o[2]} ]]; then
					(( i == ${#w} - 1 )) && kind=${${o#*=}/#%FILE/ANYFILE} || (( i++ ))
					break
				fi
			done
		elif [[ ${w[i]} != -* ]]; then
			if [[ -z $cmd ]] && [[ -n $(_gpuplan_row ${w[i]}) ]]; then
				cmd=${w[i]}
				line=$(_gpuplan_row $cmd)
			else
				(( nops++ == 0 )) && file=${w[i]}
			fi
		fi
	done
	opts=(${=${(ps:\t:)line}[3]})
	# --OPT=VALUE in one word: VALUE completes as after --OPT, each candidate keeping --OPT=
	if [[ -z $kind && $cur == --?*=* ]]; then
		for o in $opts; do
			[[ $o == *=* && ${${o#*/}%%=*} == ${cur%%=*} ]] || continue
			_gpuplan_candidates $exe ${w[1,-2]} ${cur%%=*} ${cur#*=} | while IFS= read -r o; do
				[[ $o == 'files '* ]] && print -r -- $o || print -r -- "${cur%%=*}=$o"
			done
			return
		done
	fi
	if [[ -z $kind && $cur == -* ]]; then
		for o in $opts; do print -r -- "--${${o#*--}%%=*}"; done
		return
	fi
	if [[ -z $kind ]]; then
		if [[ -z $cmd ]]; then
			for o in $table; do
				[[ $o == -$'\t'* ]] || print -r -- "${o%%$'\t'*}:${${(ps:\t:)o}[4]}"
			done
			print -r -- "files *.(yaml|yml)"
			return
		fi
		table=(${=${(ps:\t:)line}[2]})
		kind=${table[nops+1]}
		# an optional operand is bracketed ([KEY])
		kind=${${kind#\[}%\]}
		# an operand that repeats (KEY=FROM..TO...) takes every later place too
		[[ -z $kind && ${table[-1]} == *... ]] && (( nops >= ${#table} )) && kind=${table[-1]}
		[[ $cmd == explain && $kind == KEY ]] && kind=EXPLAIN
	fi
	case $kind in
	KEY=VALUE)
		if [[ $cur == *=* ]]; then
			key=${cur%%=*}
			"$exe" fields 2>/dev/null </dev/null | while IFS=$'\t' read -r k t u ch fl; do
				[[ $k == $key ]] || continue
				case $ch in
				catalog:*) "$exe" catalog ${ch#catalog:} 2>/dev/null |
					awk '$1 ~ /^[a-z0-9][a-z0-9.+-]*-[a-z0-9.+-]*$|^[a-z]+[0-9][a-z0-9.]*$/ { print $1 }' ;;
				file | -) ;;
				*) [[ $t != targets ]] && print -rl -- ${(s:,:)ch} ;;
				esac | sed "s|^|$key=|"
				[[ ,$fl, == *,auto,* ]] && print -r -- "$key=auto"
			done
		else
			"$exe" fields 2>/dev/null </dev/null | cut -f1 | sed 's/$/=/'
		fi
		;;
	KEY) "$exe" fields 2>/dev/null </dev/null | cut -f1 ;;
	FIGURE) # --y: figures, a comma-separated list
		local head=
		[[ $cur == *,* ]] && head=${cur%,*},
		"$exe" figures 2>/dev/null </dev/null |
			awk -F'\t' -v h="$head" '$2 == "number" { print h $1 }'
		;;
	KEY=FROM..TO*) # a sweep's KEY=FROM..TO or KEY=a,b,c: the key, then a word field's values
		"$exe" fields 2>/dev/null </dev/null | while IFS=$'\t' read -r k t u ch fl; do
			if [[ $cur != *=* ]]; then
				case $t in
				int | num | enum | dtype | bool) print -r -- "$k=" ;;
				*) [[ $ch == catalog:* ]] && print -r -- "$k=" ;;
				esac
				continue
			fi
			[[ $k == ${cur%%=*} ]] || continue
			local head=${cur%%=*}=
			[[ $cur == *,* ]] && head=${cur%,*},
			case $ch in
			catalog:*) "$exe" catalog ${ch#catalog:} 2>/dev/null |
				awk '$1 ~ /^[a-z0-9][a-z0-9.+-]*-[a-z0-9.+-]*$|^[a-z]+[0-9][a-z0-9.]*$/ { print $1 }' ;;
			file | -) ;;
			*) print -rl -- ${(s:,:)ch} ;;
			esac | sed "s|^|$head|"
		done
		;;
	EXPLAIN) "$exe" explain $file 2>/dev/null </dev/null ;;
	NAME) # --profile: the profiles folder's files (gpuplan(1), FILES)
		local d=${XDG_CONFIG_HOME:-}
		[[ $d == /* ]] || d=$HOME/.config
		for o in $d/gpuplan/profiles/*.yaml(N.); do print -r -- ${${o:t}%.yaml}; done
		;;
	*.json*) print -r -- "files *.json" ;;
	ANYFILE) print -r -- "files *" ;;
	FILE | A | B) print -r -- "files *.(yaml|yml)" ;;
	*'|'*) print -rl -- ${(s:|:)kind} ;;
	esac
}

_gpuplan() {
	local -a cands plain nospace described
	local c glob=
	cands=("${(@f)$(_gpuplan_candidates ${words[1]} ${words[1,CURRENT]})}")
	for c in $cands; do
		case $c in
		'') ;;
		'files '*) glob=${c#files } ;;
		*=) nospace+=($c) ;;
		*:*) described+=($c) ;;
		*) plain+=($c) ;;
		esac
	done
	(( ${#described} )) && _describe -t commands 'gpuplan command' described
	(( ${#plain} )) && compadd -a plain
	(( ${#nospace} )) && compadd -S '' -a nospace
	# a file after --OPT=: the file name alone is completed
	[[ -n $glob ]] && { compset -P '--*='; _files -g "$glob"; }
	return 0
}

# loaded by compinit from fpath, or sourced after it
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
	_gpuplan "$@"
elif (( $+functions[compdef] )); then
	compdef _gpuplan gpuplan
fi
