#!/usr/bin/env python3
"""Two readingprefs-server instances on one PostgreSQL cluster behind haproxy (Specs/Server.md §9.3).

Run by .ci/live.sh, which starts the instances and the balancer and sets:
  READINGPREFS_BALANCER   http://127.0.0.1:PORT (haproxy: round robin, X-Instance names the instance)
  READINGPREFS_INSTANCES  the two instances' addresses, space-separated
  READINGPREFS_TOKENS     two accounts' tokens, space-separated
  READINGPREFS_DATABASE   the PostgreSQL address (for psql)
  READINGPREFS_CLI        the readingprefs CLI
Each scenario is a function `scenario_*`. No scenario sleeps to wait for something: each waits on
the thing itself (a socket's bytes, a process's output), with a time limit.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

BALANCER = os.environ["READINGPREFS_BALANCER"]
INSTANCES = os.environ["READINGPREFS_INSTANCES"].split()
TOKENS = os.environ["READINGPREFS_TOKENS"].split()
DATABASE = os.environ["READINGPREFS_DATABASE"]
CLI = os.environ.get("READINGPREFS_CLI", "readingprefs")
LIMIT = 10.0


def request(base, method, path, token=None, body=None, headers=None):
    """A request on a connection of its own: (status, headers, body)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=LIMIT) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


class Stream:
    """An event stream read as it comes, on a thread; waits are on its bytes, with a time limit."""

    def __init__(self, base, token=None, ticket=None):
        host, port = base.removeprefix("http://").split(":")
        self.socket = socket.create_connection((host, int(port)), timeout=LIMIT)
        self.socket.settimeout(None)
        query = f"?ticket={ticket}" if ticket else ""
        head = f"GET /v1/events{query} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.socket.sendall((head + "\r\n").encode())
        self.received = b""
        self.closed = False
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            try:
                chunk = self.socket.recv(65536)
            except OSError:
                chunk = b""
            with self.changed:
                if chunk:
                    self.received += chunk
                else:
                    self.closed = True
                self.changed.notify_all()
            if not chunk:
                return

    def wait(self, condition, what, limit=LIMIT):
        deadline = time.monotonic() + limit
        with self.changed:
            while not condition(self):
                left = deadline - time.monotonic()
                if left <= 0 or (self.closed and not condition(self)):
                    raise AssertionError(f"timed out waiting for {what}: {self.received[-600:]!r}")
                self.changed.wait(left)

    def status(self):
        line = self.received.split(b"\r\n", 1)[0].split()
        return int(line[1]) if len(line) > 1 else None

    def header(self, name):
        head = self.received.split(b"\r\n\r\n", 1)[0].decode(errors="replace")
        for line in head.split("\r\n")[1:]:
            key, _, value = line.partition(":")
            if key.strip().lower() == name.lower():
                return value.strip()
        return None

    def body(self):
        """The answer's body so far, its chunks joined when it is chunked."""
        head, _, rest = self.received.partition(b"\r\n\r\n")
        if b"transfer-encoding: chunked" not in head.lower():
            return rest
        body = b""
        while b"\r\n" in rest:
            size_text, _, rest = rest.partition(b"\r\n")
            size = int(size_text.split(b";")[0] or b"0", 16)
            if size == 0:
                break
            body += rest[:size]
            rest = rest[size + 2:]
        return body

    def events(self):
        """The ids and data of the `changed` events whole so far."""
        body = self.body().decode(errors="replace")
        found = []
        for block in body.replace("\r\n", "\n").split("\n\n")[:-1]:
            lines = block.split("\n")
            if "event: changed" in lines:
                ident = next((line[4:] for line in lines if line.startswith("id: ")), "")
                data = next((line[6:] for line in lines if line.startswith("data: ")), "")
                found.append((ident, data))
        return found

    def opened(self):
        self.wait(lambda s: b": open" in s.received, "the stream to open")
        return self

    def close(self):
        try:
            self.socket.close()
        except OSError:
            pass


def sequence(cursor):
    return int(cursor.removeprefix("c"))


def header(headers, name):
    return next((value for key, value in headers.items() if key.lower() == name.lower()), None)


def instance_of(headers):
    return header(headers, "X-Instance")


def patch(token, value):
    status, headers, _ = request(BALANCER, "PATCH", "/v1/epub/preferences/shared", token, {"fontSize": value})
    assert status == 200, status
    return instance_of(headers)


def cursor_now(token):
    status, _, body = request(BALANCER, "POST", "/v1/sync/push", token, {"replica": "ci-probe", "entries": []})
    assert status == 200, (status, body)
    return json.loads(body)["cursor"]


# ---- Scenarios.
def scenario_an_edit_through_one_instance_reaches_a_stream_held_through_the_other():
    token = TOKENS[0]
    stream = Stream(BALANCER, token).opened()
    held = stream.header("X-Instance")
    assert held, "haproxy named no instance"
    # Round robin: within a few edits one goes through the other instance.
    for attempt in range(6):
        started = time.monotonic()
        through = patch(token, 1.1 + attempt / 10)
        if through != held:
            break
    assert through != held, f"every edit went through {held}"
    expected = cursor_now(token)
    stream.wait(lambda s: any(sequence(i) >= sequence(expected) for i, _ in s.events()), "the edit's event")
    print(f"  edit through {through} reached the stream held through {held} in {time.monotonic() - started:.3f} s")
    stream.close()


