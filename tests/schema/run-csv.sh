#!/bin/sh
# Every --csv table read back by python3's csv module (issue 18): search (training, serving,
# offload, over the catalog's GPUs), search --scaling (under the same keys as search --csv,
# each row against the JSON report of its layout), catalog gpus and models, diff,
# validate and sweep (a range, curves, a list of words). tests/schema/check_csv.py checks
# that each parses with one field a column, that a column named by a scenario key holds
# that field's values as a scenario file writes them (optimizer+params, not all; catalog
# ids; auto) and one named by a figure a number, and each row against the same command's
# --json, value for value. The checker is shown to fail on a value of the wrong form.
# Run from anywhere; runs $GPUPLAN, by default ./gpuplan.
. "$(dirname "$0")/../lib.sh"
program
CHECK="python3 tests/schema/check_csv.py"
scratch csv
ERR=$T/err
n=0
: >"$T/list"

"$G" fields >"$T/fields.tsv" 2>"$T/err" && "$G" figures >"$T/figures.tsv" 2>>"$T/err" &&
	"$G" catalog --json >"$T/catalog.json" 2>>"$T/err" && ok || bad "gpuplan fields, figures, catalog"

# table KIND WANT ARGS...: gpuplan ARGS --csv (exit status WANT, "0|1" allowed) and, unless
# KIND is scaling, gpuplan ARGS --json, queued for the checker
table() {
	kind=$1 want=$2
	shift 2
	n=$((n + 1))
	for f in csv json; do
		[ $f = json ] && [ "$kind" = scaling ] && continue
		if [ "$kind" = scaling ]; then
			"$G" "$@" >"$T/$n.$f" 2>"$T/err"
		else
			"$G" "$@" --$f >"$T/$n.$f" 2>"$T/err"
		fi
		rc=$?
		case "|$want|" in
		*"|$rc|"*) ok ;;
		*)
			bad "gpuplan $* --$f exited $rc (expected $want)"
			return
			;;
		esac
	done
	if [ "$kind" = scaling ]; then
		echo "$kind=$T/$n.csv" >>"$T/list"
	else
		echo "$kind=$T/$n.csv:$T/$n.json" >>"$T/list"
	fi
}

TRAIN=tests/data/cli/train.yaml
SERVE=tests/data/cli/serve.yaml
OFFLOAD=scenarios/seed-03-7b-optimizer-offload.yaml
ONLINE=scenarios/seed-08-online-customer-service.yaml

table search 0 search $TRAIN --top 5
table search 0 search $OFFLOAD --top 40
table search 0 search $SERVE --top 5 --hardware
table search 0 search $ONLINE --top 5 --by cost
table scaling 0 search $OFFLOAD --scaling
scaling_offload=$n
table scaling 0 search $SERVE --scaling
scaling_serve=$n
table catalog-gpus 0 catalog gpus
table catalog-models 0 catalog models
table diff 0 diff $TRAIN $SERVE
table diff 0 diff $OFFLOAD scenarios/seed-02-7b-mixed-precision-adam.yaml
table validate "0|1" validate
table sweep 0 sweep $TRAIN workload.seq_len=1k..16k*2 --y memory.per_gpu.total,time.step_s
table sweep 0 sweep $SERVE hardware.count=2..16:2 --y latency.tpot_s
table sweep 0 sweep $OFFLOAD parallel.offload=none,optimizer,optimizer+params \
	hardware.gpu=h100-sxm-80gb,rtx-4090

# a layout that offloads, so the check of parallel.offload sees optimizer+params written so
grep -h ',optimizer+params,' "$T"/*.csv >/dev/null && ok ||
	bad "no table shows an offload of optimizer+params"

# shellcheck disable=SC2046
if $CHECK "$T" $(cat "$T/list") >"$T/report" 2>&1; then ok; else
	bad "tables that do not read back:"
	grep -v '^csv:' "$T/report" | head -20
fi
tail -1 "$T/report"

# search --scaling has no --json: each row that fits is read back against the JSON report
# of its layout (tests/schema/check_scaling.py), and the check fails on a changed value
for x in "$OFFLOAD:$scaling_offload" "$SERVE:$scaling_serve"; do
	if python3 tests/schema/check_scaling.py "$G" "${x%%:*}" "$T/${x##*:}.csv" >"$T/report" 2>&1
	then ok; else
		bad "search ${x%%:*} --scaling does not agree with report --json:"
		head -10 "$T/report"
	fi
done
awk -F, 'NR == 3 { $19 = $19 * 1.01 } 1' OFS=, "$T/$scaling_offload.csv" >"$T/m0.csv"
if python3 tests/schema/check_scaling.py "$G" "$OFFLOAD" "$T/m0.csv" >"$T/report" 2>&1; then
	bad "check_scaling.py passes a step time 1% off"
else ok; fi

# the checker fails on a value not as a scenario file writes it, on a row one field short,
# and on a CSV that differs from its JSON
f=$(sed -n 2p "$T/list" | sed 's/^search=//; s/:.*//')
j=$(sed -n 2p "$T/list" | sed 's/.*://')
sed 's/,optimizer+params,/,all,/' "$f" >"$T/m1.csv"
sed '2s/,[^,]*$//' "$f" >"$T/m2.csv"
awk -F, 'NR == 2 { $3 = $3 + 1 } 1' OFS=, "$f" >"$T/m3.csv"
for m in m1 m2 m3; do
	cmp -s "$f" "$T/$m.csv" && { bad "mutation $m changed nothing"; continue; }
	if $CHECK "$T" "search=$T/$m.csv:$j" >"$T/report" 2>&1; then
		bad "the checker passes a table with a mutation ($m)"
	else ok; fi
done
$CHECK "$T" "search=$T/m1.csv:$j" 2>&1 | grep -q "parallel.offload='all' is not one of" && ok ||
	bad "the checker does not name the value 'all'"

summary csv
