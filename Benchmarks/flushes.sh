#!/usr/bin/env bash
# Flushes per call of the store's edits and of the bare durable writes they are paired with,
# counted with strace (Specs/Store.md §6.3, §14.1): each kind runs CallgrindProbe store-loop
# with LOW and HIGH calls, and the difference over HIGH - LOW is the count per call, so the
# set-up (a replica's identity, the warm-up) is left out.
#
#   ./flushes.sh             # fsync and fdatasync per call, for every kind
#   ./flushes.sh syscalls    # every system call per call (strace -c), for every kind
set -euo pipefail
cd "$(dirname "$0")"

LOW=${LOW:-20}
HIGH=${HIGH:-120}
KINDS=(bare bare-two no-journal journal two-documents.no-journal two-documents)
command -v strace >/dev/null || { echo "strace is required (apt-get install strace)" >&2; exit 1; }
swift build -c release --product CallgrindProbe >&2
probe=$(swift build -c release --show-bin-path)/CallgrindProbe
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Prints "syscall calls" for every system call of one run, every thread followed.
counts() { # kind calls
    strace -f -qq -c -o "$work/trace" "$probe" store-loop "$1" "$2" >/dev/null
    # Columns: % time, seconds, usecs/call, calls, [errors], syscall.
    awk '$NF != "total" && $4 ~ /^[0-9]+$/ { print $NF, $4 }' "$work/trace" | sort
}

# Prints "syscall per-call" for the calls HIGH - LOW added.
per_call() { # kind
    counts "$1" "$LOW" >"$work/low"
    counts "$1" "$HIGH" >"$work/high"
    join -a 2 -e 0 -o 0,1.2,2.2 "$work/low" "$work/high" \
        | awk -v n=$((HIGH - LOW)) '{ d = ($3 - $2) / n; if (d >= 0.05) printf "%s %.2f\n", $1, d }'
}

if [[ ${1:-} == syscalls ]]; then
    for kind in "${KINDS[@]}"; do
        echo "== $kind: system calls per call =="
        per_call "$kind"
    done
    exit 0
fi

printf '| kind | flushes per call (fsync + fdatasync) |\n|---|---:|\n'
for kind in "${KINDS[@]}"; do
    flushes=$(per_call "$kind" | awk '$1 == "fsync" || $1 == "fdatasync" { sum += $2 } END { printf "%.2f", sum }')
    printf '| %s | %s |\n' "$kind" "$flushes"
done
