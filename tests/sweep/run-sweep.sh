#!/bin/sh
# gpuplan sweep (gpuplan(1), sweep): the 80-column charts against goldens (braille and
# ASCII), each line at most 80 columns; the CSV read back by python3's csv module and its
# figures equal to `report --json --set` at the same value, for a range and for a list of
# values (KEY=A,B,C: GPUs, frameworks, offload, numbers); the JSON's documented keys; the
# SVG parsed by python3's XML parser; and every bad range or figure refused with exit 2, a
# message naming it and standard output empty.
# Run from anywhere; runs $GPUPLAN, by default ./gpuplan. UPDATE=1 rewrites the goldens.
. "$(dirname "$0")/../lib.sh"
program
E=tests/sweep/expected
scratch sweep
ERR=$T/err

TRAIN=scenarios/seed-02-7b-mixed-precision-adam.yaml
SERVE=scenarios/team-serve-70b-5m-requests.yaml
ONLINE=scenarios/seed-08-online-customer-service.yaml

# golden NAME LOCALE ARGS...: the chart against $E/NAME.txt, and no line wider than 80
golden() {
	name=$1 loc=$2
	shift 2
	if ! LC_ALL=$loc "$G" sweep "$@" >"$T/out" 2>"$T/err"; then
		bad "$name: gpuplan sweep $* exited $?"
		return
	fi
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$T/out" "$E/$name.txt"
	fi
	if diff -u "$E/$name.txt" "$T/out" >"$T/diff"; then ok; else
		bad "$name: the chart differs from $E/$name.txt"
		head -20 "$T/diff"
	fi
	if python3 -c '
import sys
for n, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    if len(line.rstrip("\n")) > 80:
        sys.exit("line %d is %d columns" % (n, len(line.rstrip("\n"))))
' "$T/out"; then ok; else bad "$name: wider than 80 columns"; fi
}

golden train-seq-len C.UTF-8 $TRAIN workload.seq_len=512..32768*2
golden train-seq-len-ascii C.UTF-8 $TRAIN workload.seq_len=512..32768*2 --ascii
# the lone decode step against the batch (team-serve itself plans chunked under load)
golden serve-batch-slo C.UTF-8 $SERVE workload.batch=1..128 --y latency.tpot_s,memory.per_gpu.total \
	--set workload.scheduler=alone
golden online-curves-ascii C $ONLINE workload.batch=1..256 workload.prompt_tokens=512..2048*2 \
	--y latency.ttft_s
golden serve-count-gaps C $SERVE hardware.count=2..16:2 --y latency.tpot_s \
	--set workload.scheduler=alone
# a list of words: one x position a GPU, one curve an offload
golden train-gpus-ascii C $TRAIN hardware.gpu=h100-sxm-80gb,h200,a100-80gb-sxm,mi300x \
	--y memory.per_gpu.total
golden train-offload-curves C.UTF-8 $TRAIN parallel.offload=none,optimizer,optimizer+params \
	hardware.gpu=h100-sxm-80gb,rtx-4090 --y time.step_s

# outside a UTF-8 locale the chart is ASCII without --ascii
LC_ALL=C "$G" sweep $TRAIN workload.seq_len=512..32768*2 >"$T/c" 2>"$T/err"
if cmp -s "$T/c" "$E/train-seq-len-ascii.txt"; then ok; else bad "LC_ALL=C does not draw ASCII"; fi
if LC_ALL=C grep -q '[^ -~]' "$T/c"; then bad "an ASCII chart holds a non-ASCII byte"; else ok; fi

# a point the scenario cannot hold is said on stderr and left out, not drawn
"$G" sweep $SERVE hardware.count=2..16:2 --csv >"$T/csv" 2>"$T/err"
if grep -q 'hardware.count=6: left out: .*does not divide' "$T/err"; then ok; else
	bad "an invalid point is not named on stderr"
fi

# CSV read back: the header, one row a point, and the figures equal report --json's
"$G" sweep $TRAIN workload.seq_len=1024..16384*2 --y memory.per_gpu.total,time.step_s \
	--csv >"$T/csv" 2>"$T/err" || bad "sweep --csv exited $?"
"$G" report $TRAIN --json --set workload.seq_len=4096 >"$T/r.json" 2>"$T/err" ||
	bad "report --json exited $?"
"$G" sweep $SERVE hardware.count=2..16:2 --csv >"$T/csv2" 2>/dev/null
if python3 - "$T/csv" "$T/r.json" "$T/csv2" <<'EOF'; then ok; else bad "the CSV does not read back"; fi
import csv, json, math, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
want = ["workload.seq_len", "valid", "memory.fits", "memory.per_gpu.total", "time.step_s",
        "memory.capacity", "workload.slo.ttft", "workload.slo.tpot", "problem"]
