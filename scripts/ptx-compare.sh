#!/usr/bin/env bash
# Compares the kernels of two PTX modules entry by entry: `scripts/ptx-compare.sh OLD.ptx NEW.ptx`.
# An entry counts as unchanged when its text is identical up to what does not reach the machine code:
# comments, the numbering of basic-block labels (LLVM numbers them by the function's position in the module, so
# adding a kernel renumbers the others) and the crate hash in mangled core symbols. Entries only in
# NEW are listed as new. Exit status 1 when any common entry changed (re-measure it on the GPU).
set -euo pipefail
[ $# = 2 ] || { echo "usage: $0 OLD.ptx NEW.ptx" >&2; exit 2; }
norm() { sed -E 's|[[:space:]]*//.*$||; s/_RNvNtCs[A-Za-z0-9]+_4core/_RNvNtCsHASH_4core/g; s/\$L__BB[0-9]+_/$L__BB_/g; s/BB[0-9]+_([0-9]+)/BB_\1/g' "$1"; }
entries() { grep -oE '^\.visible \.entry [A-Za-z0-9_]+' "$1" | awk '{print $3}'; }
body() { norm "$1" | awk -v e="$2" '$0 ~ "^.visible .entry " e "\\(" {p=1} p {print} p && /^}/ {exit}'; }
changed=0 same=0
for e in $(entries "$1"); do
  if ! grep -q "^\.visible \.entry $e(" "$2"; then echo "removed: $e"; changed=1; continue; fi
  if cmp -s <(body "$1" "$e") <(body "$2" "$e"); then same=$((same + 1)); else echo "CHANGED: $e"; changed=1; fi
done
for e in $(entries "$2"); do grep -q "^\.visible \.entry $e(" "$1" || echo "new: $e"; done
echo "$same unchanged entries"
exit $changed
