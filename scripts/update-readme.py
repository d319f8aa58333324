#!/usr/bin/env python3
"""Regenerates README.md's results, the plots under docs/img/ and docs/results/LATEST.md (every table)
from committed runs in docs/results/.

    scripts/update-readme.py RUN [--random DIR ...] [--sweep DIR] [--issue34 DIR]

RUN       the README's run: a folder with scorecard.json (or scorecard.json.xz) and device.txt (here
          or in a folder above it), every kernel in every precision beside cuBLAS
--random  runs of `scorecard --random-shapes`: their random shapes give the summary's random-shape rows
--sweep   a run of `scorecard --sweep`: sizes.svg and the table of Auto ÷ cuBLAS by size
--issue34 a call's results holding squares/, rand-*/ and decode-llm/ (issue 34's acceptance runs):
          scripts/issue34-check.py's table of the open tensor-core bars, the devices named

Writes:
  README.md           the block between <!-- summary:begin --> and <!-- summary:end -->, with
                      --sweep the one between <!-- sizes:begin --> and <!-- sizes:end -->, and with
                      --issue34 the one between <!-- status:begin --> and <!-- status:end -->
  docs/img/           roofline-<precision>.svg (from RUN), sizes.svg (from --sweep)
  docs/results/LATEST.md   the summary, the random-shape runs one by one, the sweep and every row of RUN

Every table and plot is the scorecard's own rendering of the runs' JSON (`scorecard --replot`):
nothing is typed by hand, and the same arguments give the same files byte for byte. The scorecard is
$SCORECARD when set (e.g. target/release/scorecard), otherwise `cargo run --release -q -p
tessera-scorecard --`. The command is written into README.md and LATEST.md beside the figures.
"""
import argparse
import lzma
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results"
IMG = ROOT / "docs" / "img"


def rel(path):
    """`path` relative to the repository root, as written in Markdown."""
    return pathlib.Path(os.path.relpath(pathlib.Path(path).resolve(), ROOT)).as_posix()


def scorecard_json(folder, tmp, name):
    """The folder's scorecard.json, decompressed into `tmp` when it is stored as .json.xz."""
    plain, packed = folder / "scorecard.json", folder / "scorecard.json.xz"
    if plain.exists():
        return plain
    if packed.exists():
        out = tmp / f"{name}.json"
        out.write_bytes(lzma.decompress(packed.read_bytes()))
        return out
    sys.exit(f"{rel(folder)}: no scorecard.json or scorecard.json.xz")


def provenance(folder):
    """(commit, date) of a run, from the folder or the nearest folder above it inside docs/results:
    device.txt as scripts/gpu-run.sh writes it (`commit: X`, then the date) or as scripts/gpu-call.sh
    does (the bundle's COMMIT, the first line's hash the executable's, then the date), else commit.txt
    (the commit alone; the date is then None)."""
    commit = date = None
    for d in [folder, *folder.parents]:
        device, commit_txt = d / "device.txt", d / "commit.txt"
        lines = device.read_text().splitlines() if device.exists() else []
        if lines and lines[0].startswith("commit:"):
            commit = commit or lines[0].split(":", 1)[1].strip()
            date = date or (lines[1].strip() if len(lines) > 1 else None)
        elif lines:
            # scripts/gpu-call.sh's: the bundle's COMMIT lines (`main b7b5beb (bin/scorecard)`), the
            # first naming the executable that ran; then `date -u`.
            sha = re.search(r"\b[0-9a-f]{7,40}\b", lines[0])
            commit = commit or (sha.group(0) if sha else None)
            date = date or next((l.strip() for l in lines if "UTC" in l), None)
        if not commit and commit_txt.exists():
            commit = commit_txt.read_text().split()[0]
        if (commit and date) or d == RESULTS or d == ROOT:
            break
    return commit or "?", date


def replot(json, out, plots, random_jsons=()):
    """Runs the scorecard's --replot of `json` into `out`."""
    cmd = shlex.split(os.environ["SCORECARD"]) if os.environ.get("SCORECARD") else ["cargo", "run", "--release", "-q", "-p", "tessera-scorecard", "--"]
    cmd += ["--replot", str(json), "--plots", plots, "--out", str(out)]
    if random_jsons:
        cmd += ["--random-runs", ",".join(str(j) for j in random_jsons)]
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def replace_block(text, name, body):
    """`text` with the block between <!-- NAME:begin --> and <!-- NAME:end --> set to `body`."""
    pattern = re.compile(rf"(<!-- {name}:begin -->\n).*?(<!-- {name}:end -->)", re.S)
    if not pattern.search(text):
        sys.exit(f"README.md has no <!-- {name}:begin --> … <!-- {name}:end --> block")
    return pattern.sub(lambda m: m.group(1) + body.rstrip("\n") + "\n" + m.group(2), text)


def demote(markdown):
    """Headings one level down, for a scorecard.md placed under a heading of LATEST.md."""
    return re.sub(r"^(#+) ", r"#\1 ", markdown, flags=re.M)


def source(folder):
    commit, date = provenance(folder)
    return f"`{rel(folder)}` (commit {commit}{', ' + date if date else ''})"