assert list(rows[0].keys()) == want, list(rows[0].keys())
assert [int(r["workload.seq_len"]) for r in rows] == [1024, 2048, 4096, 8192, 16384]
rep = json.load(open(sys.argv[2]))
at = [r for r in rows if r["workload.seq_len"] == "4096"][0]
assert int(at["memory.per_gpu.total"]) == rep["memory"]["per_gpu"]["total"], at
assert math.isclose(float(at["time.step_s"]), rep["time"]["step_s"], rel_tol=1e-9), at
assert at["memory.fits"] == str(rep["memory"]["fits"]).lower()
mem = [int(r["memory.per_gpu.total"]) for r in rows]
assert mem == sorted(mem) and mem[0] < mem[-1], mem  # longer sequences need more memory
bad = [r for r in csv.DictReader(open(sys.argv[3], newline="")) if r["valid"] == "false"]
assert [r["hardware.count"] for r in bad] == ["2", "6", "10", "14"], bad
assert all(r["problem"] and not r["latency.tpot_s"] for r in bad), bad
EOF

# lists: KEY=A,B,C planned as --set would plan each value (a swept GPU keeps the file's own
# hardware fields: seed 17 prices its GPUs at 2.5 USD an hour and sets their power), words
# in CSV as a scenario file writes them, numbers listed in the order given
COST=scenarios/seed-17-energy-and-cost.yaml
"$G" sweep $COST hardware.gpu=h100-sxm-80gb,h200,a100-80gb-sxm --y cost.usd_per_hour,energy.kwh \
	--set hardware.count=32 --csv >"$T/l.csv" 2>"$T/err" || bad "sweep over GPUs exited $?"
for g in h200 a100-80gb-sxm; do
	"$G" report $COST --json --set hardware.count=32 --set hardware.gpu=$g >"$T/$g.json" 2>"$T/err" ||
		bad "report --set hardware.gpu=$g exited $?"
done
"$G" sweep $TRAIN parallel.offload=none,optimizer+params workload.framework=fsdp,megatron \
	--csv >"$T/w.csv" 2>"$T/err" || bad "sweep over words exited $?"
"$G" sweep $TRAIN hardware.count=16,4,8 --json >"$T/n.json" 2>"$T/err" ||
	bad "sweep over a list of counts exited $?"
"$G" sweep $TRAIN workload.flash_attention=true,false parallel.offload=none,optimizer --json \
	>"$T/b.json" 2>"$T/err" || bad "sweep over a bool exited $?"
if python3 - "$T" <<'EOF'; then ok; else bad "a sweep over a list is not what --set gives"; fi
import csv, json, math, sys
t = sys.argv[1]
rows = list(csv.DictReader(open(t + "/l.csv", newline="")))
assert [r["hardware.gpu"] for r in rows] == ["h100-sxm-80gb", "h200", "a100-80gb-sxm"], rows
for r in rows[1:]:
    rep = json.load(open("%s/%s.json" % (t, r["hardware.gpu"])))
    assert math.isclose(float(r["cost.usd_per_hour"]), rep["cost"]["usd_per_hour"]), r
    assert math.isclose(float(r["energy.kwh"]), rep["energy"]["kwh"], rel_tol=1e-9), r
    assert int(r["memory.capacity"]) == rep["memory"]["capacity"], r
assert float(rows[1]["cost.usd_per_hour"]) == 80  # 32 GPUs at the file's 2.5 USD, not the catalog's
w = list(csv.DictReader(open(t + "/w.csv", newline="")))
assert [(r["parallel.offload"], r["workload.framework"]) for r in w] == [
    ("none", "fsdp"), ("optimizer+params", "fsdp"), ("none", "megatron"),
    ("optimizer+params", "megatron")], w
assert int(w[1]["memory.per_gpu.total"]) < int(w[0]["memory.per_gpu.total"]), w  # offloaded
n = json.load(open(t + "/n.json"))
assert n["inputs"][0]["values"] == [16, 4, 8] and n["inputs"][0]["scale"] == "list", n["inputs"]
assert [p["inputs"]["hardware.count"] for p in n["points"]] == [16, 4, 8]
b = json.load(open(t + "/b.json"))
assert b["inputs"][0]["values"] == [True, False] and b["inputs"][1]["values"] == ["none", "optimizer"]
assert b["points"][3]["inputs"] == {"workload.flash_attention": False, "parallel.offload": "optimizer"}
EOF

# JSON: the keys gpuplan(1) documents, and one point a combination of values
"$G" sweep $ONLINE workload.batch=1..8 workload.prompt_tokens=512..1024*2 --json \
	>"$T/j" 2>"$T/err" || bad "sweep --json exited $?"
