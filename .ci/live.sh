#!/usr/bin/env bash
# Two readingprefs-server instances on one PostgreSQL cluster behind Debian's haproxy, on the
# loopback (Specs/Server.md §9.3): an edit through one instance reaches a stream held through the
# other, the listeners killed by PostgreSQL come back and their streams converge, a revoked
# device is refused through both, the stream bound holds through the balancer, `readingprefs sync
# --watch` follows and stops on Ctrl-C (Server/Tests/Live/test_live.py); then Schemathesis drives
# the balancer from Server/openapi.json; last, both instances, holding streams, stop on SIGTERM
# with status 0 within 10 seconds. Logs go to Server/.build/live/.
#
#   .ci/live.sh     (after `source .ci/postgres.sh start` and the debug builds of Server/ and the CLI)
set -euo pipefail
cd "$(dirname "$0")/.."
: "${READINGPREFS_TEST_DATABASE_URL:?start PostgreSQL first: source .ci/postgres.sh start}"
out=Server/.build/live
rm -rf "$out"
mkdir -p "$out"
started=$(date +%s)

if ! command -v haproxy >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null \
        || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null; }
fi

database=$READINGPREFS_TEST_DATABASE_URL
server=Server/.build/debug/readingprefs-server
first=$("$server" add-user "live-a-$$" --database-url "$database" | awk '/^token /{print $2}')
second=$("$server" add-user "live-b-$$" --database-url "$database" | awk '/^token /{print $2}')
[ -n "$first" ] && [ -n "$second" ] || { echo "add-user printed no token" >&2; exit 1; }

# shellcheck source=serve.sh
source .ci/serve.sh
serve "$out/a.log" --database-url "$database"
a_pid=$pid a_url=$url
serve "$out/b.log" --database-url "$database"
b_pid=$pid b_url=$url

port=18700
while (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
# Round robin, each answer naming its instance; timeouts longer than the streams' 15 s heartbeat;
# http-no-delay, or haproxy holds a stream's small writes back (MSG_MORE) up to 200 ms each.
cat >"$out/haproxy.cfg" <<CFG
global
    maxconn 2000
defaults
    mode http
    option http-no-delay
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout http-request 10s
frontend readers
    bind 127.0.0.1:$port
    default_backend instances
backend instances
    balance roundrobin
    option httpchk GET /readyz
    http-response set-header X-Instance %[srv_name]
    server a ${a_url#http://} check inter 2s
    server b ${b_url#http://} check inter 2s
CFG
haproxy -c -q -f "$out/haproxy.cfg"
haproxy -db -f "$out/haproxy.cfg" >"$out/haproxy.log" 2>&1 &
haproxy_pid=$!
stop() { kill "$a_pid" "$b_pid" "$haproxy_pid" 2>/dev/null || true; }
trap stop EXIT
balancer="http://127.0.0.1:$port"
# The balancer answers once both instances pass its check.
curl -sf --retry 20 --retry-connrefused --retry-delay 1 -o /dev/null "$balancer/readyz"

READINGPREFS_BALANCER=$balancer READINGPREFS_INSTANCES="$a_url $b_url" READINGPREFS_TOKENS="$first $second" \
    READINGPREFS_DATABASE=$database READINGPREFS_CLI=$(pwd)/.build/debug/readingprefs \
    python3 Server/Tests/Live/test_live.py

CONTRACT_URL=$balancer CONTRACT_TOKEN=$first .ci/contract.sh postgres-balanced

# Graceful shutdown with open streams: each instance stops with status 0 within 10 s. The
# stream files are made first, so `tail` never looks before a background `curl` has made one.
: >"$out/a-stream.txt"
: >"$out/b-stream.txt"
curl -sN -H "Authorization: Bearer $first" "$a_url/v1/events" >"$out/a-stream.txt" &
curl -sN -H "Authorization: Bearer $first" "$b_url/v1/events" >"$out/b-stream.txt" &
for f in a b; do timeout 10 grep -q ": open" <(tail -f "$out/$f-stream.txt") || { echo "no stream on $f" >&2; exit 1; }; done
trap - EXIT
kill "$haproxy_pid"
kill -TERM "$a_pid" "$b_pid"
for one in "$a_pid" "$b_pid"; do
    timeout 10 tail --pid="$one" -f /dev/null || { echo "an instance holding a stream did not stop within 10 s" >&2; kill -KILL "$one"; exit 1; }
    wait "$one" || { echo "an instance exited with status $? after SIGTERM" >&2; exit 1; }
done
wait
echo "live: two instances behind haproxy passed; both stopped gracefully with streams open ($(($(date +%s) - started)) s)"
