# Sourced by the CI scripts that drive a live readingprefs-server (contract.sh, page.sh).
#
#   serve LOG [serve options]
#
# starts Server/.build/debug/readingprefs-server on a free port of the loopback, logging to LOG,
# and sets `pid` and `url` (http://127.0.0.1:PORT) once it listens; exits when it does not start.
serve() {
    local log=$1
    shift
    Server/.build/debug/readingprefs-server serve --port 0 "$@" >"$log" 2>&1 &
    pid=$!
    url=""
    for _ in $(seq 1 100); do
        url=$(sed -n 's/^readingprefs-server: listening on \(http[^ ]*\)$/\1/p' "$log")
        [ -n "$url" ] && return 0
        kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
        sleep 0.1
    done
    echo "the server did not start" >&2
    cat "$log" >&2
    exit 1
}