def sources(folders):
    """Several runs in a few words: their common folder and their commits."""
    common = os.path.commonpath([rel(f) for f in folders]) if len(folders) > 1 else rel(folders[0])
    commits = []
    for f in folders:
        c = provenance(f)[0]
        if c not in commits:
            commits.append(c)
    return f"{len(folders)} run{'s' if len(folders) > 1 else ''} in `{common}` (commit{'s' if len(commits) > 1 else ''} {', '.join(commits)})"


def issue34_status(folder):
    """scripts/issue34-check.py's table on the acceptance runs in `folder` (squares/, rand-*/,
    decode-llm/; the decode roofline where that run measured the copy rate), headed by its source."""
    runs = folder / "decode-llm"
    card = runs / "scorecard.json"
    check = [sys.executable, str(ROOT / "scripts" / "issue34-check.py"), "--squares", str(folder / "squares")]
    check += ["--random", *map(str, sorted(folder.glob("rand-*/")))]
    if runs.is_dir():
        import json

        if card.exists() and json.loads(card.read_text()).get("copy_gb_per_s"):
            check += ["--decode", str(runs)]
        check += ["--llm", str(runs)]
    table = subprocess.run(check, check=True, capture_output=True, text=True).stdout
    return (
        f"Issue 34's bars on the tensor cores, from {source(folder)}, read by `scripts/issue34-check.py` "
        "(`Auto` ÷ cuBLAS of the same precision, same process):\n\n" + table
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=pathlib.Path)
    ap.add_argument("--random", type=pathlib.Path, nargs="*", default=[])
    ap.add_argument("--sweep", type=pathlib.Path)
    ap.add_argument("--issue34", type=pathlib.Path)
    args = ap.parse_args()
    command = " ".join(
        ["scripts/update-readme.py", rel(args.run)]
        + (["--random", *map(rel, args.random)] if args.random else [])
        + (["--sweep", rel(args.sweep)] if args.sweep else [])
        + (["--issue34", rel(args.issue34)] if args.issue34 else [])
    )
    readme_path = ROOT / "README.md"
    readme = readme_path.read_text()
    IMG.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as t:
        tmp = pathlib.Path(t)
        main_json = scorecard_json(args.run, tmp, "run")
        random_jsons = [scorecard_json(d, tmp, f"random-{i}") for i, d in enumerate(args.random)]
        replot(main_json, tmp / "run", "roofline", random_jsons)
        for svg in sorted((tmp / "run").glob("roofline-*.svg")):
            shutil.copyfile(svg, IMG / svg.name)
        summary = (tmp / "run" / "summary.md").read_text()
        every_row = (tmp / "run" / "scorecard.md").read_text()
        random_md = (tmp / "run" / "random.md").read_text() if (tmp / "run" / "random.md").exists() else ""
        sweep_summary = sweep_md = ""
        if args.sweep:
            replot(scorecard_json(args.sweep, tmp, "sweep"), tmp / "sweep", "sizes")
            shutil.copyfile(tmp / "sweep" / "sizes.svg", IMG / "sizes.svg")
            sweep_summary = (tmp / "sweep" / "summary.md").read_text()
            sweep_md = (tmp / "sweep" / "scorecard.md").read_text()

    randoms = f"; random shapes: {sources(args.random)}" if args.random else ""
    head = (
        f"From {source(args.run)}: every kernel and `Auto` beside cuBLAS of the same precision{randoms}. "
        "Generated by `scripts/update-readme.py` (the command, and every row: "
        "[docs/results/LATEST.md](docs/results/LATEST.md)).\n\n"
    )
    readme = replace_block(readme, "summary", head + summary)
    if args.sweep:
        readme = replace_block(
            readme,
            "sizes",
            f"![TFLOP/s against size, Auto and cuBLAS per precision](docs/img/sizes.svg)\n\nFrom {source(args.sweep)}, "
            f"a run of `scorecard --sweep`.\n\n{sweep_summary}",
        )
    if args.issue34:
        readme = replace_block(readme, "status", issue34_status(args.issue34))
    readme_path.write_text(readme)

    latest = [
        "# Latest results",
        "",
        "<!-- Generated by scripts/update-readme.py: edit the runs or the scorecard, not this file. -->",
        f"Generated by `{command}` from:",
        "",
        f"- {source(args.run)}: the README's run, every kernel in each precision beside cuBLAS of the same precision",
        *[f"- {source(d)}: random shapes" for d in args.random],
        *([f"- {source(args.sweep)}: the size sweep"] if args.sweep else []),
        "",
        "## Summary",
        "",
        summary.rstrip("\n"),
        "",
    ]
    if random_md:
        latest += ["## Random shapes, run by run", "", random_md.rstrip("\n"), ""]
    if args.sweep:
        latest += ["## Size sweep", "", "![sizes](../img/sizes.svg)", "", demote(sweep_md).rstrip("\n"), ""]
    latest += ["## Rooflines", ""]
    latest += [f"![{p}](../img/roofline-{p}.svg)" for p in ("fp32", "tf32", "bf16", "fp16") if (IMG / f"roofline-{p}.svg").exists()]
    latest += ["", f"## Every row of {rel(args.run)}", "", demote(every_row).rstrip("\n"), ""]
    (RESULTS / "LATEST.md").write_text("\n".join(latest))
    print(f"README.md, docs/results/LATEST.md and docs/img/ regenerated: {command}")


if __name__ == "__main__":
    main()
