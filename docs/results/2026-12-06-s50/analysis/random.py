#!/usr/bin/env python3
"""Auto ÷ cuBLAS (same precision, same process) on a scorecard run's random shapes: geometric mean,
the lowest, the shapes below 0.70, and Auto ÷ the tuned-on-request run (a run cut off by its limit: the rows it wrote).
    random.py SCORECARD_DIR..."""
import json, lzma, math, sys

for d in sys.argv[1:]:
    path = d + '/scorecard.json'
    try:
        rows = json.load(open(path))['rows']
    except OSError:
        try:
            rows = json.load(lzma.open(path + '.xz'))['rows']
        except OSError:  # a run cut off by its time limit: the rows it wrote
            rows = [json.loads(l) for l in open(d + '/rows.jsonl')]
    by = {}
    for r in rows:
        by.setdefault((r['precision'], r['m'], r['n'], r['k']), {})[r['key']] = r['ms']
    for prec in sorted({k[0] for k in by}):
        ratios, tuned, lows = [], [], []
        for (p, m, n, k), v in by.items():
            if p != prec or (m, n, k) == (4096, 4096, 4096):
                continue
            auto, cub = v.get(f'auto-{prec}'), next((x for kk, x in v.items() if kk.startswith('cublas')), None)
            if not auto or not cub:
                continue
            ratios.append(cub / auto)
            if f'auto-{prec}-tuned' in v:
                tuned.append(cub / v[f'auto-{prec}-tuned'])
            if cub / auto < 0.70:
                lows.append(f"{m}×{n}×{k} {cub / auto:.2f} ({auto * 1e3:.1f} µs, cuBLAS {cub * 1e3:.1f})")
        if not ratios:
            continue
        gm = lambda v: math.exp(sum(map(math.log, v)) / len(v))
        print(f"{d} {prec}: {len(ratios)} shapes, Auto ÷ cuBLAS {gm(ratios):.3f} (lowest {min(ratios):.3f})"
              + (f", tuned {gm(tuned):.3f}" if tuned else "") + (f"; below 0.70: {'; '.join(lows)}" if lows else ""))
