#!/usr/bin/env python3
"""Clients for the live benchmark (live.sh): the time from an edit to its event on another
instance's stream, and many streams held open at once.

  live.py latency EDIT_URL STREAM_URL TOKEN COUNT   # prints one JSON line: the two bounds per edit
  live.py hold URL TOKENS_FILE COUNT                # opens COUNT streams (16 per token), prints "ready N",
                                                    # reads them until stdin closes
"""
import asyncio
import json
import socket
import sys
import threading
import time
import urllib.request


def latency(edit_url, stream_url, token, count):
    host, port = stream_url.removeprefix("http://").split(":")
    stream = socket.create_connection((host, int(port)))
    stream.sendall((f"GET /v1/events HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
                    "Accept: text/event-stream\r\n\r\n").encode())
    arrived = {}          # event id -> monotonic time it was read
    changed = threading.Condition()
    buffer = b""

    def read():
        nonlocal buffer
        while True:
            chunk = stream.recv(65536)
            if not chunk:
                return
            now = time.monotonic()
            with changed:
                buffer += chunk
                for line in buffer.split(b"\n"):
                    if line.startswith(b"id: c"):
                        ident = int(line[5:].strip())
                        arrived.setdefault(ident, now)
                changed.notify_all()

    threading.Thread(target=read, daemon=True).start()
    with changed:
        changed.wait_for(lambda: b": open" in buffer, timeout=10)

    def cursor():
        request = urllib.request.Request(edit_url + "/v1/sync/push", method="POST",
                                         data=json.dumps({"replica": "bench-probe", "entries": []}).encode())
        request.add_header("Authorization", "Bearer " + token)
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request) as answer:
            return int(json.loads(answer.read())["cursor"][1:])

    expected = cursor()
    sent, answered = [], []
    for index in range(count):
        body = json.dumps({"textColor": "#%06x" % (index * 7919 % 16777216)}).encode()
        request = urllib.request.Request(edit_url + "/v1/epub/preferences/shared", data=body, method="PATCH")
        request.add_header("Authorization", "Bearer " + token)
        request.add_header("Content-Type", "application/merge-patch+json")
        started = time.monotonic()
        with urllib.request.urlopen(request) as answer:
            answer.read()
        done = time.monotonic()
        expected += 1
        with changed:
            if not changed.wait_for(lambda: max(arrived, default=0) >= expected, timeout=10):
                raise SystemExit(f"no event for edit {index} (cursor c{expected}) within 10 s")
            at = min(t for ident, t in arrived.items() if ident >= expected)
        sent.append((at - started) * 1000)
        answered.append((at - done) * 1000)
    print(json.dumps({"sent": sent, "answered": answered}))


async def hold(url, tokens, count):
    host, port = url.removeprefix("http://").split(":")
    opened = 0
    writers = []

    async def one(token):
        nonlocal opened
        reader, writer = await asyncio.open_connection(host, int(port))
        writers.append(writer)
        writer.write((f"GET /v1/events HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
                      "Accept: text/event-stream\r\n\r\n").encode())
        await writer.drain()
        seen = b""
        while b": open" not in seen:
            chunk = await reader.read(4096)
            if not chunk:
                raise SystemExit(f"a stream was refused: {seen[:200]!r}")
            seen += chunk
        opened += 1
        while await reader.read(4096):
            pass

    tasks = [asyncio.create_task(one(tokens[index // 16])) for index in range(count)]
    while opened < count:
        done = [task for task in tasks if task.done() and task.exception()]
        if done:
            raise done[0].exception()
        await asyncio.sleep(0.05)
    print(f"ready {opened}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    for writer in writers:
        writer.close()


def main():
    if sys.argv[1] == "latency":
        latency(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif sys.argv[1] == "hold":
        tokens = open(sys.argv[3]).read().split()
        asyncio.run(hold(sys.argv[2], tokens, int(sys.argv[4])))


if __name__ == "__main__":
    main()
