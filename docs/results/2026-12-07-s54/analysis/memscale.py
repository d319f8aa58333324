"""The time model on an H100 with and without its memory terms scaled (`Target::memory_scale`): for
each shape of the H100 runs timed by name, the kernel `Auto` picks under each model where both picks
were timed, and every timed kernel's measured ÷ priced time under each. Nothing fitted: the scale is
the cards' datasheet bandwidth (3352 against 4800 GB/s).

    python3 memscale.py  (from the repository root; builds and runs the tc_plans example)
"""
import collections, csv, io, json, lzma, math, os, subprocess, sys

RUNS = [  # (folder, H100 runs timed by name)
    'docs/results/2026-12-06-s47/d-02fe438/squares-by-name',
    'docs/results/2026-12-06-s47/e-02fe438/squares-report-by-name',
    'docs/results/2026-12-07-s54/h-b7b5beb/pitch',
    'docs/results/2026-12-07-s54/h-b7b5beb/low-bf16',
    'docs/results/2026-12-07-s54/h-b7b5beb/low-tf32',
    'docs/results/2026-12-07-s54/h-b7b5beb/moved-new',
    'docs/results/2026-12-06-s47/e-02fe438/decode-by-name',
    'docs/results/2026-12-06-s47/d-02fe438/k18-held',
    'docs/results/2026-12-06-s47/d-02fe438/k18-train',
]
TUNED = 'docs/results/2026-12-06-s47/analysis/tuned-h100-s47.json.xz'  # shortlists timed by `Auto` tuned on request

def load(folder):
    for name in ('scorecard.json', 'scorecard.json.xz'):
        p = os.path.join(folder, name)
        if os.path.exists(p):
            return json.load(lzma.open(p) if p.endswith('xz') else open(p))
    sys.exit(f'{folder}: no scorecard')

meas = collections.defaultdict(dict)  # (m, n, k, precision) -> kernel -> µs
for f in RUNS:
    for r in load(f)['rows']:
        if r['ms'] and not r['key'].startswith(('cublas', 'auto')):
            meas[(r['m'], r['n'], r['k'], r['precision'])][r['key']] = r['ms'] * 1000
for r in json.load(lzma.open(TUNED)):
    meas[(r['m'], r['n'], r['k'], r['prec'])].setdefault(r['kernel'], r['meas'])

def plans(mem):
    sizes = sorted({f'{m}x{n}x{k}' for (m, n, k, p) in meas})
    precs = sorted({p for (_, _, _, p) in meas if p != 'fp32'})
    cmd = ['cargo', 'run', '-q', '--release', '-p', 'tessera-catalogue', '--example', 'tc_plans', '--',
           '--sizes', ','.join(sizes), '--precisions', ','.join(precs)] + (['--memory-gb-per-s', str(mem)] if mem else [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    price, pick = collections.defaultdict(dict), {}
    for r in csv.DictReader(io.StringIO(out)):
        key = (int(r['m']), int(r['n']), int(r['k']), r['precision'])
        price[key][r['kernel']] = float(r['predicted_us'])
        if r['auto'] == '1':
            pick[key] = r['kernel']
    return price, pick

(p0, a0), (p1, a1) = plans(None), plans(3352)
gains, moved = [], 0
print('| shape | precision | pick, H200 memory | pick, H100 memory | measured µs | old ÷ new |')
print('|---|---|---|---|---|---:|')
for key in sorted(meas):
    if key not in a0 or key not in a1 or a0[key] == a1[key]:
        continue
    moved += 1
    o, n = meas[key].get(a0[key]), meas[key].get(a1[key])
    if o and n:
        gains.append(o / n)
        print(f'| {key[0]}×{key[1]}×{key[2]} | {key[3]} | {a0[key]} | {a1[key]} | {o:.1f} → {n:.1f} | {o / n:.3f} |')
    else:
        print(f'| {key[0]}×{key[1]}×{key[2]} | {key[3]} | {a0[key]} | {a1[key]} | {o and round(o, 1)} → {n and round(n, 1)} (not both timed) | |')
print()
if gains:
    print(f'{moved} picks move; {len(gains)} with both timed: old ÷ new geometric mean {math.exp(sum(map(math.log, gains)) / len(gains)):.3f}, range {min(gains):.3f}–{max(gains):.3f}')
for label, price in (('H200 memory', p0), ('H100 memory', p1)):
    errs = [abs(math.log(us / price[key][k])) for key in meas for k, us in meas[key].items()
            if k in price.get(key, {}) and 0 < price[key][k] < float('inf')]
    errs.sort()
    print(f'{label}: {len(errs)} timed kernels, median |log(measured ÷ priced)| {errs[len(errs) // 2]:.3f}, mean {sum(errs) / len(errs):.3f}')
