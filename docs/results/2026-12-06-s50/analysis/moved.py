#!/usr/bin/env python3
"""Call 2's moved BF16 picks: the pick before Auto priced the overlap (0beeb7b, reverted) and with it,
each timed by name where the `slices` bin could run it (non-split kernels refuse a slice count), and
the new Auto, beside cuBLAS. picks-*.csv: tc_plans' Auto rows (m,n,k,precision,kernel,splits,µs,…).
    moved.py CALL2_DIR"""
import glob, json, lzma, os, sys

def picks(path):
    out = {}
    for line in open(path):
        f = line.strip().split(',')
        if f[3] == 'bf16':
            out[(int(f[0]), int(f[1]), int(f[2]))] = (f[4], int(f[5]), float(f[6]))
    return out

here = os.path.dirname(os.path.abspath(__file__))
old, new = picks(os.path.join(here, 'picks-before-price.csv')), picks(os.path.join(here, 'picks-with-price.csv'))
print("| shape | before: pick, priced / measured µs | with the price: pick, priced / measured µs | new `Auto` µs | cuBLAS µs |")
print("|---|---|---|---:|---:|")
for p in sorted(glob.glob(os.path.join(sys.argv[1], 'moved-*.jsonl*'))):
    d = json.loads((lzma.open(p, 'rt') if p.endswith('.xz') else open(p)).readline())
    s = (d['m'], d['n'], d['k'])
    o, n = old[s], new[s]
    t = lambda pick: d.get(f"{pick[0]}_x{pick[1]}", {}).get('ms')
    f = lambda x: f"{x * 1e3:.1f}" if x else "—"
    print(f"| {s[0]}×{s[1]}×{s[2]} | {o[0]} ×{o[1]}, {o[2]:.1f} / {f(t(o))} | {n[0]} ×{n[1]}, {n[2]:.1f} / {f(t(n))} | {f(d['tessera_auto']['ms'])} | {f(d['cublas']['ms'])} |")
