#!/usr/bin/env python3
"""Checks gpuplan's --json outputs against tests/schema/gpuplan.schema.json, with the
standard library only.

    check_json.py SCHEMA MANPAGE [--x-keys KIND=FILE]... [--fields FILE] [NAME=FILE]...

Each NAME=FILE is one output: FILE is checked against the definition NAME of the
schema's $defs ("gpuplan.report/1"). The schema is JSON Schema-like, a small subset:
type (a name or a list: object, array, string, integer, number, boolean, null),
properties, items, enum, const, minimum, $ref ("#/$defs/NAME"), additionalProperties
(false by default: a key the schema does not name fails, so an undocumented key cannot
creep in) and, unlike JSON Schema, required by default: every property is required
unless named in "optional". "x-keys": KIND on a map (additionalProperties a schema)
checks its keys against the lines of the FILE given by --x-keys KIND=FILE. "x-field": KEY
on a value of a scenario field (search's layouts) checks it against that field's choices
in the field table, as `gpuplan fields` prints it (--fields FILE): the schema holds no copy
of a field's names, and a new choice needs no edit here.

It also checks the schema against the man page: each top-level definition with "x-man":
[START, END] names, by two regular expressions, the part of MANPAGE (from the first line
matching START to the next one matching END) in which every property name of that
definition, and of the definitions it refers to, must appear as a word. So a key the
program writes must be in the schema (or the check fails), and a key in the schema must
be in the man page.

Exits 0 when every file and the schema pass, 1 otherwise, with one line a problem.
"""
import json
import re
import sys

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
KNOWN = {"type", "properties", "items", "enum", "const", "minimum", "$ref", "optional",
         "additionalProperties", "x-man", "x-keys", "x-field", "$comment"}


class Checker:
    def __init__(self, schema, xkeys, fields):
        self.defs = schema["$defs"]
        self.xkeys = xkeys
        self.fields = fields  # key -> its choices (None: not a choice field)
        self.problems = []

    def resolve(self, s):
        seen = 0
        while "$ref" in s:
            ref = s["$ref"]
            if not ref.startswith("#/$defs/") or ref[8:] not in self.defs:
                raise KeyError("bad $ref %r" % ref)
            s = self.defs[ref[8:]]
            seen += 1
            if seen > 20:
                raise KeyError("$ref loop at %r" % ref)
        return s

    def fail(self, where, what):
        self.problems.append("%s: %s" % (where or "(top)", what))

    def check(self, s, v, where):
        s = self.resolve(s)
        for k in s:
            if k not in KNOWN:
                raise KeyError("schema keyword %r not understood" % k)
        if "const" in s and v != s["const"]:
            self.fail(where, "is %r, expected %r" % (v, s["const"]))
            return
        if "enum" in s and v not in s["enum"]:
            self.fail(where, "is %r, expected one of %s" % (v, ", ".join(map(str, s["enum"]))))
            return
        if "x-field" in s:
            key = s["x-field"]
            if self.fields is None:
                self.fail(where, "x-field %s: no field table given (--fields)" % key)
                return
            if not self.fields.get(key):
                self.fail(where, "x-field %s: not a field with choices in the table" % key)
                return
            text = ("true" if v else "false") if isinstance(v, bool) else str(v)
            if text not in self.fields[key]:
                self.fail(where, "is %r, expected one of %s (%s)" %
                          (v, ", ".join(self.fields[key]), key))
                return
        if "type" in s:
            types = s["type"] if isinstance(s["type"], list) else [s["type"]]
            if not any(TYPES[t](v) for t in types):
                self.fail(where, "is %s %r, expected %s" %
                          (type(v).__name__, v if not isinstance(v, (dict, list)) else "...",
                           " or ".join(types)))
                return
        if "minimum" in s and TYPES["number"](v) and v < s["minimum"]:
            self.fail(where, "is %r, below the minimum %r" % (v, s["minimum"]))
        if isinstance(v, dict) and ("properties" in s or "additionalProperties" in s):
            props = s.get("properties", {})
            optional = set(s.get("optional", []))
            for k in props:
                if k not in v and k not in optional:
                    self.fail(where, "required key %r missing" % k)
            extra = s.get("additionalProperties", False)
            for k, x in v.items():
                path = "%s.%s" % (where, k) if where else k
                if k in props:
                    self.check(props[k], x, path)
                elif extra is False:
                    self.fail(path, "key not in the schema (undocumented)")
                else:
                    kind = s.get("x-keys")
                    if kind in self.xkeys and k not in self.xkeys[kind]:
                        self.fail(path, "key is not a %s" % kind)
                    self.check(extra, x, path)
        if isinstance(v, list) and "items" in s:
            for i, x in enumerate(v):
                self.check(s["items"], x, "%s[%d]" % (where, i))


