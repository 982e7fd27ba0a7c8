#!/usr/bin/env bash
# A private PostgreSQL cluster for the back end's tests (issue 22), on a loopback port, run as
# an unprivileged user (PostgreSQL refuses to run as root). Installs PostgreSQL from Debian's
# packages when it is missing.
#
#   source .ci/postgres.sh start   # exports READINGPREFS_TEST_DATABASE_URL and READINGPREFS_PG_STATE
#   .ci/postgres.sh stop
#
# Each start makes a folder of its own (READINGPREFS_PG_STATE), so two runs on one machine never
# remove each other's cluster; stop removes the one its environment names.
set -euo pipefail

state=${READINGPREFS_PG_STATE:-}
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
    if [ -z "$(pg_bin)" ]; then
        echo "PostgreSQL is missing: installing it from Debian's packages"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    fi
    local bin
    bin=$(pg_bin)
    if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
        useradd --system --home-dir /var/lib/postgresql --shell /bin/false postgres
    fi
    state=$(mktemp -d /tmp/readingprefs-ci-postgres.XXXXXX)
    export READINGPREFS_PG_STATE=$state
    chmod 755 "$state"
    mkdir -p "$state/data" "$state/socket"
    if [ "$(id -u)" -eq 0 ]; then chown -R postgres "$state"; fi
    as_owner "$bin/initdb" -D "$state/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    local port=55432
    while (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
    as_owner "$bin/pg_ctl" -D "$state/data" -l "$state/log" -w \
        -o "-p $port -k $state/socket -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres readingprefs_test
    echo "$port" >"$state/port"
    export READINGPREFS_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/readingprefs_test"
    echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
}

stop() {
    local bin
    bin=$(pg_bin)
    [ -n "$bin" ] && [ -n "$state" ] && [ -d "$state/data" ] || return 0
    as_owner "$bin/pg_ctl" -D "$state/data" -m fast -w stop >/dev/null || true
    rm -rf "$state"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    *) echo "usage: .ci/postgres.sh start|stop" >&2; exit 2 ;;
esac
