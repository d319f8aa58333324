#!/usr/bin/env python3
"""Fits the constants of `Algo::Auto`'s FP32 time model (catalogue/src/select/tuning.rs) to scorecard runs.

    python3 scripts/fit-auto-model.py RUN.json[:plans.csv][:flag] ... [--hold-out 'MxNxK,...'] [--print-rust]
        [--write-table FILE] [--evaluate] [--only LABEL] [--registry FILE]

`--evaluate` skips the fit and evaluates (and writes the table for) the constants committed in
catalogue/src/select/tuning.rs; `--only LABEL` fits one kernel alone against them (kernels 18 and 19, ALONE
below, with their rows exponent and read rate; INTERIOR_PATH's, with their interior factor; any other
kernel, its five constants);
`--fit-adds` the split-K and stream-K kernels and ADDS_DEPTH_US. `--only` also takes kernel 21's stream-K
entries (`widened-streamk-*`: 16-bit inputs on the CUDA cores under kernel 17's walk, priced by the same
formula; their rows are the run's BF16/FP16 rows of that label).

Each RUN.json is a scorecard.json with every FP32 kernel on its shapes. Fitted: per kernel block_us,
step_us, overlap, unaligned (on the steps) and unaligned_stores_per_us; globally the launch, the
zeroing launch of split-K and stream-K, and their atomic adds per µs, scalar and four per v4 operation
(tuning::ATOMIC_ADDS_PER_US, ATOMIC_ADDS_V4_PER_US). Split-K rows need the split
count each launch used: from `plans.csv` (written by `cargo run -p tessera-catalogue --example plans` at
the run's commit) or, without one, the one-wave rule that preceded the model. The model here is the
same formula as `tuning::predict_us` (a Rust test checks the committed constants against the committed
calibration table). Needs numpy and scipy.

The kernels — their labels, tiles, threads, shared memory, kind of launch — and the committed constants
(every kernel's `tuning::cost` and the GPU-wide ones) are not restated here: they are the catalogue's
registry, which `cargo run -q -p tessera-catalogue --example registry` prints as JSON
(catalogue/examples/registry.rs; run in the repository root, with the caller's CARGO_TARGET_DIR).
`--registry FILE` reads a file written by that command instead (a machine without cargo; the registry
of the commit whose constants are to be evaluated or refitted).
"""
import csv, json, lzma, math, os, subprocess, sys
import numpy as np
from scipy.optimize import least_squares

# Filled from the registry by `use_registry` (main), each as it was named in tuning.rs:
# tuning::SMS, the H200's SMs the constants were measured on.
SMS = None
# Zeroing C at tuning::ZERO_GB_PER_S (the H200's measured device copy rate), in µs per 1000 bytes.
ZERO_US_PER_KB = None
# FP32 kernel label (those `tuning::cost` prices, in catalogue order) -> (bm, bn, bk, threads, shared
# bytes, registers (ptxas -v, sm_90; Cost::registers), kind): kind False (stores C), True (split-K: adds
# into zeroed C), "stream" (stream-K), "split-store" (split-K that stores C when launched with one
# slice: TileConfig::stores_unsplit)
KERNELS = {}
NAMES = []
# tuning::blocks_per_sm of each kernel (its threads, shared memory and registers): `occupancy`.
BLOCKS_PER_SM = {}
# Cost::max_rows and Cost::max_cols (tuning::is_candidate): kernel 18 competes (and is fitted) only up
# to FEW_ROWS_MAX_M rows, kernel 19 up to FEW_COLS_MAX_N columns (over several of its 4-column blocks,
# each reading A again); the others without bound.
MAX_ROWS = {}
MAX_COLS = {}
# tuning::ADDS_DEPTH_US and ADDS_DEPTH_UNALIGNED_US (set by `committed`; fitted by
# --fit-adds): the cost of a launch that adds into C per block adding into each tile (split-K's
# slices, stream-K's blocks per tile), times the tile's share of rows (min(M, BM) / BM), where N and K
# are multiples of 4 and where not.
ADDS_DEPTH_US = [0.0, 0.0]
# tuning::Cost::unroll where above 1: kernels whose K loop LLVM unrolls (kernel 1: by 4, then a
# remainder loop; host/ptx/tessera.ptx), so that a step is u iterations and each left-over iteration
# another step.
UNROLL = {}
# tuning::Cost::interior where not 1 (set by `committed`, fitted by `--only` for these kernels): the
# factor on the K-steps of the pieces kernel 17's 128×256 and 64×64 entries run through
# `k08_double_buffer::accumulate_interior`, a share of the steps tuning::interior_share prices.
INTERIOR_PATH = set()
# Kernels fitted alone (`--only NAME`) with the GPU-wide constants and every other kernel held at the
# values committed in catalogue/src/select/tuning.rs: those with a read floor (a finite Cost::read_gb_per_s,
# kernels 18 and 19); they also fit Cost::rows_exponent. The joint fit leaves their rows out.
ALONE = set()
# The wrapper of each kernel fitted alone in tuning::cost's COSTS block: `few_rows` bounds its rows
# (Cost::max_rows), `few_cols` its columns (Cost::max_cols).
WRAPPER = {}
# The kernels with a `…_by_rows` twin entry (kernel 7's `write_acc_by_rows`, launched where N % 4 != 0),
# whose epilogue writes C a row at a time through shared memory where N % 4 != 0.
BY_ROWS = set()
# Each kernel's precision (its rows in a run): "fp32", or BF16/FP16 for kernel 21's stream-K entries.
PRECISION = {}
# The committed constants: per kernel the tuple `committed` returns, the GPU-wide ones, ADDS_DEPTH_US's.
COMMITTED = ({}, ())
# Constants per kernel: block_us, step_us, overlap, unaligned (on the steps), and the rate at which the
# whole GPU writes C's outputs where N % 4 != 0 (scalar epilogue stores; not split-K: its adds are the
# global atomic rate).
NP = 5


