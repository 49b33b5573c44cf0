#!/usr/bin/env bash
# The fresh-clone benchmark (docs/benchmarks.md, "Fresh clone"): how long a learner waits from `swift run tour` on a
# new clone to the first frame, and then until every page and exercise is built in the background, against a
# baseline measured in the same run: `swift build` of a new one-file Foundation program.
#
# Usage: scripts/fresh-clone-benchmark.sh [ROUNDS]   (default 1; each round measures the baseline, then the clone)
# Needs tmux. It clones HEAD of this checkout into a scratch folder, so uncommitted changes are not measured, and it
# removes every folder it made. The learner's progress is kept out of it (XDG_STATE_HOME points into the scratch).
set -euo pipefail
rounds=${1:-1}
checkout=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d /tmp/tour-fresh-clone-XXXXXX)
session="tour-fresh-clone-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$scratch"' EXIT

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

baseline() {
    local package="$scratch/baseline-$1"
    mkdir -p "$package/Sources/Baseline"
    cat > "$package/Package.swift" <<'EOF'
// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "Baseline", targets: [.executableTarget(name: "Baseline")])
EOF
    printf 'import Foundation\nprint(Date())\n' > "$package/Sources/Baseline/main.swift"
    local start; start=$(now)
    swift build --package-path "$package" >/dev/null 2>&1
    seconds "$start" "$(now)"
}

# Waits until the pane's screen matches the extended regex $1 (or, with "!", no longer matches it), polling every
# 0.1 s; prints the time it saw it.
wait_for() {
    local negate=false pattern=$1
    [[ $pattern == !* ]] && { negate=true; pattern=${pattern#!}; }
    while :; do
        local screen; screen=$(tmux capture-pane -p -t "$session" 2>/dev/null || true)
        if $negate; then
            grep -Eq "$pattern" <<<"$screen" || break
        else
            grep -Eq "$pattern" <<<"$screen" && break
        fi
        sleep 0.1
    done
    now
}

echo "| round | load at start (1/5/15 min) | baseline swift build (s) | first frame (s) | ratio | every page and exercise built, after the first frame (s) | the note said |"
echo "|---|---|---|---|---|---|---|"
for round in $(seq 1 "$rounds"); do
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    base=$(baseline "$round")
    clone="$scratch/clone-$round"
    git clone --quiet "$checkout" "$clone"
    mkdir -p "$scratch/state-$round"
    start=$(now)
    tmux new-session -d -s "$session" -x 120 -y 40 \
        "cd '$clone' && XDG_STATE_HOME='$scratch/state-$round' swift run tour; sleep 600"
    # The box of the list of pages: only the interface draws it.
    framed=$(wait_for '─ Pages ─')
    note=$(tmux capture-pane -p -t "$session" | grep -Eo 'Ready in [0-9]+ s' | head -1 || true)
    built=$(wait_for '! [0-9]+/[0-9]+ built')
    first=$(seconds "$start" "$framed")
    ratio=$(awk -v a="$first" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
    echo "| $round | $load | $base | $first | $ratio | $(seconds "$framed" "$built") | ${note:-none} |"
    tmux kill-session -t "$session"
    rm -rf "$clone"
done