if python3 - "$T/j" <<'EOF'; then ok; else bad "the JSON lacks a documented key"; fi
import json, sys
j = json.load(open(sys.argv[1]))
assert j["schema"] == "gpuplan.sweep/1"
assert set(j) == {"schema", "scenario", "inputs", "figures", "points"}, set(j)
assert [i["key"] for i in j["inputs"]] == ["workload.batch", "workload.prompt_tokens"]
assert j["inputs"][0]["values"] == [1, 2, 4, 8] and j["inputs"][0]["scale"] == "log"
assert [f["key"] for f in j["figures"]] == ["memory.per_gpu.total", "latency.tpot_s"]
assert len(j["points"]) == 8
p = j["points"][0]
assert set(p) == {"inputs", "valid", "problem", "fits", "figures", "limits"}, set(p)
assert p["inputs"] == {"workload.batch": 1, "workload.prompt_tokens": 512}
assert j["points"][4]["inputs"] == {"workload.batch": 1, "workload.prompt_tokens": 1024}
assert isinstance(p["figures"]["memory.per_gpu.total"], int)
assert set(p["limits"]) == {"memory.capacity", "slo.ttft_s", "slo.tpot_s"}
assert p["limits"]["memory.capacity"] == 23697482056, p["limits"]  # an A10: 22.07 GiB, as a run on one reports its total (catalog cuda_total)
EOF

# SVG: XML a Markdown renderer takes (the svg namespace, a size), one polyline a curve
"$G" sweep $SERVE workload.batch=1..128 --y latency.tpot_s,memory.per_gpu.total \
	--svg "$T/s.svg" >"$T/out" 2>"$T/err" || bad "sweep --svg exited $?"
[ -s "$T/out" ] && bad "--svg FILE also wrote standard output"
if python3 - "$T/s.svg" <<'EOF'; then ok; else bad "the SVG is not what was asked"; fi
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert root.tag == ns + "svg" and root.get("width") and root.get("viewBox"), root.attrib
texts = [t.text for t in root.iter(ns + "text")]
assert "workload.slo.tpot (SLO)" in texts and "memory.capacity (fit limit)" in texts, texts
dashed = [l for l in root.iter(ns + "polyline") if l.get("stroke-dasharray")]
assert len(dashed) == 2, len(dashed)
EOF

# bad ranges and figures: exit 2, the argument named, standard output empty
refuse() {
	want=$1
	shift
	"$G" sweep "$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc != 2 ] || [ -s "$T/out" ] || ! grep -qF -- "$want" "$T/err"; then
		bad "sweep $* gave $rc, expected 2 and a message with '$want'"
	else ok; fi
}
refuse "'workload.seq_len=8k..1k:1k': FROM is above TO" $TRAIN workload.seq_len=8k..1k:1k
refuse "'workload.seq_len=1k..8k:0': STEP is 0" $TRAIN workload.seq_len=1k..8k:0
refuse "FACTOR 1 is not above 1" $TRAIN workload.seq_len=1k..8k*1
refuse "FACTOR 0.5 is not above 1" $TRAIN workload.seq_len=1k..8k*0.5
refuse "did you mean 'workload.seq_len'" $TRAIN workload.seq_le=1k..8k
refuse "workload.kind is not a number" $TRAIN workload.kind=1..2
refuse "'latency.tpot': unknown figure for --y (did you mean 'latency.tpot_s'?)" \
	$TRAIN workload.seq_len=1k..8k --y latency.tpot
refuse "1000 points (at most 256" $TRAIN hardware.count=1..1000:1
refuse "9 curves (at most 8" $TRAIN workload.seq_len=1k..8k hardware.count=1..9:1
refuse "the point 1.5 is not a whole number" $TRAIN workload.micro_batch=1..8*1.5
refuse "hardware.count: 0 is out of range" $TRAIN hardware.count=0..8
# TO past the field's range names TO, not a point of the doubling walk (134217728)
refuse "hardware.count: 1000000000 is out of range" $TRAIN hardware.count=1..1000000000
refuse "no '..'" $TRAIN workload.seq_len=1k:8k
refuse "cannot read TO 'x'" $TRAIN workload.seq_len=1k..x
refuse "workload.seq_len is swept twice" $TRAIN workload.seq_len=1k..2k workload.seq_len=1k..2k
refuse "--y needs a number; bottleneck.binding is a word" $TRAIN workload.seq_len=1k..2k \
	--y bottleneck.binding
refuse "'workload.kind=train': workload.kind is not a number" $TRAIN workload.kind=train
refuse "name cannot be swept" $TRAIN name=a,b
refuse "hardware.count=8,16,8': 8 is listed twice" $TRAIN hardware.count=8,16,8
refuse "none is listed twice" $TRAIN parallel.offload=none,optimizer,none
refuse "an empty value in the list" $TRAIN workload.framework=fsdp,,megatron
refuse "unknown GPU 'nope'" $TRAIN hardware.gpu=h200,nope
refuse "cannot read a value 'x'" $TRAIN hardware.count=8,x
refuse "hardware.count: 0 is out of range" $TRAIN hardware.count=0,8
refuse "9 curves (at most 8" $TRAIN workload.seq_len=1k..8k \
	hardware.gpu=h100-sxm-80gb,h200,a100-80gb-sxm,a100-40gb-sxm,l40s,l4,mi300x,b200,rtx-4090
refuse "missing argument" $TRAIN

summary sweep
