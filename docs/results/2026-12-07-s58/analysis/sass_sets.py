#!/usr/bin/env python3
"""Whether two PTX modules compile to the same SASS entry by entry: for each entry whose PTX text
differs, `ptxas -arch=sm_90a` (TESSERA_PTXAS) and `nvdisasm -c` over the entry alone (with the module's
header and device functions), addresses stripped, several runs each — ptxas 13.0 alternates between
two register assignments on some entries, so the sets of listings are compared, not one listing.

    python3 sass_sets.py OLD.ptx NEW.ptx [--runs 10]   (4 runs missed one of two listings once)
"""
import argparse, hashlib, os, re, subprocess, tempfile

ap = argparse.ArgumentParser()
ap.add_argument("old"); ap.add_argument("new"); ap.add_argument("--runs", type=int, default=10)
a = ap.parse_args()
ptxas = os.environ["TESSERA_PTXAS"]; nvdisasm = os.path.join(os.path.dirname(ptxas), "nvdisasm")


def entries(text):
    head = text[: text.index(".visible")]
    funcs = "".join(m.group(0) for m in re.finditer(r"\n\.func[\s\S]*?\n}\n", text))
    out = {}
    for m in re.finditer(r"\.visible \.entry (\w+)\(", text):
        end = text.find("\n.visible", m.start() + 10)
        body = text[m.start(): end if end > 0 else len(text)]
        out[m.group(1)] = (head + funcs + body + "\n", body)
    return out


def listing(ptx, tmp):
    src, cubin = os.path.join(tmp, "e.ptx"), os.path.join(tmp, "e.cubin")
    open(src, "w").write(ptx)
    subprocess.run([ptxas, "-arch=sm_90a", "-o", cubin, src], check=True)
    sass = subprocess.run([nvdisasm, "-c", cubin], capture_output=True, text=True, check=True).stdout
    return hashlib.md5(re.sub(r"/\*[0-9a-f]*\*/", "", sass).encode()).hexdigest()[:8]


old, new = entries(open(a.old).read()), entries(open(a.new).read())
same = alternating = differ = 0
with tempfile.TemporaryDirectory() as tmp:
    for name in sorted(old):
        if name not in new or old[name][1] == new[name][1]:
            continue
        o = {listing(old[name][0], tmp) for _ in range(a.runs)}
        n = {listing(new[name][0], tmp) for _ in range(a.runs)}
        verdict = "same" if o == n else "DIFFERENT"
        same += o == n and len(o) == 1; alternating += o == n and len(o) > 1; differ += o != n
        print(f"{name}: old {sorted(o)} new {sorted(n)} {verdict}")
print(f"entries whose PTX changed: {same} same SASS, {alternating} the same set of alternating listings, {differ} different")
