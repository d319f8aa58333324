#!/usr/bin/env bash
# The PTX link step, written by hand because rustc's `llvm-bitcode-linker` component is not available
# for the pinned nightly here (see README "How the PTX is built").
#
# rustc calls this as the linker of the nvptx64-nvidia-cuda cdylib, with arguments in the
# llvm-bitcode-linker's form:
#   --export-symbol <kernel> ... <crate objects (.o)> <rlibs> -o <out>.ptx -O<level> --target-cpu <sm_XX>
# All objects are LLVM bitcode. The steps:
#   1. extract the members of every rlib (core, compiler_builtins);
#   2. llvm-link the crate's objects, pulling in only what they use from the rlibs;
#   3. opt: internalize everything except the exported kernels, drop dead code, optimise;
#   4. llc: lower to PTX for the target GPU.
# The LLVM tools come from the toolchain's `llvm-tools` component; TESSERA_LLVM_BIN may point elsewhere.
set -euo pipefail

die() { echo "ptx-link: error: $*" >&2; exit 1; }

exports=() objects=() rlibs=() out="" cpu="sm_90" opt_level="3" features=""
while [ $# -gt 0 ]; do
  case "$1" in
    --export-symbol) exports+=("$2"); shift 2 ;;
    -o) out="$2"; shift 2 ;;
    --target-cpu) cpu="$2"; shift 2 ;;
    --target-feature=*) features="${1#--target-feature=}"; shift ;;  # the PTX ISA version (+ptxNN)
    --target-feature) features="$2"; shift 2 ;;
    --target|-L) shift 2 ;;
    -O*) opt_level="${1#-O}"; shift ;;
    --fallback-arch|--debug) shift ;;
    --link-inputs=*) shift ;;  # host/build.rs's fingerprint of this script and the launch bounds
    *.rlib) rlibs+=("$1"); shift ;;
    *.o|*.bc) objects+=("$1"); shift ;;
    *) die "unexpected argument '$1' (rustc's linker interface changed?)" ;;
  esac
done
[ -n "$out" ] || die "no -o <output> given"
[ ${#objects[@]} -gt 0 ] || die "no input objects given"
[ ${#exports[@]} -gt 0 ] || die "no --export-symbol given: the crate defines no kernels"
case "$opt_level" in 0|1|2|3) ;; *) opt_level=3 ;; esac

bin="${TESSERA_LLVM_BIN:-}"
if [ -z "$bin" ]; then
  sysroot=$(rustc --print sysroot 2>/dev/null) || die "cannot run rustc to find the llvm-tools"
  bin="$sysroot/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin"
fi
for tool in llvm-ar llvm-link opt llc; do
  [ -x "$bin/$tool" ] || die "$bin/$tool not found: install it with 'rustup component add llvm-tools --toolchain <the pinned nightly>'"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/ptx-link.XXXXXX")
trap 'rm -rf "$work"' EXIT

members=()
for i in "${!rlibs[@]}"; do
  dir="$work/rlib$i"; mkdir -p "$dir"
  (cd "$dir" && "$bin/llvm-ar" x "${rlibs[$i]}")
  for f in "$dir"/*.o; do [ -e "$f" ] && members+=("$f"); done
done

"$bin/llvm-link" "${objects[@]}" ${members[@]+--only-needed "${members[@]}"} -o "$work/linked.bc"
# The module's entries: rustc exports every kernel of the crate; TESSERA_ENTRIES (host/build.rs writes
# it from the catalogue) names the ones this module keeps (the sm_90 module or the sm_90a one).
entries="${TESSERA_ENTRIES:-}"
[ -f "$entries" ] || die "TESSERA_ENTRIES must name the module's entry list (host/build.rs writes it from the catalogue)"
kept=()
for e in "${exports[@]}"; do grep -qx "$e" "$entries" && kept+=("$e"); done
[ ${#kept[@]} -gt 0 ] || die "none of the crate's kernels is in $entries"
api=$(IFS=,; echo "${kept[*]}")
"$bin/opt" "$work/linked.bc" -o "$work/opt.bc" \
  --internalize-public-api-list="$api" -passes="internalize,globaldce,default<O$opt_level>,globaldce" \
  -unroll-threshold=4000 -unroll-max-count=1024
"$bin/llc" "$work/opt.bc" -o "$out" -O"$opt_level" -mtriple=nvptx64-nvidia-cuda -mcpu="$cpu" ${features:+-mattr="$features"}

# 5. Launch bounds (CUDA C's `__launch_bounds__(threads, min_blocks)`), which rustc cannot express:
#    for each `entry threads min_blocks` line of the file $TESSERA_LAUNCH_BOUNDS (host/build.rs writes it
#    from the catalogue, i.e. from each kernel's own TileConfig), add `.maxntid threads, 1, 1` and
#    `.minnctapersm min_blocks` to that entry, so ptxas caps its registers at 65536 / (threads · min_blocks)
#    (e.g. 128 for 256 threads × 2 blocks per SM). The host launches exactly `threads` threads. A fourth
#    field `cluster` adds `.reqnctapercluster cluster, 1, 1`: the entry runs in clusters of that many
#    blocks along x (CUDA C's `__cluster_dims__`), whatever launch call starts it.
bounds="${TESSERA_LAUNCH_BOUNDS:-}"
[ -f "$bounds" ] || die "TESSERA_LAUNCH_BOUNDS must name the launch-bounds file (host/build.rs writes it from the catalogue)"
{
  awk -v bounds="$bounds" '
    BEGIN { while ((getline line < bounds) > 0) { if (line ~ /^[a-z_0-9]+ [0-9]+ [0-9]+( [0-9]+)?$/) { n = split(line, f, " "); nt[f[1]] = f[2]; mb[f[1]] = f[3]; if (n == 4) cl[f[1]] = f[4] } } }
    /^\.visible \.entry / { name = $3; sub(/\(.*/, "", name); pending = (name in nt) ? name : "" }
    { print }
    pending != "" && $0 ~ /^\)/ {
      printf ".maxntid %d, 1, 1\n.minnctapersm %d\n", nt[pending], mb[pending]
      if (pending in cl) printf ".reqnctapercluster %d, 1, 1\n", cl[pending]
      pending = ""
    }
  ' "$out" > "$out.bounds" && mv "$out.bounds" "$out"
}
