"""Prints this folder's tables from the calls' JSON lines (python3 summarize.py)."""
import json, glob, math

def lines(path):
    return [json.loads(l) for l in open(path) if l.strip()]

print("### Fused epilogue (call1, BF16, TFLOP/s)\n")
print("| shape | GELU→BF16 `Auto` | 128×256 | 128×192 | 128×128 | identity→BF16 | plain `Auto` (f32) | cuBLAS (f32) | torch `_addmm_activation` (GELU, BF16) | torch `mm` (BF16) | GELU cost over plain | GELU ÷ torch fused |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
torch = {(r["m"], r["n"], r["k"]): r for r in lines("call1-b271e6c/fused-torch.jsonl")}
for r in lines("call1-b271e6c/fused.jsonl"):
    t = torch[(r["m"], r["n"], r["k"])]
    f = lambda k: r[k]["tflops"]
    print(f"| {r['m']}×{r['n']}×{r['k']} | {f('tessera_gelu_bf16'):.0f} | {f('fused-bf16-128x256'):.0f} | {f('fused-bf16-128x192'):.0f} | {f('fused-bf16-128x128'):.0f} | "
          f"{f('tessera_bf16_out'):.0f} | {f('tessera_plain'):.0f} | {f('cublas'):.0f} | {t['addmm_gelu_tflops']:.0f} | {t['mm_tflops']:.0f} | "
          f"+{100 * r['epilogue_cost']:.0f} % | {f('tessera_gelu_bf16') / t['addmm_gelu_tflops']:.2f} |")

for p in ["bf16", "f32"]:
    print(f"\n### Batched and grouped, {p.upper()} (call1, TFLOP/s)\n")
    torch = lines(f"call1-b271e6c/grouped-torch-{p}.jsonl")
    print("| product | `Auto` | best tile | cuBLAS (batched / a loop) | torch `bmm` / `_grouped_mm` | torch loop of `mm` | `Auto` ÷ cuBLAS | `Auto` ÷ torch |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    grouped_seen = {}
    for r in lines(f"call1-b271e6c/grouped-{p}.jsonl"):
        t = r["times"]
        auto = t["tessera_auto"]["tflops"]
        tiles = {k: v["tflops"] for k, v in t.items() if k.startswith("tessera_") and k != "tessera_auto"}
        best = max(tiles, key=tiles.get)
        if r["kind"] == "batched":
            name = f"{r['count']} × {r['m']}×{r['n']}×{r['k']}"
            anchor = t["cublas"]["tflops"]
            tt = [x for x in torch if x["kind"] == "batched" and x["count"] == r["count"] and x["k"] == r["k"] and x["m"] == r["m"]][0]
            torch_fast, loop = tt["bmm_tflops"], None
        else:
            key = (r["n"], r["k"])
            i = grouped_seen.get(key, 0)
            grouped_seen[key] = i + 1
            tt = [x for x in torch if x["kind"] == "grouped" and x["n"] == r["n"] and x["k"] == r["k"]][i]
            name = f"{tt['groups']} groups, {r['m']} rows, N {r['n']}, K {r['k']}"
            anchor = t["cublas_loop"]["tflops"]
            torch_fast, loop = tt.get("grouped_mm_tflops"), tt.get("mm_loop_tflops")
        ref = torch_fast if torch_fast else loop
        print(f"| {name} | {auto:.1f} | {best.removeprefix('tessera_')} {tiles[best]:.1f} | {anchor:.1f} | {torch_fast or float('nan'):.1f} | "
              f"{loop or float('nan'):.1f} | {auto / anchor:.2f} | {auto / ref:.2f} |")

print("\n### FP8 E4M3 (call2, per-tensor scales)\n")
torch = {(r["m"], r["n"], r["k"]): r for r in lines("call2-b271e6c/fp8-torch-e4m3.jsonl")}
print("| shape | `Auto` (f32) TFLOP/s | cuBLASLt (f32) | `Auto` ÷ cuBLASLt | block-scaled ÷ `Auto` | `Auto` BF16 ÷ cuBLASLt BF16 | torch `_scaled_mm` (BF16) |")
print("|---|---:|---:|---:|---:|---:|---:|")
for r in lines("call2-b271e6c/fp8-e4m3.jsonl") + lines("call2-b271e6c/fp8-random-seed2.jsonl"):
    t = torch.get((r["m"], r["n"], r["k"]), {})
    tt = next((v for k, v in t.items() if k.endswith("tflops")), float("nan"))
    print(f"| {r['m']}×{r['n']}×{r['k']} | {r['tessera_auto_tflops']:.0f} | {r['cublaslt_tflops']:.0f} | {r['tessera_auto_over_cublaslt']:.3f} | "
          f"{r['tessera_blocks_over_tessera_auto']:.3f} | {r['tessera_auto_bf16_over_cublaslt_bf16']:.3f} | {tt:.0f} |")
