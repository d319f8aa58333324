"""What a model's `Auto` would run, timed by name in a scorecard run.

    python3 auto_pick.py RUN_DIR PLANS_CSV

For each shape and precision: `tc_plans`'s pick (column `auto`), its time measured by name in
RUN_DIR (when that kernel ran there), the `Auto` that ran, and the fastest named kernel."""
import csv, json, lzma, math, os, sys

run, plans = sys.argv[1], sys.argv[2]
rows = json.load(open(f"{run}/scorecard.json") if os.path.exists(f"{run}/scorecard.json") else lzma.open(f"{run}/scorecard.json.xz"))["rows"]
t = {}
for r in rows:
    if r.get("check") == "ok" and r.get("ms"):
        t[(r["m"], r["n"], r["k"], r["precision"], r["key"].split(" ")[0])] = r["ms"] * 1e3
pick = {}
for r in csv.DictReader(open(plans)):
    if r["auto"] == "1":
        pick[(int(r["m"]), int(r["n"]), int(r["k"]), r["precision"])] = r["kernel"]
print("| shape | precision | new pick | its µs | Auto ran µs | fastest named | µs | pick ÷ fastest |")
print("|---|---|---|---:|---:|---|---:|---:|")
logs = []
for (m, n, k, p), kern in sorted(pick.items()):
    named = {key[4]: us for key, us in t.items() if key[:4] == (m, n, k, p) and not key[4].startswith(("auto", "cublas"))}
    auto = next((us for key, us in t.items() if key[:4] == (m, n, k, p) and key[4].startswith("auto")), None)
    if not named:
        continue
    best = min(named, key=named.get)
    mine = named.get(kern)
    if mine is not None:
        logs.append(math.log(mine / named[best]))
    f = lambda x: f"{x:.1f}" if x is not None else "—"
    print(f"| {m}×{n}×{k} | {p} | {kern} | {f(mine)} | {f(auto)} | {best} | {named[best]:.1f} | {f(mine / named[best]) if mine else '—'} |")
if logs:
    print(f"\n{len(logs)} picks timed: geomean pick ÷ fastest named {math.exp(sum(logs) / len(logs)):.3f}")
