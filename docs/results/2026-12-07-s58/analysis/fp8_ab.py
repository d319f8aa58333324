#!/usr/bin/env python3
"""FP8 A/B of one call: the `fp8` bin of a branch (`new-*.jsonl`) and of main (`main-*.jsonl`), run
interleaved in one lease. Each implementation's time per shape is its fastest over the runs of its
binary; cuBLASLt (promoted, f32 out) is the median of all runs. Prints a Markdown table.

    python3 fp8_ab.py DIR [--label-new X --label-main Y]
"""
import argparse, glob, json, math, os, statistics

KEYS = [("tessera_auto_us", "Auto"), ("tessera_blocks_us", "blocks"), ("tessera_pairs_us", "pairs"),
        ("tessera_auto_bf16_us", "Auto BF16"), ("tessera_gelu_bf16_us", "GELU BF16")]


def load(pattern):
    rows = {}
    for f in sorted(glob.glob(pattern)):
        for line in open(f):
            line = line.strip()
            if not line:
                continue
            r = json.loads(line)
            rows.setdefault((r["m"], r["n"], r["k"]), []).append(r)
    return rows


def best(rs, key):
    v = [r[key] for r in rs if r.get(key) is not None]
    return min(v) if v else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--label-new", default="new")
    ap.add_argument("--label-main", default="main")
    a = ap.parse_args()
    new, old = load(os.path.join(a.dir, "new-*.jsonl")), load(os.path.join(a.dir, "main-*.jsonl"))
    shapes = [s for s in new if s in old]
    print(f"| shape | " + " | ".join(f"{lab}: {a.label_main} → {a.label_new} µs (×)" for _, lab in KEYS) + " | cuBLASLt µs | Auto ÷ cuBLASLt, main → new |")
    print("|---|" + "---:|" * (len(KEYS) + 2))
    ratios = {lab: [] for _, lab in KEYS}
    over = {"main": [], "new": []}
    for s in shapes:
        cells = []
        for key, lab in KEYS:
            o, n = best(old[s], key), best(new[s], key)
            if o and n:
                ratios[lab].append(o / n)
                cells.append(f"{o:.1f} → {n:.1f} ({o / n:.3f})")
            else:
                cells.append("–")
        lt = [r["cublaslt_us"] for r in new[s] + old[s] if r.get("cublaslt_us")]
        if lt:
            c = statistics.median(lt)
            o, n = best(old[s], "tessera_auto_us"), best(new[s], "tessera_auto_us")
            over["main"].append(c / o); over["new"].append(c / n)
            tail = f"{c:.1f} | {c / o:.3f} → {c / n:.3f}"
        else:
            tail = "– (no cuBLASLt FP8 algorithm) | –"
        print(f"| {s[0]}×{s[1]}×{s[2]} | " + " | ".join(cells) + f" | {tail} |")
    gm = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
    print()
    print("Geometric mean main ÷ new: " + ", ".join(f"{lab} {gm(v):.3f} ({len(v)})" for lab, v in ratios.items()))
    print(f"`Auto` ÷ cuBLASLt where it runs ({len(over['new'])}): main {gm(over['main']):.3f} → new {gm(over['new']):.3f}")


if __name__ == "__main__":
    main()
