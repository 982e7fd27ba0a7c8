#!/usr/bin/env bash
# The back end's HTTP contract, checked by tools nobody here wrote: Server/openapi.json validated
# by openapi-spec-validator, then Schemathesis (its default checks, every phase, stateful
# included) drives a live readingprefs-server from it, seeded and bounded. The server is then
# stopped with SIGTERM and must shut down gracefully (exit 0) within 20 seconds.
#
#   .ci/contract.sh NAME [server options]   e.g.  .ci/contract.sh sqlite --data-dir DIR
#   CONTRACT_URL=URL CONTRACT_TOKEN=T .ci/contract.sh NAME   (a server already running, e.g. behind a
#                                                             balancer; it is left running)
#
# Reports (JUnit) go to Server/.build/contract/NAME/.
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1
shift
server=Server/.build/debug/readingprefs-server
reports="Server/.build/contract/$name"
rm -rf "$reports"
mkdir -p "$reports"

if [ -n "${CONTRACT_URL:-}" ]; then
    url=$CONTRACT_URL
    token=${CONTRACT_TOKEN:?CONTRACT_TOKEN goes with CONTRACT_URL}
else
    token=$("$server" add-user "contract-$name-$$" "$@" 2>"$reports/add-user.err" | awk '/^token /{print $2}')
    [ -n "$token" ] || { cat "$reports/add-user.err" >&2; echo "add-user printed no token" >&2; exit 1; }
    # add-user says nothing else: no warning of a database client used before its run loop.
    if [ -s "$reports/add-user.err" ]; then
        cat "$reports/add-user.err" >&2
        echo "add-user ($name) wrote to standard error" >&2
        exit 1
    fi

    # shellcheck source=serve.sh
    source .ci/serve.sh
    serve "$reports/server.log" "$@"
    # serve says which database it opened, first.
    head -n 1 "$reports/server.log" | grep -Eq '^readingprefs-server: (embedded SQLite database at |PostgreSQL database )' \
        || { cat "$reports/server.log" >&2; echo "serve ($name) did not say which database it opened" >&2; exit 1; }
    stop() { kill "$pid" 2>/dev/null || true; }
    trap stop EXIT
fi

status=0
schemathesis --config-file Server/Tests/Contract/schemathesis.toml run Server/openapi.json \
    --url "$url" -H "Authorization: Bearer $token" --workers 1 --seed 1 --max-examples 10 \
    --report junit,ndjson --report-junit-path "$reports/junit.xml" --report-ndjson-path "$reports/events.ndjson" >"$reports/schemathesis.txt" 2>&1 || status=$?
tail -n 25 "$reports/schemathesis.txt"
[ "$status" -eq 0 ] || { echo "Schemathesis found failures ($name): $reports/schemathesis.txt" >&2; exit 1; }

if [ -n "${CONTRACT_URL:-}" ]; then
    echo "contract ($name): no failure"
    exit 0
fi

# Graceful shutdown: SIGTERM drains the server and closes the database; exit status 0.
trap - EXIT
kill -TERM "$pid"
for _ in $(seq 1 200); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    echo "the server did not stop within 20 s of SIGTERM" >&2
    exit 1
fi
wait "$pid" || { echo "the server exited with status $? after SIGTERM" >&2; exit 1; }
echo "contract ($name): no failure; the server stopped gracefully on SIGTERM"
