#!/usr/bin/env python3
"""Writes the PLANS.csv that scripts/fit-few-16.py reads (m,n,k,precision,label,splits) from scorecard
runs' own plans (each row's `plan`: the grid its launch had; splits = the grid's z).

    python3 plans_from_rows.py RUN_DIR... > plans.csv
"""
import json, lzma, os, re, sys

def load(d):
    """A run's scorecard.json, or its .xz."""
    path = f"{d}/scorecard.json"
    return json.load(open(path) if os.path.exists(path) else lzma.open(path + ".xz"))


print("m,n,k,precision,label,splits")
for d in sys.argv[1:]:
    for r in load(d)["rows"]:
        g = re.search(r"grid (\d+)×(\d+)×(\d+)", r.get("plan") or "")
        if g and r["key"].startswith("few-"):
            print(f"{r['m']},{r['n']},{r['k']},{r['precision']},{r['key']},{g.group(3)}")
