#!/usr/bin/env bash
# The live changes' figures (issue 38, Specs/Server.md §9), on loopback against the release
# readingprefs-server on PostgreSQL (READINGPREFS_TEST_DATABASE_URL), in one run:
#
# 1. Two instances: one holds a stream, 200 edits (one-key PATCHes, one after another) go through
#    the other; for each, the time from sending the edit, and from its answer, to its event on the
#    stream. The edit commits between the two, so they bound the time from commit to event.
# 2. One instance: settings throughput (wrk, as run.sh's `settings` row) with no stream open,
#    then with 1,000 streams held open (63 accounts, 16 each), round after round (the ratio is the
#    median of each round's, the two halves of a round being next to each other in time);
#    resident memory (VmRSS) before and after the streams open (the first round's is the cost of
#    new streams; later rounds reuse what the first one's left free).
#
#   READINGPREFS_TEST_DATABASE_URL=postgres://... Benchmarks/live.sh
#   EDITS=200 STREAMS=1000 ROUNDS=6 DURATION=8 Benchmarks/live.sh   # the defaults
set -euo pipefail
cd "$(dirname "$0")/.."
: "${READINGPREFS_TEST_DATABASE_URL:?a PostgreSQL database: source ../.ci/postgres.sh start}"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }
database=$READINGPREFS_TEST_DATABASE_URL
edits=${EDITS:-200}
streams=${STREAMS:-1000}
rounds=${ROUNDS:-6}
duration=${DURATION:-8}
swift build -c release --product readingprefs-server >/dev/null
binary="$(swift build -c release --show-bin-path)/readingprefs-server"
out=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; exec 3>&- 2>/dev/null || true; rm -rf "$out"' EXIT
ulimit -n 8192

start() { # name -> sets port
    port=$((18800 + RANDOM % 400))
    "$binary" --port "$port" --database-url "$database" >"$out/$1.log" 2>&1 &
    pids+=($!)
    eval "${1}_pid=$!"
    for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && return 0; sleep 0.1; done
    echo "the server did not start" >&2
    exit 1
}
token() { "$binary" add-user "live-bench-$RANDOM$RANDOM" --allow-taken-name --database-url "$database" | awk '/^token/{print $2}'; }
quantiles() { # JSON list on stdin -> "p50 p95" in ms
    python3 -c 'import json,sys,statistics as s
v=sorted(json.load(sys.stdin)); q=lambda p: v[min(len(v)-1, round(p*(len(v)-1)))]
print(f"{s.median(v):.1f} {q(0.95):.1f} {min(v):.1f} {max(v):.1f}")'
}
rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }

echo "## Live changes, $(date -u +%Y-%m-%d), $(nproc) cores, loopback, release build, PostgreSQL"

# 1. Latency across instances.
start edits
edit_url="http://127.0.0.1:$port"
start held
held_url="http://127.0.0.1:$port"
author=$(token)
python3 Benchmarks/live.py latency "$edit_url" "$held_url" "$author" "$edits" >"$out/latency.json"
read -r sent50 sent95 sentmin sentmax < <(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["sent"]))' "$out/latency.json" | quantiles)
read -r ans50 ans95 ansmin ansmax < <(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["answered"]))' "$out/latency.json" | quantiles)
echo
echo "### An edit through one instance, its event on a stream held through the other ($edits edits)"
echo
echo "| from | p50 | p95 | min | max | goal |"
echo "|---|---:|---:|---:|---:|---|"
echo "| the edit sent (bound above the commit) | ${sent50} ms | ${sent95} ms | ${sentmin} ms | ${sentmax} ms | p95 ≤ 250 ms |"
echo "| the edit's answer (bound below the commit) | ${ans50} ms | ${ans95} ms | ${ansmin} ms | ${ansmax} ms | |"
kill "$edits_pid" "$held_pid"
wait "$edits_pid" "$held_pid" 2>/dev/null || true

# 2. One instance holding streams.
start one
url="http://127.0.0.1:$port"
for _ in $(seq 1 $(((streams + 15) / 16))); do token; done >"$out/tokens"
reader=$(token)
curl -sf -X PUT -H "Authorization: Bearer $reader" -H "If-None-Match: *" \
    -d '{"fontSize":1.2,"theme":"sepia","lineHeight":1.5}' "$url/v1/epub/preferences/shared" >/dev/null
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; } # the process's user and system time, in clock ticks
settings() { # -> "requests/s server-µs-of-CPU-per-request"
    local ticks result
    ticks=$(cpu "$one_pid")
    result=$(wrk -t 2 -c 16 -d "${duration}s" -H "Authorization: Bearer $reader" \
        "$url/v1/epub/publications/book-1/settings?language=en")
    awk -v t0="$ticks" -v t1="$(cpu "$one_pid")" -v hz="$(getconf CLK_TCK)" '
        /requests in/ {n = $1} /Requests\/sec/ {r = $2}
        END {printf "%s %.0f\n", r, (t1 - t0) / hz * 1e6 / n}' <<<"$result"
}
settings >/dev/null # warm up
echo
echo "### One instance, settings throughput and memory with $streams streams open ($rounds rounds of ${duration} s)"
echo
echo "| round | requests/s, no stream | requests/s, $streams streams | ratio | server CPU per request, no stream | with $streams | VmRSS before | VmRSS with | per stream |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for round in $(seq 1 "$rounds"); do
    read -r none none_cpu < <(settings)
    before=$(rss "$one_pid")
    rm -f "$out/hold.in" "$out/hold.out"
    mkfifo "$out/hold.in"
    python3 Benchmarks/live.py hold "$url" "$out/tokens" "$streams" <"$out/hold.in" >"$out/hold.out" &
    holder=$!
    exec 3>"$out/hold.in"
    timeout 120 grep -q "^ready" <(tail -f "$out/hold.out") || { echo "the streams did not open" >&2; exit 1; }
    with_rss=$(rss "$one_pid")
    read -r with with_cpu < <(settings)
    exec 3>&-
    wait "$holder" || true
    per=$(awk -v a="$before" -v b="$with_rss" -v n="$streams" 'BEGIN {printf "%.1f KiB", (b - a) / n}')
    ratio=$(awk -v a="$none" -v b="$with" 'BEGIN {printf "%.1f%%", 100 * b / a}')
    echo "| $round | $none | $with | $ratio | $none_cpu µs | $with_cpu µs | $((before / 1024)) MiB | $((with_rss / 1024)) MiB | $per |"
    echo "$none $with $none_cpu $with_cpu" >>"$out/ratios"
done
echo
python3 -c 'import sys, statistics
pairs = [line.split() for line in open(sys.argv[1])]
ratios = [100 * float(p[1]) / float(p[0]) for p in pairs]
cpu = [100 * float(p[3]) / float(p[2]) for p in pairs]
print(f"Medians over {len(pairs)} rounds, with streams to without: throughput {statistics.median(ratios):.1f}%, "
      f"server CPU per request {statistics.median(cpu):.1f}%.")' "$out/ratios"
echo
echo "After the last round's streams closed: VmRSS $(( $(rss "$one_pid") / 1024 )) MiB."