def registry():
    """The catalogue's registry (catalogue/examples/registry.rs): the file of `--registry FILE`, else
    what `cargo run -q -p tessera-catalogue --example registry` prints in the repository root."""
    if "--registry" in sys.argv:
        with open(sys.argv[sys.argv.index("--registry") + 1]) as f:
            return json.load(f)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    command = ["cargo", "run", "-q", "-p", "tessera-catalogue", "--example", "registry"]
    try:
        out = subprocess.run(command, cwd=root, check=True, stdout=subprocess.PIPE)
    except FileNotFoundError:
        sys.exit(f"no cargo to run `{' '.join(command)}`: pass --registry FILE, a file written by it")
    return json.loads(out.stdout)


def use_registry(reg):
    """Sets the tables above from the registry: every FP32 kernel `tuning::cost` prices."""
    global SMS, ZERO_US_PER_KB, COMMITTED
    for table in (KERNELS, NAMES, BLOCKS_PER_SM, MAX_ROWS, MAX_COLS, UNROLL, INTERIOR_PATH, ALONE, WRAPPER, BY_ROWS, PRECISION):
        table.clear()
    model = reg["model"]
    SMS = model["sms"]
    ZERO_US_PER_KB = 1000.0 / (model["zero_gb_per_s"] * 1e3)
    per_kernel = {}
    for k in reg["kernels"]:
        cost, t = k["cost"], k["config"]
        # The tensor-core kernels' constants are scripts/fit-tc-small.py's; kernel 21's stream-K
        # entries are fitted here, alone (`--only`), by kernel 17's formula.
        name = k["label"]
        if cost is None or (k["precision"] != "fp32" and not (name.startswith("widened-streamk-") and t["stream_k"])):
            continue
        PRECISION[name] = k["precision"]
        kind = ("split-store" if t["stores_unsplit"] else True) if t["split_k"] else "stream" if t["stream_k"] else False
        KERNELS[name] = (t["bm"], t["bn"], t["bk"], t["threads"], t["shared_bytes"], cost["registers"], kind)
        if k["precision"] == "fp32":
            # The joint fit's kernels (the 16-bit ones only ever `--only`).
            NAMES.append(name)
        BLOCKS_PER_SM[name] = cost["blocks_per_sm"]
        MAX_ROWS[name], MAX_COLS[name] = cost["max_rows"], cost["max_cols"]
        if cost["unroll"] > 1:
            UNROLL[name] = cost["unroll"]
        if cost["interior"] != 1.0:
            INTERIOR_PATH.add(name)
        read = math.inf if cost["read_gb_per_s"] is None else cost["read_gb_per_s"] * 1e3
        if read != math.inf:
            ALONE.add(name)
            assert (cost["max_rows"] < 2**32 - 1) != (cost["max_cols"] < 2**32 - 1), f"{name}: few_rows or few_cols?"
            WRAPPER[name] = "few_rows" if cost["max_rows"] < 2**32 - 1 else "few_cols"
        if k["by_rows_entry"] is not None:
            BY_ROWS.add(name)
        # As tuning.rs's COSTS block states them: `unrolled(c(…), u)`, `interior(c(…), factor)`, or
        # `c(…)` with its rows exponent and read rate (0 and none unless `few_rows` or `few_cols`).
        e, c, q, u, w = (cost[x] for x in ("block_us", "step_us", "overlap", "unaligned", "unaligned_stores_per_us"))
        if name in UNROLL:
            per_kernel[name] = (e, c, q, u, w)
        elif name in INTERIOR_PATH:
            per_kernel[name] = (e, c, q, u, w, 0.0, math.inf, cost["interior"])
        else:
            per_kernel[name] = (e, c, q, u, w, cost["rows_exponent"], read)
    g = (model["launch_us"], model["zero_launch_us"], model["atomic_adds_per_us"], model["atomic_adds_v4_per_us"], model["store_gb_per_s"] * 1e3)
    COMMITTED = (per_kernel, g, (model["adds_depth_us"], model["adds_depth_unaligned_us"]))


