#!/usr/bin/env python3
"""Stop latency: from the moment Stop is asked for (SIGINT to agent-cli, whose handler
calls the same view-model stop() as the window's Stop button) to the moment the server
sees the connection close, during a stalled stream. Both times are CLOCK_MONOTONIC.
Reference: curl -N killed by the same SIGINT (the kernel closes its socket)."""
import os
import signal
import subprocess
import time

from common import AGENT_CLI, TestServer, median, row

RUNS = int(os.environ.get("BENCH_RUNS", "20"))


def interruptible():
    """In the child before exec: SIGINT back to its default. A shell starts a background job
    (`bench/run &`) with SIGINT ignored, and an ignored signal stays ignored across exec, so
    curl, which sets no handler of its own, would go on until the server gave up."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def latency(server, command):
    before = len(server.events())
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=interruptible)
    deadline = time.monotonic() + 10
    while not any(e["event"] == "stalled" for e in server.events()[before:]):
        if time.monotonic() > deadline:
            raise RuntimeError("the stream did not start")
        time.sleep(0.005)
    time.sleep(0.05)
    asked = time.monotonic()
    process.send_signal(signal.SIGINT)
    process.wait()
    deadline = time.monotonic() + 5
    while True:
        closed = [e["time"] for e in server.events()[before:] if e["event"] == "client-closed"]
        if closed:
            return (closed[0] - asked) * 1000
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server never saw {os.path.basename(command[0])}'s connection close "
                               f"(exit status {process.returncode}; events {server.events()[before:]})")
        time.sleep(0.005)


def main():
    server = TestServer()
    try:
        url = server.url("stall")
        agent = [latency(server, [AGENT_CLI, "--server", url, "go"]) for _ in range(RUNS)]
        curl = [latency(server, ["curl", "-sN", "-d", "{}", url + "/v1/chat/completions"]) for _ in range(RUNS)]
        row(f"Stop → connection closed (median / max of {RUNS})", f"{median(agent):.1f} / {max(agent):.1f} ms",
            f"curl killed: {median(curl):.1f} / {max(curl):.1f} ms", f"{median(agent) / median(curl):.1f}×",
            "≤ 50 ms", "met" if max(agent) <= 50 else "missed")
    finally:
        server.close()


if __name__ == "__main__":
    main()
