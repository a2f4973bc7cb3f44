#!/usr/bin/env python3
"""Reads `gpuplan search FILE --scaling` back against the JSON report of each of its rows.

    check_scaling.py GPUPLAN FILE CSV

Every row that fits names its layout under the scenario file's keys (hardware.*,
parallel.*, workload.*), so `gpuplan report FILE --set KEY=VALUE... --json` with the row's
non-empty layout columns plans that layout again: each figure column (the JSON report's
key) must equal the report's value at that key, to 1e-8 relative (the CSV's 10 digits).

Exits 0 when every row agrees, 1 otherwise, with one line a problem.
"""
import csv
import json
import subprocess
import sys

LAYOUT = ("hardware.", "parallel.", "workload.")


def value(j, key):
    for part in key.split("."):
        j = j.get(part) if isinstance(j, dict) else None
    return j


def main():
    gpuplan, scenario, path = sys.argv[1:4]
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    problems, checked = [], 0
    for i, r in enumerate(rows, 2):
        if r["memory.fits"] != "true":
            continue
        sets = []
        for k, v in r.items():
            if k.startswith(LAYOUT) and v != "":
                sets += ["--set", "%s=%s" % (k, v)]
        out = subprocess.run([gpuplan, "report", scenario, "--json"] + sets,
                             capture_output=True, text=True, check=False)
        if out.returncode != 0:
            problems.append("%s:%d: report %s exited %d" % (path, i, " ".join(sets),
                                                            out.returncode))
            continue
        j = json.loads(out.stdout)
        for k, v in r.items():
            if k.startswith(LAYOUT) or k in ("memory.fits", "efficiency"):
                continue
            want = value(j, k)
            if isinstance(want, str):
                ok = v == want
            elif want is None or v == "":
                ok = want is None and v == ""
            else:
                ok = abs(float(v) - want) <= 1e-8 * max(abs(want), 1e-300)
            if not ok:
                problems.append("%s:%d: %s is %r, the report of its layout says %r" %
                                (path, i, k, v, want))
            checked += 1
    if not checked:
        problems.append("%s: no row that fits to check" % path)
    for p in problems:
        print(p)
    print("scaling: %d values of %d rows agree with their report" % (checked, len(rows))
          if not problems else "scaling: %d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
