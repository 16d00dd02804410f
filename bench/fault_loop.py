#!/usr/bin/env python3
"""The window's main loop under the faults the window tests put it through — an error
before any reply, a connection reset mid-reply, a server that goes silent, one byte per
write, invalid UTF-8, a 10 MB reply. The tests only check that the loop kept answering
(nothing froze for a second); here the app measures (AGENT_REPORT_FRAMES) the longest
stretch of main-loop work between two waits — the longest any input could have waited —
over several runs of each fault, printed as median / 90th percentile / max. The message
is typed and sent with real key presses (xdotool). Runs under the Xvfb + D-Bus session
bench/run gives."""
import os
import subprocess
import tempfile
import time

from common import AGENT, TestServer, row, spread

RUNS = int(os.environ.get("BENCH_RUNS", "5"))
# scenario, seconds the exchange needs to end (the silent server is given up on after 2 s)
FAULTS = [("http500", 1.5), ("rst", 1.5), ("stall", 4.0), ("split", 2.0), ("badutf8", 1.5), ("huge-10", 12.0)]


def exchange(server, scenario, seconds):
    home = tempfile.mkdtemp(prefix="agent-bench-fault-")
    report = os.path.join(home, "frames.txt")
    env = dict(os.environ, GSK_RENDERER="cairo", XDG_DATA_HOME=os.path.join(home, "data"),
               XDG_CONFIG_HOME=os.path.join(home, "config"), AGENT_REPORT_FIRST_FRAME="stay",
               AGENT_REPORT_FRAMES=report, GSETTINGS_BACKEND="keyfile")
    agent = subprocess.Popen([AGENT, "--server", server.url(scenario), "--model", "bench", "--idle-timeout", "2"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    agent.stdout.readline()  # first frame
    window = subprocess.run(["xdotool", "search", "--sync", "--pid", str(agent.pid), "--name", "Agent"],
                            capture_output=True, text=True).stdout.split()[-1]
    subprocess.run(["xdotool", "windowfocus", "--sync", window], check=True)
    subprocess.run(["xdotool", "type", "--delay", "20", "Will this work?"], check=True)
    subprocess.run(["xdotool", "key", "Return"], check=True)
    time.sleep(seconds)
    agent.terminate()
    agent.wait()
    with open(report) as f:
        figures = dict(line.strip().split(" ", 1) for line in f if " " in line.strip())
    return int(figures["loop_longest_us"]) / 1000


def main():
    server = TestServer()
    try:
        exchange(server, "echo", 1.0)  # warm-up
        results = {scenario: [exchange(server, scenario, seconds) for _ in range(RUNS)] for scenario, seconds in FAULTS}
    finally:
        server.close()
    for scenario, waits in results.items():
        row(f"faults in the window, {scenario}: longest main-loop stretch without a wait (median / p90 / max of {RUNS})",
            spread(waits), "–", "–", "≤ 50 ms", "met" if max(waits) <= 50 else "missed")


if __name__ == "__main__":
    main()
