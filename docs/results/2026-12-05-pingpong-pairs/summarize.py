"""Prints this folder's tables from the call's JSON lines (python3 summarize.py)."""
import json, os, sys

D = sys.argv[1] if len(sys.argv) > 1 else "call1"


def lines(name):
    p = os.path.join(D, name)
    return [json.loads(l) for l in open(p) if l.strip()] if os.path.exists(p) else []


def tf(r, k):
    v = r.get(k)
    if isinstance(v, dict):
        v = v.get("tflops")
    return float("nan") if v is None else v


print("### Fused epilogue: bias + GELU into BF16 (TFLOP/s)\n")
torch = {(r["m"], r["n"], r["k"]): r for r in lines("fused-torch.jsonl")}
old = {(r["m"], r["n"], r["k"]): r for r in lines("fused-old.jsonl")}
cols = ["tessera_gelu_bf16", "fused-bf16-128x256", "fused-bf16-128x192", "fused-bf16-128x128", "pingpong-bf16-64x256", "pingpong-bf16-128x128"]
print("| shape | `Auto` | 128×256 | 128×192 | 128×128 | ping-pong 64×256 | ping-pong 128×128 | ping-pong 64×256, hand-over at completion | identity→BF16 | plain `Auto` (f32) | cuBLAS (f32) | torch `_addmm_activation` | torch `mm` | best GELU ÷ plain | best GELU ÷ torch fused |")
print("|---|" + "---:|" * 14)
for r in lines("fused.jsonl"):
    key = (r["m"], r["n"], r["k"])
    t, o = torch.get(key, {}), old.get(key, {})
    best = max(tf(r, c) for c in cols)
    fused_torch = t.get("addmm_gelu_tflops", float("nan"))
    print(f"| {key[0]}×{key[1]}×{key[2]} | " + " | ".join(f"{tf(r, c):.0f}" for c in cols)
          + f" | {tf(o, 'pingpong-bf16-64x256'):.0f} | {tf(r, 'tessera_bf16_out'):.0f} | {tf(r, 'tessera_plain'):.0f} | {tf(r, 'cublas'):.0f} | "
          f"{fused_torch:.0f} | {t.get('mm_tflops', float('nan')):.0f} | {best / tf(r, 'tessera_plain'):.3f} | {best / fused_torch:.3f} |")

print("\n### FP8 E4M3, per-tensor and block scales (TFLOP/s, f32 out)\n")
torch = {(r["m"], r["n"], r["k"]): r for r in lines("fp8-torch-e4m3.jsonl")}
print("| shape | `Auto` | pairs | cuBLASLt | `Auto` ÷ cuBLASLt | pairs ÷ cuBLASLt | blocks | blocks, pairs | blocks ÷ `Auto` | blocks pairs ÷ `Auto` | torch `_scaled_mm` (BF16) |")
print("|---|" + "---:|" * 10)
for r in lines("fp8-e4m3.jsonl"):
    t = torch.get((r["m"], r["n"], r["k"]), {})
    tt = next((v for k, v in t.items() if k.endswith("tflops")), float("nan"))
    a, pr, lt, b, bp = (r.get(f"{x}_tflops", float("nan")) for x in ["tessera_auto", "tessera_pairs", "cublaslt", "tessera_blocks", "tessera_blocks_pairs"])
    print(f"| {r['m']}×{r['n']}×{r['k']} | {a:.0f} | {pr:.0f} | {lt:.0f} | {a / lt:.3f} | {pr / lt:.3f} | {b:.0f} | {bp:.0f} | {b / a:.3f} | {bp / a:.3f} | {tt:.0f} |")

print("\n### Batched and grouped, BF16 (TFLOP/s)\n")
torch = lines("grouped-torch-bf16.jsonl")
rows = lines("grouped-bf16.jsonl")
names = sorted({k for r in rows for k in r["times"] if k.startswith("tessera_") and k != "tessera_auto"})
print("| product | `Auto` | " + " | ".join(n.removeprefix("tessera_") for n in names) + " | cuBLAS | torch | `Auto` ÷ torch | best ÷ torch |")
print("|---|" + "---:|" * (len(names) + 5))
seen = {}
for r in rows:
    t = r["times"]
    if r["kind"] == "batched":
        name = f"{r['count']} × {r['m']}×{r['n']}×{r['k']}"
        anchor = tf(t, "cublas")
        tt = [x for x in torch if x["kind"] == "batched" and x["count"] == r["count"] and x["m"] == r["m"] and x["n"] == r["n"] and x["k"] == r["k"]]
        ref = tt[0]["bmm_tflops"] if tt else float("nan")
    else:
        key = (r["n"], r["k"]); i = seen.get(key, 0); seen[key] = i + 1
        tt = [x for x in torch if x["kind"] == "grouped" and x["n"] == r["n"] and x["k"] == r["k"]]
        tt = tt[i] if i < len(tt) else {}
        name = f"{r['groups']} groups, {r['m']} rows, N {r['n']}, K {r['k']}"
        anchor = tf(t, "cublas_loop")
        ref = tt.get("grouped_mm_tflops") or tt.get("mm_loop_tflops") or float("nan")
    best = max(tf(t, n) for n in names if n in t)
    print(f"| {name} | {tf(t, 'tessera_auto'):.1f} | " + " | ".join(f"{tf(t, n):.1f}" for n in names) + f" | {anchor:.1f} | {ref:.1f} | {tf(t, 'tessera_auto') / ref:.2f} | {best / ref:.2f} |")

p = os.path.join(D, "plain", "scorecard.json")
if os.path.exists(p):
    print("\n### Plain BF16 products, `f32` out (TFLOP/s; scorecard, cuBLAS in the same process)\n")
    d = json.load(open(p))
    by = {}
    for r in d["rows"]:
        by.setdefault(r["size"], {})[r["key"]] = r["gflops"] / 1e3
    keys = ["auto-bf16", "persistent-bf16-128x256", "persistent-bf16-128x128", "pingpong-plain-bf16-64x256", "pingpong-plain-bf16-128x128"]
    print("| shape | " + " | ".join(keys) + " | cuBLAS |")
    print("|---|" + "---:|" * (len(keys) + 1))
    for size, v in by.items():
        cub = next((x for k, x in v.items() if k.startswith("cublas")), float("nan"))
        print(f"| {size} | " + " | ".join(f"{v.get(k, float('nan')):.0f}" for k in keys) + f" | {cub:.0f} |")
