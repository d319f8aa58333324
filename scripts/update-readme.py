#!/usr/bin/env python3
"""Rewrites README.md's results section (between the results:begin/end markers) from a committed run.

Usage: scripts/update-readme.py docs/results/<run>/
The run folder must hold scorecard.md (the scorecard's own table) and device.txt; roofline.svg is
linked when present. Nothing in the section is typed by hand.
"""
import pathlib
import re
import sys

run = pathlib.Path(sys.argv[1])
readme = pathlib.Path(__file__).resolve().parent.parent / "README.md"
table = (run / "scorecard.md").read_text().strip()
device = (run / "device.txt").read_text().splitlines()
commit = next((l.split(":", 1)[1].strip() for l in device if l.startswith("commit:")), "?")
date = device[1].strip() if len(device) > 1 else "?"
section = [f"From `{run.as_posix()}` (commit {commit}, {date}; regenerate with `scripts/update-readme.py {run.as_posix()}`).", "", table]
if (run / "roofline.svg").exists():
    section += ["", f"![roofline]({(run / 'roofline.svg').as_posix()})"]
text = readme.read_text()
new = re.sub(r"(<!-- results:begin -->\n).*?(<!-- results:end -->)", lambda m: m.group(1) + "\n".join(section) + "\n" + m.group(2), text, flags=re.S)
if new == text and "<!-- results:begin -->" not in text:
    sys.exit("README.md has no results markers")
readme.write_text(new)
print(f"README.md results section rewritten from {run}")
