"""Call E: the in-place kernels by name, main against the two shuffle variants of branch
s56-shifted-rows (one chunk at a time, -g1; four chunks' loads in flight, -g4).

    python3 shuffle_ab.py ../e-ae0530d"""
import json, lzma, math, os, sys

def load(d):
    p = f"{d}/scorecard.json"
    j = json.load(open(p) if os.path.exists(p) else lzma.open(p + ".xz"))
    return {(r["size"], r["key"]): r["ms"] * 1e3 for r in j["rows"] if r.get("ms")}

root = sys.argv[1]
m, g1, g4 = (load(f"{root}/odd-scorecard{s}") for s in ("", "-g1", "-g4"))
K = ["mma-splitk-bf16-16x128", "mma-splitk-bf16-64x128", "mma-splitk-bf16-128x32", "mma-splitk-bf16-128x64", "tma-bf16-64x128", "auto-bf16"]
print("| kernel | main ÷ g1, geomean (range) | main ÷ g4, geomean (range) |\n|---|---|---|")
for k in K:
    cells = []
    for g in (g1, g4):
        r = [math.log(m[x] / g[x]) for x in m if x[1] == k and x in g]
        cells.append(f"{math.exp(sum(r) / len(r)):.3f} ({math.exp(min(r)):.2f}–{math.exp(max(r)):.2f})")
    print(f"| {k} | {cells[0]} | {cells[1]} |")
print("\n| shape | " + " | ".join(k.replace("mma-splitk-bf16-", "k20 ") for k in K[:4]) + " | auto |\n|---|" + "---:|" * 5)
for sz in sorted({x[0] for x in m}, key=lambda s: [int(v) for v in s.split("×")]):
    print(f"| {sz} | " + " | ".join(f"{m[(sz, k)]:.1f} / {g1[(sz, k)]:.1f} / {g4[(sz, k)]:.1f}" for k in K[:4] + ["auto-bf16"]) + " |")
print("\nµs: main / g1 / g4 (BF16, H100, one lease).")
