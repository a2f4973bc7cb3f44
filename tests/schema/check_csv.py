#!/usr/bin/env python3
"""Reads gpuplan's --csv outputs back with the csv module and checks their values.

    check_csv.py DIR KIND=CSV[:JSON]...

DIR holds fields.tsv (`gpuplan fields`), figures.tsv (`gpuplan figures`) and catalog.json
(`gpuplan catalog --json`). For every CSV: it parses (RFC 4180, as the csv module reads
it), ends with a newline, has a header of unique names and rows as long as it; a column
named by a scenario key holds that field's values as a scenario file writes them (a choice
of its list, such as optimizer+params, a catalog id, a whole number for a count, auto where
the field takes it; empty where it does not apply), and a column named by a figure a number
in SI units (or one of its words). KIND then names the command, and where JSON is given
(the same command with --json) every row is checked against it, value for value.

Exits 0 when every file passes, 1 otherwise, with one line a problem.
"""
import csv
import json
import math
import re
import sys

NUMBER = re.compile(r"^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
INTEGER = re.compile(r"^-?\d+$")
problems = []


def fail(where, what):
    problems.append("%s: %s" % (where, what))


def load_tsv(path):
    return [l.rstrip("\n").split("\t") for l in open(path, encoding="utf-8") if l.strip()]


class Tables:
    def __init__(self, d):
        self.fields = {r[0]: r for r in load_tsv(d + "/fields.tsv")}
        self.figures = {r[0]: r for r in load_tsv(d + "/figures.tsv")}
        cat = json.load(open(d + "/catalog.json", encoding="utf-8"))
        self.ids = {"gpus": {g["id"] for g in cat["gpus"]},
                    "models": {m["id"] for m in cat["models"]}}

    def check_field(self, where, key, v):
        """v as a scenario file writes field key's value (in a table: no unit suffix)."""
        _, typ, _, choices, flags = self.fields[key]
        flags = flags.split(",")
        if v == "" or (v == "auto" and "auto" in flags):
            return
        if choices.startswith("catalog:"):
            if v not in self.ids[choices[8:]]:
                fail(where, "%s=%r is not a catalog id" % (key, v))
        elif typ in ("enum", "dtype", "bool"):
            if v not in choices.split(","):
                fail(where, "%s=%r is not one of %s" % (key, v, choices))
        elif typ == "int":
            if not INTEGER.match(v):
                fail(where, "%s=%r is not a whole number" % (key, v))
        elif typ == "num":
            if not NUMBER.match(v):
                fail(where, "%s=%r is not a number" % (key, v))

    def check_figure(self, where, key, v):
        _, kind, _, _ = self.figures[key]
        if v == "":
            return
        if kind == "number":
            if not NUMBER.match(v):
                fail(where, "%s=%r is not a number in SI units" % (key, v))
        elif key == "bottleneck.binding":
            if v not in ("capacity", "compute", "hbm_bandwidth", "interconnect", "data_io"):
                fail(where, "%s=%r is not a bottleneck" % (key, v))
        elif v not in ("true", "false"):
            fail(where, "%s=%r is not true or false" % (key, v))


def read(path):
    text = open(path, encoding="utf-8", newline="").read()
    if not text.endswith("\n"):
        fail(path, "does not end with a newline")
    rows = list(csv.reader(text.splitlines(keepends=True), strict=True))
    if not rows:
        fail(path, "empty")
        return [], []
    head = rows[0]
    if len(set(head)) != len(head):
        fail(path, "a column is named twice in %s" % head)
    for i, r in enumerate(rows[1:], 2):
        if len(r) != len(head):
            fail("%s:%d" % (path, i), "%d fields, the header has %d" % (len(r), len(head)))
    if len(rows) < 2:
        fail(path, "no rows")
    return head, [dict(zip(head, r)) for r in rows[1:]]


def same(where, key, csv_value, json_value):
    """A CSV field against the JSON's value: numbers equal to 10 digits, null empty."""
    if json_value is None:
        ok = csv_value == ""
    elif isinstance(json_value, bool):
        ok = csv_value == ("true" if json_value else "false")
    elif isinstance(json_value, (int, float)):
        ok = NUMBER.match(csv_value) is not None and math.isclose(
            float(csv_value), json_value, rel_tol=1e-9, abs_tol=1e-300)
    else:
        ok = csv_value == str(json_value)
    if not ok:
        fail(where, "%s: CSV %r, JSON %r" % (key, csv_value, json_value))


def get(obj, path):
    """A value of nested objects by a dotted path, trying the longest literal key first."""
    if path in obj:
        return obj[path]
    parts = path.split(".")
    for i in range(len(parts) - 1, 0, -1):
        k = ".".join(parts[:i])
        if k in obj and isinstance(obj[k], dict):
            return get(obj[k], ".".join(parts[i:]))
    raise KeyError(path)


def check(t, kind, path, jpath):
    head, rows = read(path)
    j = json.load(open(jpath, encoding="utf-8")) if jpath else None
    names = {h: h for h in head}
    # search --scaling: every column under a scenario key or a figure's JSON key, as search
    # --csv's, but its own efficiency
    if kind == "scaling":
        for h in head:
            if h not in t.fields and h not in t.figures and h != "efficiency":
                fail(path, "column %s is neither a scenario key nor a figure" % h)
    typed = 0
    for i, r in enumerate(rows, 2):
        where = "%s:%d" % (path, i)
        for h, v in r.items():
            k = names[h]
            if k in t.fields:
                t.check_field(where, k, v)
                typed += 1
            elif k in t.figures:
                t.check_figure(where, k, v)
                typed += 1
    if kind in ("search", "scaling", "sweep", "catalog-gpus") and not typed:
        fail(path, "no column is a scenario key or a figure")

    if kind == "search":
        if len(rows) != len(j["results"]):
            fail(path, "%d rows, the JSON has %d results" % (len(rows), len(j["results"])))
        for i, (r, x) in enumerate(zip(rows, j["results"]), 2):
            same("%s:%d" % (path, i), "rank", r["rank"], i - 1)
            for h in head:
                if h == "rank" or (h.startswith("workload.") and "workload" not in x):
                    continue
                key = h.replace("workload.micro_batch", "parallel.micro_batch").replace(
                    "workload.recompute", "parallel.recompute")
                try:
                    want = get(x, key)
                except KeyError:
                    fail(path, "column %s is in no result of the JSON" % h)
                    continue
                # an auto batch: the CSV writes the scenario's value, the JSON the batch
                # the plan resolved and batch_auto true
                if h == "workload.batch" and (r[h] == "auto" or x["workload"]["batch_auto"]):
                    if (r[h] == "auto") != x["workload"]["batch_auto"]:
                        fail("%s:%d" % (path, i), "workload.batch %r but batch_auto %r" %
                             (r[h], x["workload"]["batch_auto"]))
                    continue
                # inference leaves the training layout's keys empty (gpuplan(1), search)
                if "workload" in x and r[h] == "" and h in t.fields and h not in (
                        "hardware.gpu", "hardware.count", "parallel.tp", "parallel.pp",
                        "parallel.dp", "parallel.ep"):
                    continue
                same("%s:%d" % (path, i), h, r[h], want)
    elif kind == "scaling":
        counts = [int(r["hardware.count"]) for r in rows]
        if counts[0] != 1 or any(b != 2 * a for a, b in zip(counts, counts[1:])):
            fail(path, "the GPU counts are not 1, 2, 4, ...: %s" % counts)
    elif kind.startswith("catalog-"):
        what = kind[8:]
        if [r["id"] for r in rows] != [x["id"] for x in j[what]]:
            fail(path, "the ids differ from the JSON's")
        for i, (r, x) in enumerate(zip(rows, j[what]), 2):
            for h in head:
                same("%s:%d" % (path, i), h, r[h], get(x, h))
    elif kind == "validate":
        if [r["id"] for r in rows] != [x["id"] for x in j["rows"]]:
            fail(path, "the ids differ from the JSON's")
        for i, (r, x) in enumerate(zip(rows, j["rows"]), 2):
            w = "%s:%d" % (path, i)
            for h in ("group", "source", "scenario", "figure", "unit", "measured", "predicted",
                      "error", "tolerance", "pinned"):
                same(w, h, r[h], x[h])
            for h in ("framework", "gpu", "workload", "scale"):
                same(w, h, r[h], x["tags"][h])
    elif kind == "diff":
        want = ([("verdict", v["key"], v["a"], v["b"]) for v in j["verdicts"]] +
                [("input", v["key"], v["a"], v["b"]) for v in j["inputs"]])
        got = [(r["section"], r["key"], r["a"], r["b"]) for r in rows if r["section"] != "result"]
        if got != want:
            fail(path, "the verdicts and inputs differ from the JSON's: %s" %
                 [x for x in zip(got, want) if x[0] != x[1]][:3])
        res = [r for r in rows if r["section"] == "result"]
        if [r["key"] for r in res] != [x["key"] for x in j["results"]]:
            fail(path, "the results differ from the JSON's")
        for i, (r, x) in enumerate(zip(res, j["results"])):
            for h in ("a", "b", "change", "relative"):
                same("%s: result %s" % (path, r["key"]), h, r[h], x[h])
    elif kind == "sweep":
        if len(rows) != len(j["points"]):
            fail(path, "%d rows, the JSON has %d points" % (len(rows), len(j["points"])))
        for i, (r, p) in enumerate(zip(rows, j["points"]), 2):
            w = "%s:%d" % (path, i)
            for k, v in p["inputs"].items():
                same(w, k, r[k], v)
            same(w, "valid", r["valid"], p["valid"])
            same(w, "memory.fits", r["memory.fits"], p["fits"])
            for k, v in p["figures"].items():
                same(w, k, r[k], v)
            same(w, "memory.capacity", r["memory.capacity"], p["limits"]["memory.capacity"])
            same(w, "problem", r["problem"], p["problem"] or "")
    return len(rows)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    t = Tables(argv[1])
    n = 0
    for a in argv[2:]:
        kind, _, files = a.partition("=")
        path, _, jpath = files.partition(":")
        try:
            n += check(t, kind, path, jpath or None)
        except (OSError, ValueError, KeyError, csv.Error) as e:
            fail(path, "%s: %s" % (type(e).__name__, e))
    for p in problems:
        print("FAIL: " + p)
    print("csv: %d files, %d rows, %d problems" % (len(argv) - 2, n, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
