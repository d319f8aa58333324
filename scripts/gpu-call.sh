# Sourced by a device call's script (docs/results/*/call*.sh), after the bundle is unpacked into .gpu/:
#     source .gpu/gpu-call.sh <name>        # results under $OUT/<name>, BUDGET seconds in all (default 580)
# gives `left` (seconds of the budget left) and `run LIMIT CMD…` (CMD under `timeout`, at most LIMIT seconds
# and never past the budget; skipped, and recorded in skipped.txt, once less than 15 s are left), and writes
# device.txt (the bundle's commit, the date, the GPU).
R=$OUT/$1; mkdir -p "$R"
T0=$(date +%s)
left() { echo $(( ${BUDGET:-580} - ($(date +%s) - T0) )); }
run() {
  local lim=$1; shift
  local l; l=$(left)
  [ "$l" -lt 15 ] && { echo "SKIPPED (no time): $*" | tee -a "$R/skipped.txt"; return 99; }
  [ "$lim" -gt "$l" ] && lim=$l
  timeout --kill-after=5 "$lim" "$@"
}
{ cat .gpu/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } > "$R/device.txt" 2>&1
