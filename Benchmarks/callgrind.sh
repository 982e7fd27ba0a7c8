#!/usr/bin/env bash
# Instruction counts per call, with valgrind --tool=callgrind: a cross-check of the paired
# ratios that does not depend on the machine's speed (repeatable to about 0.001 %).
#
#   ./callgrind.sh                          # table: instructions per call and ratio to A
#   ./callgrind.sh annotate OP DOC [N]      # where OP's instructions go (inclusive, top N)
#   ./callgrind.sh store                    # the store's edits and the journal's reads (issue 35)
#   ./callgrind.sh rules                    # resolution with two more layers and 20 rules (issue 36)
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

# The store's rows do I/O on threads of their own, so --toggle-collect (one thread's calls) would
# miss most of their work: every thread is counted from the start, for two numbers of calls, and
# the difference is divided by the calls it adds, which leaves out start-up and set-up. Counts
# are of user-space instructions only: the kernel's work in system calls (the flushes) is not in
# them, which is what makes them the CPU part of a row whose time is mostly two fsyncs.
total() { # outfile probe-arguments...
    local out=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file="$out" "$probe" "$@" 2>"$out.log" >/dev/null
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out.log"
}
per_call() { # low high probe-arguments-before-the-count... (the count is appended)
    local low=$1 high=$2
    shift 2
    local a b
    a=$(total "$work/low" "$@" "$low")
    b=$(total "$work/high" "$@" "$high")
    echo $(((b - a) / (high - low)))
}

# Resolution with the device-class and this-device layers and 20 profile rules (issue 36): the
# 12-key document as the base, two small layers over it, an English book, against a bare parse of
# the same three documents. Goal: at most 0.4×.
if [[ ${1:-} == rules ]]; then
    n=$(collect layered 12-key.en "$ITERATIONS" "$work/op")
    a=$(collect layered-bare 12-key.en "$ITERATIONS" "$work/A")
    printf '| operation | instructions/call | bare parse (instructions/call) | ratio |\n|---|---:|---:|---:|\n'
    awk -v n="$n" -v a="$a" -v it="$ITERATIONS" \
        'BEGIN { printf "| layers+rules+resolve+css 12-key.en | %d | %d | %.3f× |\n", n / it, a / it, n / a }'
    # The rules alone: instructions per evaluation of the 20, and the allocator's instructions
    # inside the measured loop, which must be none.
    r=$(collect rules-only 20-rules "$ITERATIONS" "$work/rules")
    allocations=$(callgrind_annotate --inclusive=yes --threshold=100 "$work/rules" 2>/dev/null \
        | { grep -E ':(malloc|calloc|realloc|swift_slowAlloc|swift_allocObject) ' || true; } \
        | awk '{ gsub(",", "", $1); s += $1 } END { print s + 0 }')
    printf '\n20 rules, the last holding: %d instructions an evaluation; instructions inside the allocator: %d\n' \
        "$((r / ITERATIONS))" "$allocations"
    exit 0
fi

if [[ ${1:-} == store ]]; then
    bare=$(per_call 20 220 store-loop bare)
    bare_two=$(per_call 20 220 store-loop bare-two)
    printf '| row | instructions/call | bare (instructions/call) | ratio |\n|---|---:|---:|---:|\n'
    for kind in no-journal journal journal-at-bound two-documents.no-journal two-documents; do
        case $kind in
            two-*) base=$bare_two ;;
            journal-at-bound) ;;
            *) base=$bare ;;
        esac
        if [[ $kind == journal-at-bound ]]; then
            n=$(per_call 4 14 store-loop "$kind")
        else
            n=$(per_call 20 220 store-loop "$kind")
        fi
        awk -v k="$kind" -v n="$n" -v b="$base" 'BEGIN { printf "| store-edit %s | %d | %d | %.1f× |\n", k, n, b, n / b }'
    done
    printf '\n| row | entries | instructions/call | per entry | bare parse (instructions/call) | ratio |\n|---|---:|---:|---:|---:|---:|\n'
    for spec in "why 20 8 40" "why 200 4 20" "why 2000 1 5" "history 100 4 20" "history 1000 1 5" "history 10000 1 3"; do
        read -r what count low high <<<"$spec"
        op=$(per_call "$low" "$high" journal-loop "$what" "$count")
        parse=$(per_call "$low" "$high" journal-bare "$what" "$count")
        entries=$(sed -n 's/.*: \([0-9]*\) entries.*/\1/p' <("$probe" journal-bare "$what" "$count" 0))
        awk -v w="$what.$count" -v e="$entries" -v n="$op" -v p="$parse" \
            'BEGIN { printf "| %s | %d | %d | %d | %d | %.2f× |\n", w, e, n, n / e, p, n / p }'
    done
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
