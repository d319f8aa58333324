"""Call D: the in-place kernels by name, main against branch s56-shifted-rows, one line a shape.

    python3 shifted_ab.py ../d-a9e9b7b"""
import json, lzma, os, sys

def load(d):
    p = f"{d}/scorecard.json"
    j = json.load(open(p) if os.path.exists(p) else lzma.open(p + ".xz"))
    return {(r["size"], r["key"]): r["ms"] * 1e3 for r in j["rows"] if r.get("ms")}

KERNELS = ["mma-splitk-bf16-16x128", "mma-splitk-bf16-64x128", "mma-splitk-bf16-128x32", "mma-splitk-bf16-128x64", "tma-bf16-64x128", "auto-bf16", "cublas-bf16"]
root = sys.argv[1]
for s in ["tune", "held"]:
    a, b = load(f"{root}/{s}-scorecard"), load(f"{root}/{s}-scorecard-shift")
    print(f"\n## {s}: µs, main 57e44da → branch a9e9b7b (BF16, H100)\n")
    print("| shape | " + " | ".join(k.replace("mma-splitk-bf16-", "k20 ").replace("-bf16", "") for k in KERNELS) + " |")
    print("|---|" + "---:|" * len(KERNELS))
    for sz in sorted({k[0] for k in a}, key=lambda x: [int(v) for v in x.split("×")]):
        cells = [f"{a[(sz, k)]:.1f} → {b[(sz, k)]:.1f}" if (sz, k) in a and (sz, k) in b else "—" for k in KERNELS]
        print(f"| {sz} | " + " | ".join(cells) + " |")
