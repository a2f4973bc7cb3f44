#!/bin/sh
# Every --json output against its documented keys (issue 18): each command run with --json
# (report on every shipped scenario, check on a good file and on every bad one, catalog,
# search, diff, validate, solve, sweep, explain KEY for every key and explain's list), and
# each output checked by tests/schema/check_json.py against tests/schema/gpuplan.schema.json:
# a missing key, a key of the wrong type or a key the schema does not name fails, and so does
# a key of the schema that man/gpuplan.1 does not name; a search layout's choices are those
# of the field table (`gpuplan fields`, x-field), not a copy. The checker is shown to fail on
# an undocumented key, a missing one, a wrong type, a choice the table lacks and a key the
# page lacks.
# Run from anywhere; runs $GPUPLAN, by default ./gpuplan.
. "$(dirname "$0")/../lib.sh"
program
SCHEMA=tests/schema/gpuplan.schema.json
CHECK="python3 tests/schema/check_json.py"
scratch schema
ERR=$T/err
n=0
: >"$T/list"

# out SCHEMA EXPECTED_STATUS ARGS...: runs gpuplan ARGS, which must exit with the status
# given (a list such as "0|1" allowed) and print JSON, then queues the output for SCHEMA
out() {
	name=$1 want=$2
	shift 2
	n=$((n + 1))
	"$G" "$@" >"$T/$n.json" 2>"$T/err"
	rc=$?
	case "|$want|" in
	*"|$rc|"*) ok ;;
	*)
		bad "gpuplan $* exited $rc (expected $want)"
		return
		;;
	esac
	printf '%s=%s\n' "$name" "$T/$n.json" >>"$T/list"
	printf '%s\n' "$*" >"$T/$n.cmd"
}

TRAIN=tests/data/cli/train.yaml
SERVE=tests/data/cli/serve.yaml
ONLINE=scenarios/seed-08-online-customer-service.yaml
LOADED=tests/data/serving/sglang-70b-4xh200.yaml

