#!/usr/bin/env bash
# Instruction counts per call, with valgrind --tool=callgrind: a cross-check of the paired
# ratios that does not depend on the machine's speed (repeatable to about 0.001 %).
#
#   ./callgrind.sh                          # table: instructions per call and ratio to A
#   ./callgrind.sh annotate OP DOC [N]      # where OP's instructions go (inclusive, top N)
#
# OP: A decode decode+resolve decode+resolve+css css edit resolve values+resolve encode
# DOC: 12-key 2-key. ITERATIONS (default 2000) calls are collected per run, after a warm-up,
# inside CallgrindProbe's probeMeasuredLoop only (--toggle-collect), so start-up and
# one-time set-up are excluded and instructions per call = collected / ITERATIONS.
set -euo pipefail
cd "$(dirname "$0")"

ITERATIONS=${ITERATIONS:-2000}
OPERATIONS=(A decode decode+resolve decode+resolve+css css edit resolve values+resolve encode)
DOCUMENTS=(12-key 2-key)

# Swift seeds Dictionary hashing per process; JSONSerialization and the catalogue look-ups hash,
# so fix the seed to make counts repeat exactly.
export SWIFT_DETERMINISTIC_HASHING=1
command -v valgrind >/dev/null || { echo "valgrind is required (apt-get install valgrind)" >&2; exit 1; }
swift build -c release --product CallgrindProbe >&2
probe=$(swift build -c release --show-bin-path)/CallgrindProbe
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs the probe under callgrind; prints the collected instruction count.
collect() { # operation document iterations outfile
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*probeMeasuredLoop*' \
        --callgrind-out-file="$4" "$probe" "$1" "$2" "$3" 2>"$4.log" >/dev/null
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$4.log"
}

if [[ ${1:-} == annotate ]]; then
    op=${2:?operation}; doc=${3:?document}; top=${4:-40}
    collect "$op" "$doc" "$ITERATIONS" "$work/out" >/dev/null
    demangle() { if command -v swift-demangle >/dev/null; then swift-demangle --simplified; else swift demangle --simplified; fi; }
    echo "== $op on $doc: inclusive instructions, $ITERATIONS calls =="
    callgrind_annotate --inclusive=yes --threshold=100 "$work/out" 2>/dev/null \
        | demangle | sed -n '/^Ir/,$p' | head -n "$((top + 2))"
    exit 0
fi

printf '| operation | document | instructions/call | ratio to A |\n|---|---|---:|---:|\n'
for doc in "${DOCUMENTS[@]}"; do
    a=$(collect A "$doc" "$ITERATIONS" "$work/A")
    for op in "${OPERATIONS[@]}"; do
        if [[ $op == A ]]; then n=$a; else n=$(collect "$op" "$doc" "$ITERATIONS" "$work/op"); fi
        awk -v op="$op" -v doc="$doc" -v n="$n" -v a="$a" -v it="$ITERATIONS" \
            'BEGIN { printf "| %s | %s | %d | %.3f× |\n", op, doc, n / it, n / a }'
    done
done
