#!/usr/bin/env python3
"""agent-cli throughput on a fast local stream: the test server sends N one-word tokens
as fast as the socket takes them; agent-cli parses, decodes and prints them all.
Reference: `curl -N` reading the same stream (transport alone, no parsing)."""
import os
import subprocess
import time

from common import AGENT_CLI, TestServer, median, row

TOKENS = int(os.environ.get("BENCH_TOKENS", "200000"))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))


def wall(command):
    start = time.monotonic()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.monotonic() - start


def main():
    server = TestServer()
    try:
        url = server.url(f"fast-{TOKENS}")
        agent = [AGENT_CLI, "--server", url, "go"]
        curl = ["curl", "-sN", "-d", "{}", url + "/v1/chat/completions"]
        wall(agent)
        ours = median([wall(agent) for _ in range(RUNS)])
        reference = median([wall(curl) for _ in range(RUNS)])
        rate = TOKENS / ours
        row(f"agent-cli throughput, {TOKENS:,} tokens (median of {RUNS})", f"{rate:,.0f} tokens/s ({ours:.2f} s)",
            f"curl -N: {TOKENS / reference:,.0f} tokens/s ({reference:.2f} s)", f"{ours / reference:.1f}× the time",
            "≤ 2× curl's time (and ≥ 50,000 tokens/s)", "met" if ours <= 2 * reference and rate >= 50000 else "missed")
    finally:
        server.close()


if __name__ == "__main__":
    main()
