# bash completion for gpuplan(1): commands, options, files, --set keys and values, and
# catalog ids (asked of `gpuplan catalog gpus|models` at completion time; nothing is
# offered when that fails). Installed by `make install` as
# $(PREFIX)/share/bash-completion/completions/gpuplan; or `source contrib/gpuplan.bash`.
# Needs no bash-completion package.

# Everything it offers is asked of the program at completion time, as git's
# --git-completion-helper: the commands, their operands and options (`gpuplan commands`),
# the scenario keys and their values (`gpuplan fields`), catalog ids (`gpuplan catalog`) and
# explain's keys (`gpuplan explain FILE`), the figures --y charts (`gpuplan figures`) and the
# keys a sweep steps (`gpuplan fields`). There is no copy of any of them here to go stale.

# The command table as `gpuplan commands` prints it: NAME, OPERANDS, OPTIONS, SUMMARY (TSV);
# the first line, NAME "-", is the terminal UI's.
_gpuplan_table()
{
	"$1" commands 2>/dev/null </dev/null
}

# The options of command cmd ("-" for the terminal UI), long and short ("--set -s"), or,
# with a name (--by), the choices its argument lists ("time|cost" gives "time cost").
_gpuplan_options()
{
	local exe=$1 cmd=$2 want=$3 name operands opts summary o
	while IFS=$'\t' read -r name operands opts summary; do
		[[ $name == "$cmd" ]] || continue
		for o in $opts; do
			if [[ -n $want ]]; then
				[[ ${o#*/} == "--$want"=* ]] || continue
				o=${o#*=}
				[[ $o == *'|'* ]] && echo "${o//|/ }"
			else
				[[ $o == -?/* ]] && echo "${o%%/*}"
				o=${o#*/}
				echo "${o%%=*}"
			fi
		done
	done < <(_gpuplan_table "$exe")
}

# The operands' choices of command cmd, where it lists them ("gpus|models").
_gpuplan_choices()
{
	local exe=$1 cmd=$2 name operands rest
	while IFS=$'\t' read -r name operands rest; do
		[[ $name == "$cmd" && $operands == *'|'* && $operands != *.* ]] &&
			echo "${operands//|/ }"
	done < <(_gpuplan_table "$exe")
}

# Catalog ids: the first column of `gpuplan catalog gpus|models`, where it looks like an id.
_gpuplan_ids()
{
	local exe=$1 what=$2
	"$exe" catalog "$what" 2>/dev/null |
		awk '$1 ~ /^[a-z0-9][a-z0-9.+-]*-[a-z0-9.+-]*$|^[a-z]+[0-9][a-z0-9.]*$/ { print $1 }'
}

# The keys `gpuplan explain FILE` explains: it lists them when given no KEY.
_gpuplan_explain_keys()
{
	"$1" explain "$2" 2>/dev/null </dev/null
}

# The field table, as the program prints it.
_gpuplan_fields()
{
	"$1" fields 2>/dev/null </dev/null
}

# The scenario keys, in the field table's order.
_gpuplan_keys()
{
	_gpuplan_fields "$1" | cut -f1
}

# The keys a sweep may step or list (gpuplan(1), sweep): the numbers, and the fields whose
# values are words of a short list or catalog ids.
_gpuplan_sweep_keys()
{
	local k type unit choices flags
	while IFS=$'\t' read -r k type unit choices flags; do
		case $type in
		int | num | enum | dtype | bool) echo "$k" ;;
		*) [[ $choices == catalog:* ]] && echo "$k" ;;
		esac
	done < <(_gpuplan_fields "$1")
}

# The calibration profiles --profile names: the files of the profiles folder (gpuplan(1),
# FILES), as the program finds it.
_gpuplan_profiles()
{
	local d=${XDG_CONFIG_HOME:-}
	[[ $d == /* ]] || d=$HOME/.config
	local f
	for f in "$d"/gpuplan/profiles/*.yaml; do
		[[ -f $f ]] && f=${f##*/} && echo "${f%.yaml}"
	done
}

# The figures --y charts: the numbers of `gpuplan figures`.
_gpuplan_figures()
{
	"$1" figures 2>/dev/null </dev/null | awk -F'\t' '$2 == "number" { print $1 }'
}

# Completes the last item of a comma-separated list (--y a,b,c; a sweep's KEY=a,b,c): the
# words of $2 after the items already typed in $1.
_gpuplan_list()
{
	local cur=$1 words=$2 head=
	[[ $cur == *,* ]] && head=${cur%,*},
	mapfile -t COMPREPLY < <(compgen -P "$head" -W "$words" -- "${cur##*,}")
	compopt -o nospace 2>/dev/null
}

# The values a --set KEY may take, where they are a short list: the field table's choices
# (catalog ids asked of the catalog), and auto where the field takes it.
_gpuplan_values()
{
	local exe=$1 key=$2 k type unit choices flags
	while IFS=$'\t' read -r k type unit choices flags; do
		[[ $k == "$key" ]] || continue
		case $choices in
		catalog:*) _gpuplan_ids "$exe" "${choices#catalog:}" ;;
		file | -) ;;
		*) [[ $type != targets ]] && echo "${choices//,/ }" ;;
		esac
		[[ ,$flags, == *,auto,* ]] && echo auto
		return
	done < <(_gpuplan_fields "$exe")
}

_gpuplan()
{
	local exe=${COMP_WORDS[0]} line cur prev cmd w i nargs=0 file
	local -a words
	COMPREPLY=()
	# Split the line ourselves, so that KEY=VALUE is one word whatever COMP_WORDBREAKS holds.
	line=${COMP_LINE:0:COMP_POINT}
	read -ra words <<<"$line"
	if [[ $line == *[[:space:]] || ${#words[@]} -le 1 ]]; then
		words+=("")
	fi
	cur=${words[${#words[@]} - 1]}
	prev=${words[${#words[@]} - 2]}

	# The command: the first word after the program that is not an option or its argument.
	for ((i = 1; i < ${#words[@]} - 1; i++)); do
		w=${words[i]}
		case $w in
		--set | -o | --output | --top | --by | --max | --min | --y | --svg | --profile) ((i++)) ;;
		-*) ;;
		*)
			if [[ -z $cmd ]]; then
				cmd=$w
			else
				((nargs++))
				[[ $nargs == 1 ]] && file=$w
			fi
			;;
		esac
	done

	case $prev in
	--set)
		if [[ $cur == *=* ]]; then
			local key=${cur%%=*} val=${cur#*=} vals
			vals=$(_gpuplan_values "$exe" "$key")
			if [[ $COMP_WORDBREAKS == *=* ]]; then
				mapfile -t COMPREPLY < <(compgen -W "$vals" -- "$val")
			else
				mapfile -t COMPREPLY < <(compgen -P "$key=" -W "$vals" -- "$val")
			fi
		else
			mapfile -t COMPREPLY < <(compgen -S = -W "$(_gpuplan_keys "$exe")" -- "$cur")
			compopt -o nospace 2>/dev/null
		fi
		return
		;;
	-o | --output | --svg)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return
		;;
	--y)
		_gpuplan_list "$cur" "$(_gpuplan_figures "$exe")"
		return
		;;
	--max | --min)
		mapfile -t COMPREPLY < <(compgen -W "$(_gpuplan_keys "$exe")" -- "$cur")
		return
		;;
	--by)
		mapfile -t COMPREPLY < <(compgen -W "$(_gpuplan_options "$exe" "$cmd" by)" -- "$cur")
		return
		;;
	--top)
		return
		;;
	--profile)
		mapfile -t COMPREPLY < <(compgen -W "$(_gpuplan_profiles)" -- "$cur")
		return
		;;
	esac

	if [[ $cur == --y=* ]]; then
		_gpuplan_list "${cur#--y=}" "$(_gpuplan_figures "$exe")"
		[[ $COMP_WORDBREAKS == *=* ]] || COMPREPLY=("${COMPREPLY[@]/#/--y=}")
		return
	fi
	# a sweep's KEY=FROM..TO or KEY=a,b,c after its FILE: the key, then a word field's values
	if [[ $cmd == sweep && $nargs -ge 1 && $cur != -* ]]; then
		if [[ $cur == *=* ]]; then
			local key=${cur%%=*}
			_gpuplan_list "${cur#*=}" "$(_gpuplan_values "$exe" "$key" | grep -vx auto)"
			if [[ $COMP_WORDBREAKS != *=* ]]; then
				COMPREPLY=("${COMPREPLY[@]/#/$key=}")
			fi
		else
			mapfile -t COMPREPLY < <(compgen -S = -W "$(_gpuplan_sweep_keys "$exe")" -- "$cur")
			compopt -o nospace 2>/dev/null
		fi
		return
	fi

	local opts files=scenario
	case $cmd in
	"")
		opts="$(_gpuplan_options "$exe" -) $(_gpuplan_table "$exe" | cut -f1 | grep -vx -- -)"
		;;
	*) opts="$(_gpuplan_options "$exe" "$cmd") $(_gpuplan_choices "$exe" "$cmd")" ;;
	esac
	case $cmd in
	explain)
		if ((nargs == 1)); then
			files=
			opts="$opts $(_gpuplan_explain_keys "$exe" "$file")"
		fi
		;;
	import) files=json ;;
	catalog) files= ;;
	validate) files=dir ;;
	esac
	mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
	case $files in
	scenario)
		[[ $cur != -* ]] && mapfile -t -O ${#COMPREPLY[@]} COMPREPLY < <(
			compgen -d -S / -- "$cur"
			compgen -f -X '!*.yaml' -- "$cur"
			compgen -f -X '!*.yml' -- "$cur"
		)
		;;
	json)
		[[ $cur != -* ]] && mapfile -t -O ${#COMPREPLY[@]} COMPREPLY < <(
			compgen -d -S / -- "$cur"
			compgen -f -X '!*.json' -- "$cur"
		)
		;;
	dir)
		[[ $cur != -* ]] && mapfile -t -O ${#COMPREPLY[@]} COMPREPLY < <(compgen -d -S / -- "$cur")
		;;
	esac
	# a folder completes without a trailing space, so that its files come next
	if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == */ ]]; then
		compopt -o nospace 2>/dev/null
	fi
}
complete -F _gpuplan gpuplan