def occupancy(name):
    """tuning::blocks_per_sm of the kernel (from the registry)."""
    return BLOCKS_PER_SM[name]

def old_splits(m, n, k, bm, bn):
    tiles = math.ceil(m / bm) * math.ceil(n / bn)
    return max(1, min(SMS // max(tiles, 1), k // 64))


def stream_walk(m, n, k, bm, bn, bk, blocks_at_once):
    """Kernel 17's walk (tuning::predict_stream_k): (blocks, most pieces of a block, most K-steps of a
    block, pieces that are not whole tiles, tiles)."""
    tiles = math.ceil(m / bm) * math.ceil(n / bn)
    if tiles == 0:
        return 1, 0, 0, 0, 1
    per_tile = max(1, math.ceil(k / bk))
    total = tiles * per_tile
    g = max(1, min(blocks_at_once, total))
    pieces, partial = 0, 0
    for b in range(g):
        begin, end = b * total // g, (b + 1) * total // g
        first, last = begin // per_tile, (end - 1) // per_tile
        pieces = max(pieces, last - first + 1)
        partial += int(begin % per_tile != 0 or end < (first + 1) * per_tile)
        partial += int(last > first and end % per_tile != 0)
    return g, pieces, math.ceil(total / g), partial, tiles


def candidate(name, m, n):
    """tuning::is_candidate: each kernel up to its Cost::max_rows rows and Cost::max_cols columns (kernel
    18 up to FEW_ROWS_MAX_M rows, kernel 19 up to FEW_COLS_MAX_N columns). Rows of other shapes are
    measured but neither fitted nor picked; they count for the best kernel."""
    return m <= MAX_ROWS.get(name, m) and n <= MAX_COLS.get(name, n)


def adds_into_c(kind, s):
    """Whether a launch at `s` slices adds into a zeroed C (tuning::predict's `adds`)."""
    return kind is True or kind == "stream" or (kind == "split-store" and s > 1)


def read_bytes(name, m, n, k):
    """Bytes of A and B a launch reads (tuning::read_us): A once per block column, B once per block row."""
    bm, bn = KERNELS[name][0], KERNELS[name][1]
    return 4.0 * (m * k * math.ceil(n / bn) + k * n * math.ceil(m / bm))


def interior_share(name, m, n, k):
    """tuning::interior_share: the share of a stream-K launch's K-steps in interior pieces — tiles
    wholly inside C, where N and K are multiples of 4 and K of BK (else 0)."""
    bm, bn, bk = KERNELS[name][:3]
    tiles = math.ceil(m / bm) * math.ceil(n / bn)
    if KERNELS[name][6] != "stream" or tiles == 0 or n % 4 or k % bk or k == 0:
        return 0.0
    return (m // bm) * (n // bn) / tiles


def features(name, m, n, k, s):
    """(blocks on the busiest SM, K-steps per block, aligned, occupancy, N aligned, pieces per block,
    atomic adds, rows of the busiest block, the blocks adding into each tile × the tile's share of rows,
    the share of K-steps in interior pieces)"""
    bm, bn, bk, _threads, _shared, _regs, kind = KERNELS[name]
    occ = occupancy(name)
    aligned = n % 4 == 0 and k % 4 == 0
    rows = max(1, min(m, bm))
    if kind == "stream":
        g, pieces, steps, partial, tiles = stream_walk(m, n, k, bm, bn, bk, SMS * occ)
        depth = g / tiles * min(m, bm) / bm
        return math.ceil(g / SMS), steps, aligned, occ, n % 4 == 0, pieces, partial * m * n / tiles, rows, depth, interior_share(name, m, n, k)
    tiles = math.ceil(m / bm) * math.ceil(n / bn)
    chunk = math.ceil(math.ceil(k / s) / bk) * bk
    steps = chunk // bk
    if name in UNROLL:
        # tuning::Cost::unroll: the K loop unrolled by u, then one step per remaining iteration.
        steps = steps // UNROLL[name] + steps % UNROLL[name]
    per_sm = math.ceil(tiles * s / SMS)
    adds = adds_into_c(kind, s)
    return per_sm, steps, aligned, occ, n % 4 == 0, 1, (m * n * s if adds else 0), rows, (s * min(m, bm) / bm if adds else 0.0), 0.0


def predict(p, g, name, m, n, k, s, f=None):
    """p = (e, c, q, u, w[, rho[, read bytes per µs[, interior]]]) of the kernel; g = (launch,
    zero_launch, scalar atomic adds per µs, vector atomic adds per µs, bytes of C stored per µs)."""
    e, c, q, u, w = p[:5]
    rho = p[5] if len(p) > 5 else 0.0
    read = p[6] if len(p) > 6 else math.inf
    interior = p[7] if len(p) > 7 else 1.0
    kind = KERNELS[name][6]
    per_sm, steps, aligned, occ, n_aligned, pieces, adds, rows, depth, share = f or features(name, m, n, k, s)
    q = min(q, occ)
    step = c * rows**rho * (1.0 if aligned else u) * (1.0 - share * (1.0 - interior))
    if kind == "stream":
        t = (pieces * e + step * steps) * max(1.0, per_sm / q)
    else:
        t1 = e + step * steps
        full, rest = divmod(per_sm, occ)
        t = full * t1 * occ / q + (t1 * max(1.0, rest / q) if rest else 0.0)
        # tuning::read_us: no faster than the kernel reads A and B (kernels 18 and 19).
        t = max(t, read_bytes(name, m, n, k) / read)
    adding = adds_into_c(kind, s)
    t += g[0]
    if not adding:
        # tuning::stores_us: unaligned rows never stored faster than aligned ones.
        t += 4.0 * m * n / g[4] if n_aligned else max(m * n / w, 4.0 * m * n / g[4])
    elif kind == "stream" and not n_aligned:
        t += m * n / w
    if adding:
        t += g[1] + ZERO_US_PER_KB * m * n * 4 / 1000.0 + adds / (g[3] if n_aligned else g[2])
        t += depth * ADDS_DEPTH_US[0 if aligned else 1]
    return t


def committed():
    """The constants in catalogue/src/select/tuning.rs, from the registry: ({label: (e, c, q, u, w[, rho, read
    bytes per µs][, interior])}, globals g); sets ADDS_DEPTH_US to the committed ones."""
    per_kernel, g, depth = COMMITTED
    ADDS_DEPTH_US[:] = depth
    return dict(per_kernel), g


def load(spec):
    """RUN.json[.xz][:plans.csv][:flag]: `scalar-adds` marks a run from before split-K added four columns
    per `red.global.add.v4.f32` (its split-K rows with N % 4 == 0 are left out); `skip=LABEL` leaves
    out one kernel's rows (a kernel changed since the run)."""
    path, _, rest = spec.partition(":")
    plans, _, flag = rest.partition(":")
    if plans == "scalar-adds" or plans.startswith("skip="):
        plans, flag = "", plans
    skip = flag[len("skip="):] if flag.startswith("skip=") else None
    # Result folders keep their large scorecard.json files xz-compressed (scorecard.json.xz).
    d = json.load(lzma.open(path) if path.endswith(".xz") else open(path))
    splits = {}
    if plans:
        for r in csv.DictReader(open(plans)):
            splits[(int(r["m"]), int(r["n"]), int(r["k"]), r["kernel"])] = int(r["splits"])
    out = []
    for r in d["rows"]:
        if r["key"] not in KERNELS or r.get("precision", "fp32") != PRECISION[r["key"]] or r["check"] != "ok":
            continue
        m, n, k, name = r["m"], r["n"], r["k"], r["key"]
        if name == skip:
            continue
        if flag == "scalar-adds" and KERNELS[name][6] is True and n % 4 == 0:
            continue
        s = 1
        if KERNELS[name][6] in (True, "split-store"):
            s = splits.get((m, n, k, name)) or old_splits(m, n, k, KERNELS[name][0], KERNELS[name][1])
        out.append((m, n, k, name, s, r["ms"] * 1000.0))
    return out


def summarize(ratios, hold):
    """Pick ÷ best over the fitted and the held-out shapes: geometric mean, lowest, how many below 0.95."""
    for tag, sel in (("fitted", lambda s: s not in hold), ("held out", lambda s: s in hold)):
        rs = [r for s, r in ratios.items() if sel(s)]
        if rs:
            gm = math.exp(sum(math.log(r) for r in rs) / len(rs))
            print(f"{tag}: {len(rs)} shapes, pick ÷ best: geomean {gm:.3f}, lowest {min(rs):.3f}, {sum(r < 0.95 for r in rs)} below 0.95")


def rust_cost(name, p):
    """The kernel's line in tuning::cost's COSTS block: `c(e, c, q, u, w, registers)`, wrapped as
    tuning.rs wraps it (`unrolled(…, u)`, kernels 18/19's `few_rows(…, rho, read GB/s)`)."""
    e, c, q, u, w = p[:5]
    base = f"c({e:.3f}, {c:.4f}, {q:.2f}, {u:.2f}, {w:.0f}.0, {KERNELS[name][5]})"
    if name in UNROLL:
        return f"unrolled({base}, {UNROLL[name]})"
    if name in INTERIOR_PATH:
        return f"interior({base}, {p[7]:.3f})"
    if name in ALONE:
        return f"{WRAPPER[name]}({base}, {p[5]:.3f}, {p[6] / 1e3:.0f}.0)"
    return base


def main():
    use_registry(registry())
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if "--registry" in sys.argv:
        args.remove(sys.argv[sys.argv.index("--registry") + 1])
    if "--only" in sys.argv:
        args.remove(sys.argv[sys.argv.index("--only") + 1])
    if "--write-table" in sys.argv:
        args.remove(sys.argv[sys.argv.index("--write-table") + 1])
    hold = set()
    if "--hold-out" in sys.argv:
        i = sys.argv.index("--hold-out")
        hold = {tuple(int(x) for x in h.split("x")) for h in sys.argv[i + 1].split(",") if h}
        args = [a for a in args if a != sys.argv[i + 1]]
    rows = []
    for spec in args:
        if spec.startswith("table:"):
            got, held = load_table(spec[len("table:"):])
            hold |= held
        else:
            got = load(spec)
        # A shape measured again in a later run: the later run's rows replace the earlier ones.
        again = {(r[0], r[1], r[2]) for r in got}
        rows = [r for r in rows if (r[0], r[1], r[2]) not in again] + got
    if "--fit-unaligned" in sys.argv:
        ps, g = fit_unaligned(rows, hold)
        return report(ps, g, rows, hold)
    if "--fit-adds" in sys.argv:
        ps, g = fit_adds(rows, hold)
        return report(ps, g, rows, hold)
    if "--only" in sys.argv:
        return fit_alone(sys.argv[sys.argv.index("--only") + 1], rows, hold)
    # Kernels fitted alone keep their committed constants here; their rows stay in the table.
    train = [r for r in rows if (r[0], r[1], r[2]) not in hold and r[3] not in ALONE and candidate(r[3], r[0], r[1])]
    # parameters: per kernel (log e, log c, q, log u, log w), global (log launch, log zero launch,
    # log atomic adds per µs)
    nk = len(NAMES)

    def unpack(x):
        ps = {}
        for i, name in enumerate(NAMES):
            le, lc, q, lu, lw = x[NP * i: NP * i + NP]
            ps[name] = (math.exp(le), math.exp(lc), q, math.exp(lu), math.exp(lw))
        g = tuple(math.exp(v) for v in x[NP * nk:])
        return ps, g

    F = np.array([features(nm, m, n, k, sp) for (m, n, k, nm, sp, t) in train], dtype=float)
    kidx = np.array([NAMES.index(r[3]) for r in train])
    kind = [KERNELS[r[3]][6] for r in train]
    adds_c = np.array([k_ is not False for k_ in kind], dtype=float)  # zeroes C, adds into it
    stream = np.array([k_ == "stream" for k_ in kind], dtype=float)
    mn4 = np.array([r[0] * r[1] * 4 / 1000.0 for r in train], dtype=float)
    meas = np.array([r[5] for r in train], dtype=float)
    per_sm, steps, aligned, resident, n_aligned, pieces, adds, _rows, depth, share = F.T
    # tuning::Cost::interior: held at the committed factors here (`--only` fits them).
    committed_ps = committed()[0]
    interior = np.array([committed_ps[r[3]][7] if len(committed_ps[r[3]]) > 7 else 1.0 for r in train])
    inner = 1.0 - share * (1.0 - interior)
    mn = np.array([r[0] * r[1] for r in train], dtype=float)
    full, rest = np.floor(per_sm / resident), np.mod(per_sm, resident)

    def resid(x):
        P = x[: NP * nk].reshape(nk, NP)[kidx]
        e, c, q, u, w = np.exp(P[:, 0]), np.exp(P[:, 1]), np.minimum(P[:, 2], resident), np.exp(P[:, 3]), np.exp(P[:, 4])
        g = np.exp(x[NP * nk:])
        t1 = e + c * steps * np.where(aligned > 0, 1.0, u)
        tiled = full * t1 * resident / q + np.where(rest > 0, t1 * np.maximum(1.0, rest / q), 0.0)
        walked = (pieces * e + c * inner * steps * np.where(aligned > 0, 1.0, u)) * np.maximum(1.0, per_sm / q)
        t = np.where(stream > 0, walked, tiled) + g[0]
        t = t + adds_c * (g[1] + ZERO_US_PER_KB * mn4 + adds / np.where(n_aligned > 0, g[3], g[2]))
        t = t + depth * np.where(aligned > 0, ADDS_DEPTH_US[0], ADDS_DEPTH_US[1])
        # Stores (tuning::stores_us; unaligned never faster than aligned), stream-K's unaligned
        # whole tiles at the kernel's rate.
        t = t + (1.0 - adds_c) * np.where(n_aligned > 0, 4.0 * mn / g[4], np.maximum(mn / w, 4.0 * mn / g[4]))
        t = t + stream * np.where(n_aligned > 0, 0.0, mn / w)
        return np.log(t / meas)

    x0, lo, hi = [], [], []
    for name in NAMES:
        occ = occupancy(name)
        x0 += [math.log(2.0), math.log(0.5), max(1.0, occ / 2), math.log(1.5) + 1e-3, math.log(1e6)]
        lo += [math.log(0.01), math.log(1e-4), 1.0, 0.0, math.log(1e4)]
        hi += [math.log(1000.0), math.log(100.0), float(occ) + 1e-6, math.log(20.0), math.log(1e8)]
    # launch, zeroing launch, atomic adds per µs over the whole GPU (scalar, then four per v4 op)
    # … and the bytes of C the whole GPU stores per µs (aligned rows; kernels that store C, not add)
    x0 += [math.log(3.0), math.log(2.0), math.log(1e5), math.log(4e5), math.log(4e6)]
    lo += [math.log(0.5), math.log(0.1), math.log(1e3), math.log(1e3), math.log(3e5)]
    hi += [math.log(10.0), math.log(10.0), math.log(1e8), math.log(1e8), math.log(1e9)]
    if "--evaluate" in sys.argv:
        # No fit: the committed constants, evaluated (and written to the table) on these runs.
        ps, g = committed()
    else:
        fit = least_squares(resid, x0, bounds=(lo, hi), loss="soft_l1", f_scale=0.1)
        ps, g = unpack(fit.x)
        for name in ALONE:
            ps[name] = committed()[0][name]
        for name in INTERIOR_PATH:
            ps[name] = ps[name] + tuple(committed_ps[name][5:])
    print(f"fit: {len(train)} rows, {len(rows) - len(train)} held out or fitted alone")
    report(ps, g, rows, hold)


def report(ps, g, rows, hold):
    """Prints the constants, each shape's pick against its measured best, the prediction errors and the
    summary; `--write-table`, `--print-rust` as in main."""
    print(f"launch {g[0]:.3f} µs, zeroing {g[1]:.3f} µs, atomic adds {g[2]:.0f} / {g[3]:.0f} (v4) per µs, C stored at {g[4] / 1e3:.0f} GB/s, blocks adding into a tile {ADDS_DEPTH_US[0]:.4f} / {ADDS_DEPTH_US[1]:.4f} (unaligned) µs")
    for name in NAMES:
        e, c, q, u, w = ps[name][:5]
        print(f"  {name:24} e {e:8.3f} µs  c {c:8.4f} µs/step  q {q:5.2f} (occ {occupancy(name)})  u {u:5.2f}  w {w:10.0f}/µs")
    # Evaluation: per shape, the model's pick vs the measured best (among the rows measured).
    shapes = {}
    for r in rows:
        shapes.setdefault((r[0], r[1], r[2]), []).append(r)
    errs, ratios = [], {}
    for sh, rs in shapes.items():
        meas = {r[3]: r[5] for r in rs}
        pred = {r[3]: predict(ps[r[3]], g, r[3], *sh, r[4]) for r in rs}
        errs += [abs(math.log(pred[n] / meas[n])) for n in meas if candidate(n, *sh[:2])]
        pick = min((nm for nm in pred if candidate(nm, *sh[:2])), key=pred.get)
        best = min(meas, key=meas.get)
        ratio = meas[best] / meas[pick]
        ratios[sh] = ratio
        tag = "HELD" if sh in hold else "    "
        flag = " <" if ratio < 0.95 else ""
        print(f"{tag} {sh[0]}x{sh[1]}x{sh[2]}: pick {pick} ({pred[pick]:.1f} pred, {meas[pick]:.1f} meas µs) best {best} {meas[best]:.1f} µs  ratio {ratio:.3f}{flag}")
    print(f"median |log error| {np.median(errs):.3f}, 90th pct {np.percentile(errs, 90):.3f}")
    summarize(ratios, hold)
    print("with the measured residuals, each shape left out (tessera_catalogue::select::residuals):")
    summarize(residual_picks(ps, g, shapes), hold)
    if "--write-table" in sys.argv:
        # The calibration table `Auto` ships (tessera_catalogue::select::residuals) and catalogue/tests/auto_model.rs reads.
        path = sys.argv[sys.argv.index("--write-table") + 1]
        with open(path, "w") as f:
            f.write("m,n,k,kernel,splits,us,held_out\n")
            for (m, n, k, nm, sp, t) in rows:
                f.write(f"{m},{n},{k},{nm},{sp},{t:.2f},{int((m, n, k) in hold)}\n")
    if "--print-rust" in sys.argv:
        print(f"LAUNCH_US = {g[0]:.3f}; ZERO_LAUNCH_US = {g[1]:.3f}; ATOMIC_ADDS_PER_US = {g[2]:.0f}; ATOMIC_ADDS_V4_PER_US = {g[3]:.0f}; STORE_GB_PER_S = {g[4] / 1e3:.0f}; ADDS_DEPTH_US = {ADDS_DEPTH_US[0]:.4f}; ADDS_DEPTH_UNALIGNED_US = {ADDS_DEPTH_US[1]:.4f}")
        for name in NAMES:
            if name in ALONE:
                print(f"{name}: fitted alone (--only {name}), not here")
                continue
            print(f"{name}: {rust_cost(name, ps[name])}")


# tessera_catalogue::select::residuals: NEIGHBOURS, PRIOR, and the position of a shape.
NEIGHBOURS, PRIOR = 8, 2.0


def position(m, n, k):
    return np.array([math.log2(m), math.log2(n), math.log2(k), float(n % 4 == 0), float(k % 4 == 0)])


def residual_picks(ps, g, shapes):
    """Pick ÷ best per shape when each candidate's prediction is multiplied by exp of its shrunk,
    1/(1+d)-weighted mean residual on the NEIGHBOURS nearest other shapes (as `Auto` does on a shape
    the table does not hold): the figure of catalogue/tests/auto_model.rs."""
    res = {}
    for sh, rs in shapes.items():
        for r in rs:
            if candidate(r[3], *sh[:2]):
                res.setdefault(r[3], []).append((position(*sh), math.log(r[5] / predict(ps[r[3]], g, r[3], *sh, r[4])), sh))
    ratios = {}
    for sh, rs in shapes.items():
        at, meas, ranked = position(*sh), {r[3]: r[5] for r in rs}, {}
        for r in rs:
            if not candidate(r[3], *sh[:2]):
                continue
            near = sorted((np.linalg.norm(p - at), o, x) for p, x, o in res[r[3]] if o != sh)[:NEIGHBOURS]
            w = sum(1.0 / (1.0 + d) for d, _, _ in near)
            mean = sum(x / (1.0 + d) for d, _, x in near) / w if near else 0.0
            ranked[r[3]] = predict(ps[r[3]], g, r[3], *sh, r[4]) * math.exp(mean * len(near) / (len(near) + PRIOR))
        ratios[sh] = min(meas.values()) / meas[min(ranked, key=ranked.get)]
    return ratios


def load_table(path):
    """The calibration table (catalogue/src/select/auto-calibration.csv) as rows, and its held-out shapes."""
    rows, held = [], set()
    for r in csv.DictReader(open(path)):
        m, n, k = int(r["m"]), int(r["n"]), int(r["k"])
        rows.append((m, n, k, r["kernel"], int(r["splits"]), float(r["us"])))
        if r["held_out"] == "1":
            held.add((m, n, k))
    return rows, held


def fit_unaligned(rows, hold):
    """Refits what the row-by-row epilogue changed, everything else as committed: per BY_ROWS kernel
    its unaligned factor `u` on the steps (fitted before beside the slow element-wise epilogue) and,
    for those that store C, the unaligned store rate `w`; the GPU-wide scalar atomic rate (split-K's
    and stream-K's adds where N % 4 != 0) — on the fitted shapes' rows of those kernels with N or K
    not a multiple of 4."""
    ps, g = committed()
    train = [r for r in rows if (r[1] % 4 or r[2] % 4) and r[3] in BY_ROWS and (r[0], r[1], r[2]) not in hold]
    names = sorted(BY_ROWS)
    stores = [nm for nm in names if KERNELS[nm][6] is not True]
    nu = len(names)

    def unpack(x):
        qs = dict(ps)
        for i, nm in enumerate(names):
            w = math.exp(x[nu + stores.index(nm)]) if nm in stores else ps[nm][4]
            qs[nm] = tuple(ps[nm][:3]) + (math.exp(x[i]), w) + tuple(ps[nm][5:])
        at = nu + len(stores)
        return qs, (g[0], g[1], math.exp(x[at]), g[3], g[4])

    def resid(x):
        qs, gg = unpack(x)
        return [math.log(predict(qs[nm], gg, nm, m, n, k, sp) / t) for (m, n, k, nm, sp, t) in train]

    x0 = [math.log(ps[nm][3]) for nm in names] + [math.log(ps[nm][4]) for nm in stores] + [math.log(g[2])]
    lo = [0.0] * nu + [math.log(1e4)] * len(stores) + [math.log(1e3)]
    hi = [math.log(5.0)] * nu + [math.log(1e8)] * len(stores) + [math.log(1e8)]
    fit = least_squares(resid, x0, bounds=(lo, hi), loss="soft_l1", f_scale=0.1)
    ps, g = unpack(fit.x)
    print(f"unaligned refit: {len(train)} rows of {len(BY_ROWS)} kernels with N or K % 4 != 0 (fitted shapes)")
    return ps, g


def fit_adds(rows, hold):
    """Refits the kernels that add into C, split-K's and stream-K's (each one's e, c, q, u, w), and
    ADDS_DEPTH_US (aligned, unaligned) on the fitted shapes' rows of those kernels, everything else as
    committed (kernels 18 and 19: `--only`)."""
    ps, g = committed()
    names = [nm for nm in NAMES if KERNELS[nm][6] in (True, "stream")]
    train = [r for r in rows if r[3] in names and (r[0], r[1], r[2]) not in hold]
    feats = [features(nm, m, n, k, sp) for (m, n, k, nm, sp, t) in train]

    def unpack(x):
        qs = dict(ps)
        for i, nm in enumerate(names):
            le, lc, q, lu, lw = x[NP * i: NP * i + NP]
            qs[nm] = (math.exp(le), math.exp(lc), q, math.exp(lu), math.exp(lw)) + tuple(ps[nm][5:])
        return qs, [float(x[NP * len(names)]), float(x[NP * len(names) + 1])]

    def resid(x):
        qs, ADDS_DEPTH_US[:] = unpack(x)
        return [math.log(predict(qs[nm], g, nm, m, n, k, sp, f) / t) for (m, n, k, nm, sp, t), f in zip(train, feats)]

    x0, lo, hi = [], [], []
    for nm in names:
        e, c, q, u, w = ps[nm][:5]
        occ = occupancy(nm)
        x0 += [math.log(e), math.log(c), min(q, occ), math.log(u) + 1e-3, math.log(w)]
        lo += [math.log(0.01), math.log(1e-4), 1.0, 0.0, math.log(1e4)]
        hi += [math.log(1000.0), math.log(100.0), float(occ) + 1e-6, math.log(20.0), math.log(1e8)]
    x0 += [max(ADDS_DEPTH_US[0], 1e-3), max(ADDS_DEPTH_US[1], 1e-3)]
    lo += [0.0, 0.0]
    hi += [1.0, 1.0]
    fit = least_squares(resid, x0, bounds=(lo, hi), loss="soft_l1", f_scale=0.1)
    ps, ADDS_DEPTH_US[:] = unpack(fit.x)
    print(f"adds refit: {len(train)} rows of {len(names)} kernels (fitted shapes)")
    return ps, g


def fit_alone(name, rows, hold):
    """Fits one kernel's (e, c, q, u, w, rho, read bytes per µs) on its rows, the GPU-wide constants and the other kernels
    as committed; reports, per shape, its measured and predicted time beside the fastest other kernel
    measured and whether the model (committed constants, this kernel's new ones) picks the fastest."""
    ps, g = committed()
    mine = [r for r in rows if r[3] == name and candidate(name, r[0], r[1])]
    train = [r for r in mine if (r[0], r[1], r[2]) not in hold]
    occ = occupancy(name)

    alone = name in ALONE  # otherwise a tile kernel: its five constants (and its interior factor)
    inner = name in INTERIOR_PATH

    def unpack(x):
        if inner:
            return (math.exp(x[0]), math.exp(x[1]), x[2], math.exp(x[3]), math.exp(x[4]), 0.0, math.inf, x[5])
        if not alone:
            return (math.exp(x[0]), math.exp(x[1]), x[2], math.exp(x[3]), math.exp(x[4]))
        return (math.exp(x[0]), math.exp(x[1]), x[2], math.exp(x[3]), math.exp(x[4]), x[5], math.exp(x[6]))

    def resid(x):
        p = unpack(x)
        return [math.log(predict(p, g, name, m, n, k, s) / t) for (m, n, k, _, s, t) in train]

    x0 = [math.log(1.0), math.log(1.0), max(1.0, occ / 2), math.log(1.1), math.log(1e6), 0.3, math.log(2e6)]
    lo = [math.log(0.01), math.log(1e-3), 1.0, 0.0, math.log(1e4), 0.0, math.log(1e5)]
    hi = [math.log(100.0), math.log(100.0), float(occ) + 1e-6, math.log(5.0), math.log(1e8), 1.0, math.log(1e8)]
    if inner:
        x0, lo, hi = x0[:5] + [1.0], lo[:5] + [0.5], hi[:5] + [1.5]
    elif not alone:
        x0, lo, hi = x0[:5], lo[:5], hi[:5]
    fit = least_squares(resid, x0, bounds=(lo, hi), loss="soft_l1", f_scale=0.1)
    p = unpack(fit.x)
    ps[name] = p
    print(f"{name} alone: {len(train)} rows, held out {len(mine) - len(train)}")
    shapes = {}
    for r in rows:
        shapes.setdefault((r[0], r[1], r[2]), []).append(r)
    ratios = {}
    for (m, n, k), rs in sorted(shapes.items()):
        meas = {r[3]: r[5] for r in rs}
        pred = {r[3]: predict(ps[r[3]], g, r[3], m, n, k, r[4]) for r in rs}
        pick, best = min((nm for nm in pred if candidate(nm, m, n)), key=pred.get), min(meas, key=meas.get)
        ratios[(m, n, k)] = meas[best] / meas[pick]
        tag = "HELD" if (m, n, k) in hold else "    "
        t = meas.get(name)
        mine_s = f"{name} {t:.1f} (pred {pred[name]:.1f})" if t else ""
        print(f"{tag} {m}x{n}x{k}: {mine_s} pick {pick} {meas[pick]:.1f} best {best} {meas[best]:.1f} ratio {ratios[(m, n, k)]:.3f}")
    summarize(ratios, hold)
    print(f"{name}: {rust_cost(name, p)}")


if __name__ == "__main__":
    main()
