#!/usr/bin/env python3
"""Dependent-launch A/B: Auto's time with the overlap off (mode 0) and on (mode 1), per shape, from
scorecard runs named <prec>-m<mode>-p<pass>/scorecard.json under a call's folder; cuBLAS beside it and,
for BF16, the memory roofline (A, B, C moved once at COPY GB/s).
    ab.py CALLDIR PREC [COPY_GB_PER_S] [--shapes a,b,c]"""
import json, sys, glob, os, math, statistics, lzma

def load(path, key):
    out = {}
    try:
        rows = json.load(lzma.open(path) if path.endswith(".xz") else open(path))['rows']
    except (OSError, ValueError):
        return out
    for r in rows:
        if r['key'] == key or r['key'].startswith('cublas'):
            out.setdefault((r['m'], r['n'], r['k']), {})['auto' if r['key'] == key else 'cublas'] = r['ms'] * 1e3
    return out

call, prec = sys.argv[1], sys.argv[2]
copy = float(sys.argv[3]) if len(sys.argv) > 3 and not sys.argv[3].startswith('--') else None
only = None
if '--shapes' in sys.argv:
    only = [tuple(int(x) for x in s.split('x')) for s in sys.argv[sys.argv.index('--shapes') + 1].split(',')]
key = f'auto-{prec}'
runs = {}
for p in sorted(glob.glob(os.path.join(call, f"{prec}-m*-p*/scorecard.json*"))):
    tag = p.split('/')[-2]
    runs[tag] = load(p, key)
shapes = only or sorted({s for r in runs.values() for s in r}, key=lambda s: (s[0] * s[1] * s[2], s))
elem = 4 if prec == 'fp32' else 2
print(f"| shape | off µs (passes) | on µs (passes) | off ÷ on | cuBLAS µs | on ÷ cuBLAS |" + (" on ÷ roofline |" if copy else ""))
print("|---|---|---|---:|---:|---:|" + ("---:|" if copy else ""))
gains, vs = [], []
for s in shapes:
    off = [r[s]['auto'] for t, r in runs.items() if '-m0-' in t and s in r and 'auto' in r[s]]
    on = [r[s]['auto'] for t, r in runs.items() if '-m1-' in t and s in r and 'auto' in r[s]]
    cub = [r[s]['cublas'] for r in runs.values() if s in r and 'cublas' in r[s]]
    if not off or not on:
        continue
    g = min(off) / min(on)
    gains.append(g)
    c = statistics.median(cub) if cub else float('nan')
    vs.append(c / min(on))
    row = f"| {s[0]}×{s[1]}×{s[2]} | {' / '.join(f'{x:.1f}' for x in off)} | {' / '.join(f'{x:.1f}' for x in on)} | {g:.3f} | {c:.1f} | {c / min(on):.3f} |"
    if copy:
        roof = (elem * (s[0] * s[2] + s[2] * s[1]) + 4 * s[0] * s[1]) / (copy * 1e3)
        row += f" {roof / min(on):.3f} |"
    print(row)
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v))
print(f"\nGeometric mean over {len(gains)} shapes (best of the passes): off ÷ on {gm(gains):.3f} "
      f"(range {min(gains):.3f}–{max(gains):.3f}); Auto ÷ cuBLAS with the overlap {gm(vs):.3f}.")
