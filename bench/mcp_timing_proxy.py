#!/usr/bin/env python3
"""A stdio pass-through that times an MCP server's own work, for bench/mcp_bench.py.

    mcp_timing_proxy.py --log FILE -- COMMAND [ARG…]

Runs COMMAND and forwards lines unchanged, the client's stdin to the server and the server's
stdout back (its stderr is inherited). For each request the client sends, it appends to FILE
one JSON line {"id", "method", "us"}: microseconds from writing the request to the server to
reading the server's response, so the client's round trip minus "us" is the client's own
overhead plus this proxy's two extra pipe hops (about 0.2–0.3 ms on a 2-core VM). One thread
and select(): handing lines between threads under the GIL cost about 0.1 ms more per call.
Closing our stdin closes the server's; we exit with its status when it closes its stdout.
"""
import json
import os
import selectors
import signal
import subprocess
import sys
import time


def main():
    arguments = sys.argv[1:]
    if len(arguments) < 4 or arguments[0] != "--log" or arguments[2] != "--":
        sys.exit("usage: mcp_timing_proxy.py --log FILE -- COMMAND [ARG…]")
    log = open(arguments[1], "a", buffering=1)
    server = subprocess.Popen(arguments[3:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    # A client that stops us with SIGTERM (not by closing stdin) must not leave the server behind.
    signal.signal(signal.SIGTERM, lambda *_: (server.terminate(), os._exit(143)))
    from_client, to_client = sys.stdin.fileno(), sys.stdout.fileno()
    to_server, from_server = server.stdin.fileno(), server.stdout.fileno()
    sent = {}  # request id (as JSON text, so 1 and "1" differ) → (method, time written to the server)
    partial = {from_client: bytearray(), from_server: bytearray()}  # each direction's unfinished line
    selector = selectors.DefaultSelector()
    selector.register(from_client, selectors.EVENT_READ)
    selector.register(from_server, selectors.EVENT_READ)

    while True:
        for key, _ in selector.select():
            chunk = os.read(key.fd, 1 << 20)
            now = time.perf_counter_ns()
            if not chunk:
                if key.fd == from_server:
                    write_all(to_client, partial[from_server])  # an unterminated last line, unchanged
                    sys.exit(server.wait())
                write_all(to_server, partial[from_client])
                selector.unregister(from_client)
                server.stdin.close()
                continue
            partial[key.fd] += chunk  # a bytearray grows in place: a 10 MiB line costs no quadratic copying
            if b"\n" not in chunk:
                continue
            *lines, rest = partial[key.fd].split(b"\n")
            partial[key.fd] = rest
            for line in lines:
                message = parse(line)
                if key.fd == from_client:
                    if "method" in message and "id" in message:
                        sent[json.dumps(message["id"])] = (message["method"], time.perf_counter_ns())
                    write_all(to_server, line + b"\n")
                else:
                    if "method" not in message and json.dumps(message.get("id")) in sent:
                        method, start = sent.pop(json.dumps(message["id"]))
                        log.write(json.dumps({"id": message["id"], "method": method,
                                              "us": (now - start) // 1000}) + "\n")
                    write_all(to_client, line + b"\n")


def parse(line):
    try:
        message = json.loads(line)
    except ValueError:
        return {}
    return message if isinstance(message, dict) else {}


def write_all(fd, data):
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except BrokenPipeError:
        pass  # that side is gone; its end of file or the server's exit ends the loop


if __name__ == "__main__":
    main()