def scenario_a_ticket_made_through_one_instance_opens_a_stream_on_the_other():
    token = TOKENS[0]
    for _ in range(6):
        status, headers, body = request(BALANCER, "POST", "/v1/events/tickets", token)
        assert status == 200, status
        made = instance_of(headers)
        ticket = json.loads(body)["ticket"]
        stream = Stream(BALANCER, ticket=ticket)
        stream.wait(lambda s: b"\r\n\r\n" in s.received, "the stream's head")
        if stream.header("X-Instance") != made:
            assert stream.status() == 200, stream.received
            stream.opened().close()
            return
        stream.close()
    raise AssertionError("no ticket was used on the other instance")


def scenario_the_listener_killed_by_postgresql_comes_back_and_the_stream_converges():
    token = TOKENS[0]
    streams = [Stream(base, token).opened() for base in INSTANCES]
    killed = subprocess.run(
        ["psql", DATABASE, "-tAc",
         "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
         "WHERE application_name LIKE 'readingprefs-listener %' AND datname = current_database()"],
        check=True, capture_output=True, text=True).stdout.strip()
    assert int(killed) >= 2, f"{killed} listener(s) killed"
    # Edits made while the listeners may be gone: each stream must reach their cursor anyway
    # (by the notice, or by the poke once its listener listens again).
    patch(token, 1.5)
    patch(token, 1.6)
    expected = cursor_now(token)
    for stream in streams:
        stream.wait(lambda s: any(sequence(i) >= sequence(expected) for i, _ in s.events()),
                    f"an event at {expected} after the listeners were killed", limit=20)
    # And the listeners are back: a later edit comes by its notice.
    patch(token, 1.7)
    later = cursor_now(token)
    for stream in streams:
        stream.wait(lambda s: any(sequence(i) >= sequence(later) for i, _ in s.events()), "a later edit's event")
        stream.close()


def scenario_a_revoked_device_is_refused_through_both_and_its_stream_ends():
    account = TOKENS[0]
    status, _, body = request(BALANCER, "POST", "/v1/devices", account, {"name": "CI e-reader", "class": "eink"})
    assert status == 201, (status, body)
    device = json.loads(body)
    for base in INSTANCES:
        assert request(base, "GET", "/v1/devices", device["token"])[0] == 200
    stream = Stream(INSTANCES[1], device["token"]).opened()
    started = time.monotonic()
    status, _, _ = request(INSTANCES[0], "DELETE", f"/v1/devices/{device['id']}", account)
    assert status == 204, status
    stream.wait(lambda s: s.closed, "the revoked device's stream to end", limit=1.0)
    print(f"  the stream on the other instance ended {time.monotonic() - started:.3f} s after the revocation")
    for base in INSTANCES + [BALANCER]:
        status, _, _ = request(base, "GET", "/v1/export", device["token"])
        assert status == 401, (base, status)


def scenario_an_account_holds_at_most_sixteen_streams_through_the_balancer():
    token = TOKENS[1]
    streams = [Stream(BALANCER, token).opened() for _ in range(16)]
    assert len({s.header("X-Instance") for s in streams}) == 2, "the streams did not spread over both instances"
    status, headers, body = request(BALANCER, "GET", "/v1/events", token)
    assert status == 429, (status, body)
    assert int(header(headers, "Retry-After") or "0") > 0, headers
    for stream in streams:
        stream.close()


def scenario_sync_watch_follows_the_stream_and_stops_on_ctrl_c():
    token = TOKENS[0]
    root = tempfile.mkdtemp()
    process = subprocess.Popen(
        [CLI, "sync", "--root", root, "--server", BALANCER, "--token", token, "--watch", "--replica", "ci-watch"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    output = {"out": "", "err": ""}
    changed = threading.Condition()

    def pump(name, pipe):
        for line in pipe:
            with changed:
                output[name] += line
                changed.notify_all()

    threads = [threading.Thread(target=pump, args=(n, p), daemon=True)
               for n, p in (("out", process.stdout), ("err", process.stderr))]
    for thread in threads:
        thread.start()

    def wait_for(condition, what):
        deadline = time.monotonic() + LIMIT
        with changed:
            while not condition():
                left = deadline - time.monotonic()
                if left <= 0:
                    process.kill()
                    raise AssertionError(f"timed out waiting for {what}: {output}")
                changed.wait(left)

    wait_for(lambda: "connected" in output["err"] and "key(s) changed" in output["out"], "the first sync")
    patch(token, 1.95)
    wait_for(lambda: "fontSize" in output["out"] and "1.95" in output["out"], "the watched change")
    process.send_signal(signal.SIGINT)
    try:
        code = process.wait(timeout=LIMIT)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError(f"sync --watch did not stop on SIGINT: {output}")
    for thread in threads:
        thread.join(timeout=LIMIT)
    assert code == 0, (code, output)
    assert "stopped" in output["err"], output


def main():
    failures = []
    for name, function in list(globals().items()):
        if not name.startswith("scenario_"):
            continue
        label = name[len("scenario_"):].replace("_", " ")
        started = time.monotonic()
        try:
            function()
            print(f"ok   {label} ({time.monotonic() - started:.2f} s)")
        except Exception as error:  # noqa: BLE001 - every failure is reported, then the run fails
            failures.append(label)
            print(f"FAIL {label}: {error}")
    if failures:
        print(f"{len(failures)} live scenario(s) failed: {', '.join(failures)}")
        sys.exit(1)
    print("all live scenarios passed")


if __name__ == "__main__":
    main()