def names(checker, s, out, seen):
    """Every property name of s and of what it refers to (not of other x-man definitions)."""
    if "$ref" in s:
        target = s["$ref"][8:]
        if target in seen:
            return
        seen.add(target)
        t = checker.defs[target]
        if "x-man" in t:
            return  # documented in its own part of the page
        names(checker, t, out, seen)
        return
    for k, sub in s.get("properties", {}).items():
        out.add(k)
        names(checker, sub, out, seen)
    for key in ("items", "additionalProperties"):
        if isinstance(s.get(key), dict):
            names(checker, s[key], out, seen)


def man_text(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    return lines


def man_part(lines, start, end):
    for i, l in enumerate(lines):
        if re.search(start, l):
            for j in range(i + 1, len(lines)):
                if re.search(end, lines[j]):
                    return lines[i:j]
            return lines[i:]
    return None


def plain(text):
    text = text.replace("\\-", "-").replace("\\(dq", '"').replace("\\&", "")
    return re.sub(r"\\f[BIRP]", "", text)


def check_man(checker, lines):
    bad = []
    for name, d in checker.defs.items():
        if "x-man" not in d:
            continue
        part = man_part(lines, *d["x-man"])
        if part is None:
            bad.append("schema %s: x-man: no line of the man page matches %r" % (name, d["x-man"][0]))
            continue
        text = plain("\n".join(part))
        want = set()
        names(checker, d, want, set())
        for k in sorted(want):
            if not re.search(r"(?<![A-Za-z0-9_])\.?%s(?![A-Za-z0-9_])" % re.escape(k), text):
                bad.append("schema %s: key %r is not in man/gpuplan.1 between %r and %r" %
                           (name, k, d["x-man"][0], d["x-man"][1]))
    return bad


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    schema = json.load(open(argv[1], encoding="utf-8"))
    lines = man_text(argv[2])
    xkeys = {}
    fields = None
    files = []
    args = argv[3:]
    while args:
        a = args.pop(0)
        if a == "--x-keys":
            kind, _, f = args.pop(0).partition("=")
            xkeys[kind] = set(l.strip() for l in open(f, encoding="utf-8") if l.strip())
        elif a == "--fields":
            fields = {}
            for l in open(args.pop(0), encoding="utf-8"):
                col = l.rstrip("\n").split("\t")
                if len(col) >= 4:
                    fields[col[0]] = None if col[3] == "-" else col[3].split(",")
        else:
            name, _, f = a.partition("=")
            files.append((name, f))
    checker = Checker(schema, xkeys, fields)
    problems = check_man(checker, lines)
    for name, f in files:
        if name not in checker.defs:
            problems.append("%s: no definition %r in the schema" % (f, name))
            continue
        try:
            doc = json.load(open(f, encoding="utf-8"))
        except (OSError, ValueError) as e:
            problems.append("%s: not JSON: %s" % (f, e))
            continue
        checker.problems = []
        checker.check({"$ref": "#/$defs/" + name}, doc, "")
        problems += ["%s (%s): %s" % (f, name, p) for p in checker.problems]
    for p in problems:
        print("FAIL: " + p)
    print("schema: %d files checked, %d problems" % (len(files), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
