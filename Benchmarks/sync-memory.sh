#!/usr/bin/env bash
# Issue 19's memory goal: reading a replica file of N keys (or N high-water marks) takes at most
# 4× the file's size. Peak heap with valgrind --tool=massif, in a process that only reads the
# file (CallgrindProbe read-large), less the heap of reading an empty file (the process itself).
#
#   ./sync-memory.sh
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "valgrind is required (apt-get install valgrind)" >&2; exit 1; }
swift build -c release --product CallgrindProbe >&2
probe=$(swift build -c release --show-bin-path)/CallgrindProbe
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

peak() { # file
    valgrind --tool=massif --massif-out-file="$work/massif" "$probe" read-large "$1" >/dev/null 2>&1
    grep -o 'mem_heap_B=[0-9]*' "$work/massif" | cut -d= -f2 | sort -n | tail -1
}

"$probe" write-large keys 0 "$work/empty.json"
base=$(peak "$work/empty.json")
printf '| file | size (bytes) | peak heap reading it (bytes) | ratio to the size |\n|---|---:|---:|---:|\n'
for shape in keys high-water-marks; do
    for count in 1000 10000 100000; do
        "$probe" write-large "$shape" "$count" "$work/big.json"
        size=$(stat -c %s "$work/big.json")
        heap=$(( $(peak "$work/big.json") - base ))
        awk -v s="$shape" -v c="$count" -v size="$size" -v heap="$heap" \
            'BEGIN { printf "| %s %d | %d | %d | %.2f× |\n", s, c, size, heap, heap / size }'
    done
done
