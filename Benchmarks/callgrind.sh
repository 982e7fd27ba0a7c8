#!/usr/bin/env bash
# Instruction counts per call, with valgrind --tool=callgrind: a cross-check of the paired
# ratios that does not depend on the machine's speed (repeatable to about 0.001 %).
#
#   ./callgrind.sh                          # table: instructions per call and ratio to A
#   ./callgrind.sh annotate OP DOC [N]      # where OP's instructions go (inclusive, top N)
#
# OP: A decode decode+resolve decode+resolve+css css edit resolve values+resolve encode validate
# DOC: 12-key 2-key 27+100 27+1000 27+10000 adversarial-1MB, optionally followed by the book the
# resolver knows: .en .ar-rtl .ja-rtl (12-key.en). The table prints every row of the
# benchmarks but the store's and sync's (which do I/O). ITERATIONS (default 2000) calls are collected per run, after a warm-up,
# inside CallgrindProbe's probeMeasuredLoop only (--toggle-collect), so start-up and
# one-time set-up are excluded and instructions per call = collected / ITERATIONS.
set -euo pipefail
cd "$(dirname "$0")"

ITERATIONS=${ITERATIONS:-2000}
# Operations that do not resolve run once per document; the others also against each book.
PLAIN=(decode encode)
RESOLVING=(decode+resolve decode+resolve+css css edit resolve values+resolve)
PUBLICATIONS=("" .en .ar-rtl .ja-rtl)
DOCUMENTS=(12-key 2-key)
# The large documents (issue 14): fewer calls, same per-call counts.
WIDE=(27+100 27+1000 27+10000)
declare -A WIDE_ITERATIONS=([27+100]=200 [27+1000]=20 [27+10000]=4)

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

row() { # operation row-name instructions A-instructions iterations
    awk -v op="$1" -v doc="$2" -v n="$3" -v a="$4" -v it="$5" \
        'BEGIN { printf "| %s | %s | %d | %.3f× |\n", op, doc, n / it, n / a }'
}

printf '| operation | document | instructions/call | ratio to A |\n|---|---|---:|---:|\n'
for doc in "${DOCUMENTS[@]}"; do
    a=$(collect A "$doc" "$ITERATIONS" "$work/A")
    row A "$doc" "$a" "$a" "$ITERATIONS"
    for op in "${PLAIN[@]}"; do
        row "$op" "$doc" "$(collect "$op" "$doc" "$ITERATIONS" "$work/op")" "$a" "$ITERATIONS"
    done
    for op in "${RESOLVING[@]}"; do
        for publication in "${PUBLICATIONS[@]}"; do
            n=$(collect "$op" "$doc$publication" "$ITERATIONS" "$work/op")
            row "$op" "$doc$publication" "$n" "$a" "$ITERATIONS"
        done
    done
done
for doc in "${WIDE[@]}"; do
    it=${WIDE_ITERATIONS[$doc]}
    a=$(collect A "$doc" "$it" "$work/A")
    row A "$doc" "$a" "$a" "$it"
    row decode "$doc" "$(collect decode "$doc" "$it" "$work/op")" "$a" "$it"
    row decode+resolve+css "$doc.en" "$(collect decode+resolve+css "$doc.en" "$it" "$work/op")" "$a" "$it"
    row encode "$doc" "$(collect encode "$doc" "$it" "$work/op")" "$a" "$it"
done
