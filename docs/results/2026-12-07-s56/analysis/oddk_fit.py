"""Model against measured for the in-place tensor-core kernels named in a scorecard run.

    python3 oddk_fit.py RUN_DIR PLANS_CSV [--label X]

RUN_DIR's rows carry the time measured and `expected_us` (the model of the binary that ran);
PLANS_CSV is `tc_plans`'s output for the same shapes from the model under test. Prints each
in-place kernel's measured, old and new predictions, and the median |log error| of each."""
import csv, json, lzma, math, os, statistics, sys

run, plans = sys.argv[1], sys.argv[2]
rows = json.load(open(f"{run}/scorecard.json") if os.path.exists(f"{run}/scorecard.json") else lzma.open(f"{run}/scorecard.json.xz"))["rows"]
new = {}
for r in csv.DictReader(open(plans)):
    new[(int(r["m"]), int(r["n"]), int(r["k"]), r["precision"], r["kernel"])] = float(r["predicted_us"])
print("| shape | precision | kernel | measured µs | old model | new model |")
print("|---|---|---|---:|---:|---:|")
err_old, err_new = [], []
for r in rows:
    key = r["key"]
    if not key.startswith("mma-splitk") or r.get("check") != "ok":
        continue
    k = (r["m"], r["n"], r["k"], r["precision"], key)
    if k not in new:
        continue
    us = r["ms"] * 1e3
    old, nw = r["expected_us"], new[k]
    err_old.append(abs(math.log(old / us)))
    err_new.append(abs(math.log(nw / us)))
    print(f"| {r['size']} | {r['precision']} | {key} | {us:.1f} | {old:.1f} | {nw:.1f} |")
print(f"\n{len(err_new)} launches: median |log error| old {statistics.median(err_old):.3f}, new {statistics.median(err_new):.3f}; "
      f"mean old {statistics.mean(err_old):.3f}, new {statistics.mean(err_new):.3f}")
