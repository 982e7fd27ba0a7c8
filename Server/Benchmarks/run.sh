#!/usr/bin/env bash
# Load figures of the back end (issue 22): wrk on loopback against readingprefs-server (release)
# on each storage, with the baseline routes of the same binary (--benchmark-baselines) measured
# in the same run, interleaved, round after round. Prints a Markdown table of medians.
#
#   Benchmarks/run.sh                       # SQLite; PostgreSQL too when READINGPREFS_TEST_DATABASE_URL is set
#   ROUNDS=5 DURATION=5 CONNECTIONS=16 Benchmarks/run.sh
#   ROWS="baseline-select-update patch-one-key" Benchmarks/run.sh   # some rows (name their baselines too)
#   SERVER_ARGS="--write-group-limit 1" Benchmarks/run.sh           # more options for the server
#   STORAGES=postgres Benchmarks/run.sh                             # one storage
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }

rounds=${ROUNDS:-5}
# Replica ids belong to the first account that pushes with them: one set per run.
run_id=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
duration=${DURATION:-5}
connections=${CONNECTIONS:-16}
threads=${THREADS:-2}
swift build -c release --product readingprefs-server >/dev/null
binary="$(swift build -c release --show-bin-path)/readingprefs-server"
out=$(mktemp -d)
trap 'kill $(cat "$out"/*.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$out"' EXIT

# The rows: name, path, extra wrk arguments.
rows=(
    "baseline-json|/v1/bench/json|"
    "baseline-row|/v1/bench/row|"
    "settings|/v1/epub/publications/book-1/settings?language=en|"
    "settings-304|/v1/epub/publications/book-1/settings?language=en|ETAG"
    "css|/v1/epub/publications/book-1/css?language=en|"
    "baseline-select-update|/v1/bench/select-update|-s Benchmarks/update.lua"
    "patch-one-key|/v1/epub/preferences/shared|-s Benchmarks/patch.lua"
    "push-20-entries|/v1/sync/push|-s Benchmarks/push.lua"
)

# ROWS picks rows by name; a ratio is given when its baseline is among them.
if [ -n "${ROWS:-}" ]; then
    picked=()
    for row in "${rows[@]}"; do
        name=${row%%|*}
        case " $ROWS " in *" $name "*) picked+=("$row") ;; esac
    done
    rows=("${picked[@]}")
fi

measure() { # storage port token etag
    local storage=$1 port=$2 token=$3 etag=$4
    for round in $(seq 1 "$rounds"); do
        for row in "${rows[@]}"; do
            IFS='|' read -r name path extra <<<"$row"
            local args=(-t "$threads" -c "$connections" -d "${duration}s" --latency -H "Authorization: Bearer $token")
            if [ "$extra" = "ETAG" ]; then
                # The ETag as it is now (the patch rows of earlier rounds changed shared).
                etag=$(curl -sf -D - -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:$port$path" \
                    | awk 'tolower($1) == "etag:" {print $2}' | tr -d '\r')
                args+=(-H "If-None-Match: $etag")
                status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" \
                    -H "If-None-Match: $etag" "http://127.0.0.1:$port$path")
                [ "$status" = 304 ] || echo "warning: the 304 row answers $status" >&2
            elif [ -n "$extra" ]; then
                # shellcheck disable=SC2206
                args+=($extra)
            fi
            REPLICA="bench-$run_id-$round" wrk "${args[@]}" "http://127.0.0.1:$port$path" >"$out/$storage.$name.$round" 2>&1
        done
    done
}

# wrk's latency (850.00us, 1.20ms, 2.01s) in milliseconds.
ms() {
    awk '{v = $1; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v)
          if (u == "us") v /= 1000; else if (u == "s") v *= 1000; else if (u == "m") v *= 60000
          printf "%.2f\n", v}'
}

