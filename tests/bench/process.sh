#!/bin/sh
# Times a whole `./gpuplan report FILE` process (start, catalog, scenario, plan, print),
# 50 runs, and prints milliseconds per run. Never fails for lack of a command: it says so.
runs=${RUNS:-50}
bin=./gpuplan
file=${1:-}
if [ -z "$file" ]; then
	for f in scenarios/*.yaml; do
		[ -f "$f" ] && file=$f && break
	done
fi
if [ ! -x "$bin" ]; then
	echo "process: $bin not built; skipped"
	exit 0
fi
if [ -z "$file" ]; then
	echo "process: no scenario in scenarios/; skipped"
	exit 0
fi
if ! "$bin" report "$file" >/dev/null 2>&1; then
	echo "process: '$bin report $file' does not run yet; skipped"
	exit 0
fi
start=$(date +%s%N)
i=0
while [ $i -lt "$runs" ]; do
	"$bin" report "$file" >/dev/null 2>&1
	i=$((i + 1))
done
end=$(date +%s%N)
echo "process: gpuplan report $file: $(( (end - start) / runs / 1000 )) us per run ($runs runs)" |
	awk '{ for (i = 1; i <= NF; i++) if ($i == "us") { $(i-1) = sprintf("%.2f", $(i-1) / 1000); $i = "ms" } print }'