# report: every shipped scenario, the serving engines' (workload.scheduler), standard input
for f in scenarios/*.yaml scenarios/*/*.yaml tests/data/serving/*.yaml; do
	out gpuplan.report/1 0 report "$f" --json
done
out gpuplan.report/1 0 report - --json <$TRAIN

# check: a good file, every bad one (those that read; one that cannot is exit 1, no JSON),
# and a problem a --set caused
out gpuplan.check/1 0 check $TRAIN --json
out gpuplan.check/1 0 check tests/data/cli/serve.yaml --json --set workload.framework=vllm \
	--set parallel.zero=1
for f in tests/data/bad/*.yaml; do
	"$G" check "$f" --json >"$T/probe" 2>/dev/null
	[ -s "$T/probe" ] && out gpuplan.check/1 2 check "$f" --json
done
out gpuplan.check/1 2 check $TRAIN --json --set workload.seq_len=lots
out gpuplan.check/1 2 check tests/data/cli/invalid.yaml --json

# catalog, both tables and each alone
out gpuplan.catalog/1 0 catalog --json
out gpuplan.catalog/1 0 catalog gpus --json
out gpuplan.catalog/1 0 catalog models --json

# search: training, serving, over the catalog's GPUs, by cost
out gpuplan.search/1 0 search $TRAIN --json --top 3
out gpuplan.search/1 0 search $SERVE --json --top 3
out gpuplan.search/1 0 search $SERVE --json --top 3 --hardware
out gpuplan.search/1 0 search $LOADED --json --top 3 --by cost
out gpuplan.search/1 0 search $ONLINE --json --top 2 --hardware --by cost
# --scaling is CSV only: refused with --json (a JSON for it would need its schema here)
"$G" search $TRAIN --scaling --json >"$T/out" 2>"$T/err"
[ $? = 2 ] && [ ! -s "$T/out" ] && ok || bad "search --scaling --json is not refused"

# diff: training against serving, two seeds, a file against itself
out gpuplan.diff/1 0 diff $TRAIN $SERVE --json
out gpuplan.diff/1 0 diff scenarios/seed-14a-70b-bf16-a100-x1.yaml \
	scenarios/seed-14b-70b-bf16-a100-x2.yaml --json
out gpuplan.diff/1 0 diff $ONLINE $ONLINE --json --set hardware.count=2

# validate: exit 1 is a result (a group past its bound), still JSON
out gpuplan.validate/1 "0|1" validate --json

# solve
out gpuplan.solve/1 0 solve $TRAIN --max workload.seq_len --json
out gpuplan.solve/1 0 solve $TRAIN --min hardware.count --json

# sweep: one range, curves, invalid points left out, the SLO drawn
out gpuplan.sweep/1 0 sweep $TRAIN workload.seq_len=1024..8192*2 --json
out gpuplan.sweep/1 0 sweep $ONLINE workload.batch=1..64*4 workload.prompt_tokens=512..2048*2 \
	--y latency.ttft_s,latency.tpot_s --json
out gpuplan.sweep/1 0 sweep $SERVE hardware.count=1..8 --json
out gpuplan.sweep/1 0 sweep $TRAIN hardware.gpu=h100-sxm-80gb,h200 parallel.offload=none,optimizer \
	--json
out gpuplan.sweep/1 0 sweep $TRAIN workload.flash_attention=true,false hardware.count=16,8 --json

# calibrate: fitted (training step; prefill and decode; peak memory), saved to -o and to a
# profile, and refused (nothing fitted, "ok" false)
out gpuplan.calibrate/1 0 calibrate $TRAIN --measured step_s=25s --json
# (the lone step's prefill and decode, which the knobs move: at its one GPU the loaded engine
# the default plans is overloaded, its TTFT unbounded)
out gpuplan.calibrate/1 0 calibrate $ONLINE --measured ttft=2s --measured tpot=60ms --json \
	--set workload.scheduler=alone
out gpuplan.calibrate/1 0 calibrate $TRAIN --measured peak_memory=60GiB --measured allocated=50GiB --json
out gpuplan.calibrate/1 0 calibrate $TRAIN --measured step_s=25s -o "$T/cal.yaml" --json
XDG_CONFIG_HOME=$T/config out gpuplan.calibrate/1 0 calibrate $TRAIN --measured step_s=25s \
	--profile schema-test --json
out gpuplan.calibrate/1 1 calibrate $TRAIN --measured step_s=1ms --json

# explain: the list, and every key it lists, for training and for serving
for f in $TRAIN $ONLINE; do
	out "gpuplan.explain/1:keys" 0 explain "$f" --json
	"$G" explain "$f" >"$T/keys" 2>"$T/err" && [ -s "$T/keys" ] && ok ||
		bad "explain $f lists no keys"
	while read -r k; do
		out gpuplan.explain/1 0 explain "$f" "$k" --json
	done <"$T/keys"
done

# the keys a map may hold: figures (uncertainty, a sweep point's figures) and inputs
"$G" explain $TRAIN >"$T/figures" 2>/dev/null
"$G" explain $ONLINE >>"$T/figures" 2>/dev/null
"$G" fields >"$T/fields.tsv" 2>/dev/null
cut -f1 "$T/fields.tsv" >"$T/inputs"
[ -s "$T/inputs" ] && ok || bad "gpuplan fields lists no keys"

m=$(wc -l <"$T/list")
[ "$m" -ge 150 ] && ok || bad "only $m outputs to check"
# shellcheck disable=SC2046
if $CHECK $SCHEMA man/gpuplan.1 --x-keys figure="$T/figures" --x-keys input="$T/inputs" \
	--fields "$T/fields.tsv" $(cat "$T/list") >"$T/report" 2>&1; then ok; else
	bad "outputs that do not match the schema:"
	grep -v '^schema:' "$T/report" | head -30
	# name the command of each failing file
	grep -o "$T/[0-9]*\.json" "$T/report" | sort -u | head -5 | while read -r f; do
		echo "  $f: gpuplan $(cat "${f%.json}.cmd")"
	done
fi
tail -1 "$T/report"

# the checker can fail: an undocumented key, a missing key, a wrong type, a bad value, and
# (with a copy of the page that lacks a key) a key the man page does not name
python3 - "$T" <<'EOF'
import json, sys
t = sys.argv[1]
first = open(t + "/list").readline().strip().split("=", 1)[1]
r = json.load(open(first))
muts = {
    "extra": lambda d: d["memory"].update(undocumented_bytes=1),
    "missing": lambda d: d["time"].pop("step_s"),
    "type": lambda d: d["memory"].update(fits="yes"),
    "enum": lambda d: d["bottleneck"].update(binding="luck"),
    "const": lambda d: d.update(schema="gpuplan.report/2"),
    "integer": lambda d: d["memory"]["per_gpu"].update(total=1.5),
}
for name, f in muts.items():
    d = json.loads(json.dumps(r))
    f(d)
    json.dump(d, open("%s/mut-%s.json" % (t, name), "w"))
EOF
for m in extra missing type enum const integer; do
	if $CHECK $SCHEMA man/gpuplan.1 gpuplan.report/1="$T/mut-$m.json" >"$T/report" 2>&1; then
		bad "the checker passes a report with a mutation ($m)"
	elif grep -q "mut-$m.json" "$T/report"; then ok; else
		bad "the checker fails the $m mutation without naming the file"
		cat "$T/report"
	fi
done
# a search layout's recompute that is not a choice of workload.recompute in the field table
# (x-field), and the same check without the table to read
s=$(grep '^gpuplan.search/1=' "$T/list" | head -1 | cut -d= -f2)
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["results"][0]["parallel"]["recompute"] = "sometimes"
json.dump(d, open(sys.argv[2], "w"))' "$s" "$T/mut-field.json" || bad "no search output to mutate"
$CHECK $SCHEMA man/gpuplan.1 --fields "$T/fields.tsv" gpuplan.search/1="$s" >"$T/report" 2>&1 &&
	ok || bad "the checker fails a search output: $(head -3 "$T/report")"
if $CHECK $SCHEMA man/gpuplan.1 --fields "$T/fields.tsv" gpuplan.search/1="$T/mut-field.json" \
	>"$T/report" 2>&1; then
	bad "the checker passes a recompute that the field table does not list"
else
	grep -q "'sometimes'.*(workload.recompute)" "$T/report" && ok ||
		bad "the x-field check names no field: $(head -3 "$T/report")"
fi
$CHECK $SCHEMA man/gpuplan.1 gpuplan.search/1="$s" >"$T/report" 2>&1 &&
	bad "the checker passes an x-field without the field table" || ok
grep -v 'hw_flops_per_token' man/gpuplan.1 >"$T/page.1"
if $CHECK $SCHEMA "$T/page.1" >"$T/report" 2>&1; then
	bad "the checker passes a man page without compute.hw_flops_per_token"
else
	grep -q "'hw_flops_per_token' is not in" "$T/report" && ok || bad "the page check names no key"
fi

summary schema
