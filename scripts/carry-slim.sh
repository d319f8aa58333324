#!/usr/bin/env bash
# The device tool carries the tracked tree with the bundle, 64 MiB in all; docs/results and host/ptx
# (the run needs neither: the executables embed the PTX) are most of it. `on` takes them out of the
# index and hides them for one `run` call; `off` puts the index back exactly as it was. Never commit
# between the two: `on` installs a pre-commit hook that refuses any commit until `off` (a commit made
# while on records the deletion of every result and both PTX modules, and twice one did).
#     scripts/carry-slim.sh on && <run(...)> ; scripts/carry-slim.sh off
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
exclude=$(git rev-parse --git-path info/exclude)
mark='# carry-slim'
case "${1:-}" in
  on)
    grep -q "^$mark" "$exclude" 2>/dev/null && { echo "carry-slim: already on" >&2; exit 1; }
    git diff --cached --quiet || { echo "carry-slim: staged changes; commit or unstage them first" >&2; exit 1; }
    git rm -r -q --cached docs/results host/ptx
    mkdir -p "$(dirname "$exclude")"
    printf '%s\n/docs/results/\n/host/ptx/\n' "$mark" >> "$exclude"
    hook=$(git rev-parse --git-path hooks/pre-commit)
    mkdir -p "$(dirname "$hook")"
    [ -e "$hook" ] && ! grep -q "$mark" "$hook" && { echo "carry-slim: $hook exists; not replaced" >&2; } || {
      printf '#!/bin/sh\n%s\necho "carry-slim is on: run scripts/carry-slim.sh off before committing" >&2\nexit 1\n' "$mark" > "$hook"
      chmod +x "$hook"
    }
    echo "carry-slim: tracked files now $(git ls-files -z | xargs -0 du -cb 2>/dev/null | awk '/total$/ {t += $1} END {printf "%.1f MiB", t / 1048576}')"
    ;;
  off)
    git reset -q
    [ -f "$exclude" ] && sed -i "/^$mark\$/,+2d" "$exclude"
    hook=$(git rev-parse --git-path hooks/pre-commit)
    [ -f "$hook" ] && grep -q "$mark" "$hook" && rm -f "$hook"
    git status --short | head
    ;;
  *) echo "usage: $0 on|off" >&2; exit 2 ;;
esac
