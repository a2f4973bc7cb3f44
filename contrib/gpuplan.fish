# fish completion for gpuplan(1). What it offers is asked of the program at completion
# time, as git's --git-completion-helper: commands, their operands and options from the
# hidden `gpuplan commands`, scenario keys and values from `gpuplan fields`, catalog ids
# from `gpuplan catalog gpus|models`, explain's keys from `gpuplan explain FILE`, and the
# figures --y charts from `gpuplan figures`.
# Installed by `make install` into fish's vendor_completions.d as gpuplan.fish.

function __gpuplan_row -a exe name
    $exe commands 2>/dev/null </dev/null | string match -r -- "^\Q$name\E\t.*"
end

# The values of a row of `gpuplan fields` (its type and choices), each after head: catalog
# ids, or the choices listed; none for a file, a field without choices, or a LoRA target
# set where skip_targets is given.
function __gpuplan_choices -a exe type choices head skip_targets
    switch $choices
        case 'catalog:*'
            $exe catalog (string replace catalog: '' -- $choices) 2>/dev/null |
                string match -r -- '^[a-z0-9][a-z0-9.+-]*-[a-z0-9.+-]*(?= )|^[a-z]+[0-9][a-z0-9.]*(?= )' |
                string replace -r '^' "$head"
        case file -
        case '*'
            test -n "$skip_targets" -a "$type" = targets; and return
            string split , -- $choices | string replace -r '^' "$head"
    end
end

# The candidates for the token under the cursor, "value<TAB>description" each.
function __gpuplan_complete
    set -l w (commandline -opc)
    set -l cur (commandline -ct)
    set -l exe $w[1]
    set -l line (__gpuplan_row $exe -)
    set -l cmd
    set -l file
    set -l kind
    set -l nops 0
    set -l n (count $w)
    set -l i 2
    while test $i -le $n
        set -l word $w[$i]
        set -l opts (string split ' ' -- (string split \t -- $line)[3])
        if string match -qr -- '^-.' $word; and not string match -q -- '*=*' $word
            for o in $opts
                string match -q -- '*=*' $o; or continue
                set -l long (string replace -r '^.*--' '' -- $o | string replace -r '=.*' '')
                set -l short (string match -r -- '^-(.)/' $o)[2]
                if begin
                        string match -q -- '--*' $word; and string match -q -- "$word*" "--$long"
                    end; or begin
                        test -n "$short"; and not string match -q -- '--*' $word
                        and string match -q -- "*$short" $word
                    end
                    if test $i -eq $n
                        set kind (string replace -r '^[^=]*=' '' -- $o | string replace -r '^FILE$' ANYFILE)
                    else
                        set i (math $i + 1)
                    end
                    break
                end
            end
        else if not string match -q -- '-*' $word
            if test -z "$cmd"; and test -n "$(__gpuplan_row $exe $word)"
                set cmd $word
                set line (__gpuplan_row $exe $cmd)
            else
                set nops (math $nops + 1)
                test $nops -eq 1; and set file $word
            end
        end
        set i (math $i + 1)
    end
    set -l opts (string split ' ' -- (string split \t -- $line)[3])
    # --OPT=VALUE in one word: VALUE completes as after --OPT, each candidate keeping --OPT=
    if test -z "$kind"; and string match -qr -- '^--[^=]+=' $cur
        set -l name (string replace -r '=.*' '' -- $cur)
        for o in $opts
            string match -q -- '*=*' $o; or continue
            test (string replace -r '^.*/' '' -- $o | string replace -r '=.*' '') = $name; or continue
            set -l k (string replace -r '^[^=]*=' '' -- $o | string replace -r '^FILE$' ANYFILE)
            __gpuplan_values $exe $k (string replace -r '^[^=]*=' '' -- $cur) "$file" |
                string replace -r -- "^" "$name="
            return
        end
    end
    if test -z "$kind"; and string match -q -- '-*' $cur
        for o in $opts
            echo --(string replace -r '^.*--' '' -- $o | string replace -r '=.*' '')
        end
        return
    end
    if test -z "$kind"
        if test -z "$cmd"
            for r in ($exe commands 2>/dev/null </dev/null)
                set -l f (string split \t -- $r)
                test "$f[1]" = -; or printf '%s\t%s\n' $f[1] $f[4]
            end
            __fish_complete_suffix .yaml
            return
        end
        set -l ops (string split ' ' -- (string split \t -- $line)[2])
        if test $nops -lt (count $ops)
            set kind $ops[(math $nops + 1)]
        else if string match -q -- '*...' $ops[-1]
            # an operand that repeats (KEY=FROM..TO...) takes every later place too
            set kind $ops[-1]
        end
        # an optional operand is bracketed ([KEY])
        set kind (string trim -c '[]' -- "$kind")
        test "$cmd" = explain; and test "$kind" = KEY; and set kind EXPLAIN
    end
    __gpuplan_values $exe "$kind" "$cur" "$file"
end

# The candidates for CUR, the argument of an option or an operand of kind KIND (as
# `gpuplan commands` names it); FILE is the command's first operand (explain's keys).
function __gpuplan_values -a exe kind cur file
    switch "$kind"
        case KEY=VALUE
            if string match -q -- '*=*' $cur
                set -l key (string replace -r '=.*' '' -- $cur)
                for r in ($exe fields 2>/dev/null </dev/null)
                    set -l f (string split \t -- $r)
                    test "$f[1]" = "$key"; or continue
                    __gpuplan_choices $exe $f[2] $f[4] "$key=" skip-targets
                    string match -q -- '*,auto,*' ",$f[5],"; and echo "$key=auto"
                end
            else
                $exe fields 2>/dev/null </dev/null | string replace -r '\t.*' '='
            end
        case KEY
            $exe fields 2>/dev/null </dev/null | string replace -r '\t.*' ''
        case FIGURE
            # --y: figures, a comma-separated list
            set -l head (string match -r -- '^.*,' $cur)
            for r in ($exe figures 2>/dev/null </dev/null)
                set -l f (string split \t -- $r)
                test "$f[2]" = number; and echo "$head$f[1]"
            end
        case 'KEY=FROM..TO*'
            # a sweep's KEY=FROM..TO or KEY=a,b,c: the key, then a word field's values
            for r in ($exe fields 2>/dev/null </dev/null)
                set -l f (string split \t -- $r)
                if not string match -q -- '*=*' $cur
                    if contains -- $f[2] int num enum dtype bool; or string match -q -- 'catalog:*' $f[4]
                        echo "$f[1]="
                    end
                    continue
                end
                test "$f[1]" = (string replace -r '=.*' '' -- $cur); or continue
                set -l head (string match -r -- '^[^=]*=(?:.*,)?' $cur)
                __gpuplan_choices $exe $f[2] $f[4] "$head"
            end
        case EXPLAIN
            $exe explain $file 2>/dev/null </dev/null
        case NAME
            # --profile: the profiles folder's files (gpuplan(1), FILES)
            set -l d "$XDG_CONFIG_HOME"
            string match -q -- '/*' $d; or set d $HOME/.config
            for f in $d/gpuplan/profiles/*.yaml
                test -f $f; and string replace -r '\.yaml$' '' -- (basename $f)
            end
        case '*.json*'
            __fish_complete_suffix "$cur" .json
        case ANYFILE
            __fish_complete_path "$cur"
        case FILE A B
            __fish_complete_suffix "$cur" .yaml
        case '*|*'
            string split '|' -- $kind
    end
end

complete -c gpuplan -f -a '(__gpuplan_complete)'
