#!/usr/bin/env python3
"""Connection reuse: ten messages in a row from one agent process to a local HTTPS server
that adds 20 ms to every TCP+TLS handshake (a distant server's round trips) and counts the
connections it accepts (Tests/Servers/keepalive_server.py). Reported: connections opened, and
the time to first token of messages 2–10 as the window gets it (on the main actor) beside
libcurl sending the same ten requests over one connection in one thread (the floor: no
hand-off between threads), median of three alternating runs each."""
import json
import os
import statistics
import subprocess
import sys
import urllib.request

from common import ROOT, row

CURL_REFERENCE = os.path.join(ROOT, ".build", "bench", "curl-first-token")

MESSAGES = 10
RUNS = 3
DELAY_MS = 20


class KeepAliveServer:
    def __init__(self):
        script = os.path.join(ROOT, "Tests", "Servers", "keepalive_server.py")
        self.process = subprocess.Popen([sys.executable, script, "--handshake-delay", str(DELAY_MS)],
                                        stdout=subprocess.PIPE, stdin=subprocess.PIPE, stderr=subprocess.DEVNULL)
        fields = self.process.stdout.readline().split()  # PORT p TLSPORT q CAFILE f
        self.plain = f"http://127.0.0.1:{int(fields[1])}"
        self.url = f"https://127.0.0.1:{int(fields[3])}/s/tokens-20"
        self.ca_file = fields[5].decode()

    def call(self, path):
        with urllib.request.urlopen(urllib.request.Request(self.plain + path, method="POST" if path == "/_reset" else "GET")) as response:
            return json.load(response)

    def close(self):
        self.process.kill()
        self.process.wait()


def timed_run(program, server):
    """Runs `program URL CAFILE COUNT` (reuse-bench, or the libcurl reference in
    bench/reference/curl_first_token.c: one thread, one easy handle, each request timed from the
    start of its transfer to the first token in hand): each message's time to first token in
    ms, and the connections the server accepted meanwhile."""
    server.call("/_reset")
    output = subprocess.run([program, server.url, server.ca_file, str(MESSAGES)], check=True,
                            capture_output=True, text=True).stdout
    return [float(line) for line in output.split()], server.call("/_stats")["connections"]


def main():
    package = os.path.join(ROOT, "bench", "parsers")
    subprocess.run(["swift", "build", "--package-path", package, "-c", "release", "--product", "reuse-bench"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    bench = os.path.join(package, ".build", "release", "reuse-bench")
    server = KeepAliveServer()
    try:
        ours, theirs = [], []
        for _ in range(RUNS):
            ours.append(timed_run(bench, server))
            theirs.append(timed_run(CURL_REFERENCE, server))
    finally:
        server.close()
    agent_later = statistics.median(t for times, _ in ours for t in times[1:])
    curl_later = statistics.median(t for times, _ in theirs for t in times[1:])
    agent_first = statistics.median(times[0] for times, _ in ours)
    connections = max(count for _, count in ours)
    curl_connections = max(count for _, count in theirs)
    row(f"Connections for {MESSAGES} messages in a row (HTTPS, +{DELAY_MS} ms per handshake)",
        f"{connections}", f"libcurl, one handle: {curl_connections}", "", "1",
        "met" if connections == 1 else "missed")
    ratio = agent_later / curl_later
    row(f"Time to first token, messages 2–{MESSAGES} (median of {RUNS} alternating runs)",
        f"{agent_later:.2f} ms (message 1: {agent_first:.1f} ms)", f"libcurl in one thread, one connection: {curl_later:.2f} ms",
        f"{ratio:.2f}×", "≤ 1.2×", "met" if ratio <= 1.2 else "missed")


if __name__ == "__main__":
    main()
