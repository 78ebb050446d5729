#!/usr/bin/env python3
"""Oracle for Larder's JSON Schema validator: python's jsonschema (draft 2020-12, formats asserted).

  python3 scripts/jsonschema-oracle.py SCHEMAS.json DOCS.ndjson
SCHEMAS.json is a list of schemas; each DOCS line is {"s": schema index, "d": document}.
Prints one line: a 1 (valid) or 0 (invalid) per document, in order. The first line of output
lists the formats python can check (the others are not asserted by it).
"""
import json, sys
from jsonschema import Draft202012Validator as V

schemas = json.load(open(sys.argv[1], encoding="utf-8"))
validators = [V(s, format_checker=V.FORMAT_CHECKER) for s in schemas]
print(",".join(sorted(V.FORMAT_CHECKER.checkers)))
out = []
with open(sys.argv[2], encoding="utf-8") as f:
    for line in f:
        item = json.loads(line)
        out.append("1" if validators[item["s"]].is_valid(item["d"]) else "0")
print("".join(out))