summary() { # storage
    local storage=$1
    echo
    echo "### $storage ($rounds rounds of ${duration} s, $connections connections, $threads threads; medians)"
    echo
    echo "| row | requests/s | p50 | p99 | errors | ratio | p99 ratio | goal |"
    echo "|---|---:|---:|---:|---:|---:|---:|---|"
    for row in "${rows[@]}"; do
        IFS='|' read -r name _ _ <<<"$row"
        local rps p50 p99 errors
        rps=$(for f in "$out/$storage.$name".*; do awk '/Requests\/sec/ {print $2}' "$f"; done | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        p50=$(for f in "$out/$storage.$name".*; do awk '$1 == "50%" {print $2}' "$f" | ms; done | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        p99=$(for f in "$out/$storage.$name".*; do awk '$1 == "99%" {print $2}' "$f" | ms; done | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        errors=$(cat "$out/$storage.$name".* | awk '/Non-2xx or 3xx responses/ {n += $5} /Socket errors/ {gsub(",", ""); n += $4 + $6 + $8 + $10} END {print n + 0}')
        echo "$name $rps $p99" >>"$out/$storage.rps"
        local ratio="" p99ratio="" goal="" baseline=""
        ratio_of() { # requests/s, baseline row
            awk -v a="$1" -v n="$2" '$1 == n {b = $2} END {if (b > 0) printf "%.0f%%", 100 * a / b}' "$out/$storage.rps"
        }
        p99_ratio_of() { # p99 in ms, baseline row
            awk -v a="$1" -v n="$2" '$1 == n {b = $3} END {if (b > 0) printf "%.2f×", a / b}' "$out/$storage.rps"
        }
        case $name in
            settings) goal="≥ 70% of baseline-row"; baseline=baseline-row ;;
            settings-304) goal="≥ 90% of baseline-row"; baseline=baseline-row ;;
            css) goal="≥ 65% of baseline-row"; baseline=baseline-row ;;
            patch-one-key) goal="≥ 60% of baseline-select-update"; baseline=baseline-select-update ;;
            push-20-entries) goal="≥ 30% of baseline-row"; baseline=baseline-row ;;
        esac
        if [ -n "$baseline" ]; then
            ratio=$(ratio_of "$rps" "$baseline")
            p99ratio=$(p99_ratio_of "$p99" "$baseline")
            # Issue 28: the p99 of the reads, and of the PATCH, within 2× of their baseline's.
            case $name in settings | settings-304 | css | patch-one-key) goal="$goal; p99 ≤ 2×" ;; esac
        fi
        echo "| $name | $rps | ${p50}ms | ${p99}ms | $errors | $ratio | $p99ratio | $goal |"
    done
}

run_storage() { # storage args...
    local storage=$1
    shift
    local port=$((18400 + RANDOM % 500))
    local data="$out/data-$storage"
    local token
    token=$("$binary" add-user "bench-$run_id" --data-dir "$data" "$@" | awk '/^token/ {print $2}')
    # shellcheck disable=SC2086
    "$binary" --port "$port" --data-dir "$data" --benchmark-baselines "$@" ${SERVER_ARGS:-} >"$out/$storage.log" 2>&1 &
    echo $! >"$out/$storage.pid"
    for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
    # A shared document, four books, and the settings ETag for the 304 row.
    curl -sf -X PUT -H "Authorization: Bearer $token" -H "If-None-Match: *" \
        -d '{"fontSize":1.2,"theme":"sepia","lineHeight":1.5}' "http://127.0.0.1:$port/v1/epub/preferences/shared" >/dev/null
    for i in 0 1 2 3; do
        curl -sf -X PATCH -H "Authorization: Bearer $token" -d '{"readingProgression":"ltr"}' \
            "http://127.0.0.1:$port/v1/epub/preferences/publications/book-$i" >/dev/null
    done
    local etag
    etag=$(curl -sf -D - -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:$port/v1/epub/publications/book-1/settings?language=en" \
        | awk 'tolower($1) == "etag:" {print $2}' | tr -d '\r')
    measure "$storage" "$port" "$token" "$etag"
    kill "$(cat "$out/$storage.pid")"
    rm -f "$out/$storage.pid"
    summary "$storage"
}

echo "## Load, $(date -u +%Y-%m-%d), $(nproc) cores, wrk on loopback"
storages=${STORAGES:-sqlite postgres}
case " $storages " in *" sqlite "*) run_storage sqlite ;; esac
if [ -n "${READINGPREFS_TEST_DATABASE_URL:-}" ]; then
    case " $storages " in *" postgres "*) run_storage postgres --database-url "$READINGPREFS_TEST_DATABASE_URL" ;; esac
fi
