#!/usr/bin/env python3
"""The window while a fast model streams: 2,000 tokens/s for 5 s from the test server,
against 100 tokens/s in the same run. The app (AGENT_REPORT_FRAMES) measures the work in
each frame of its frame clock (before-paint to after-paint) and the longest stretch of
main-loop work between two waits. The message is typed and sent with real key presses
(xdotool). Runs under the Xvfb + D-Bus session bench/run gives."""
import os
import subprocess
import tempfile
import time

from common import AGENT, TestServer, median, row

SECONDS = 5
RUNS = int(os.environ.get("BENCH_RUNS", "3"))


def stream(server, rate):
    home = tempfile.mkdtemp(prefix="agent-bench-gui-")
    report = os.path.join(home, "frames.txt")
    env = dict(os.environ, GSK_RENDERER="cairo", XDG_DATA_HOME=os.path.join(home, "data"),
               XDG_CONFIG_HOME=os.path.join(home, "config"), AGENT_REPORT_FIRST_FRAME="stay",
               AGENT_REPORT_FRAMES=report)
    agent = subprocess.Popen([AGENT, "--server", server.url(f"rate-{rate * SECONDS}-{rate}"), "--model", "bench"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    agent.stdout.readline()  # first frame
    window = subprocess.run(["xdotool", "search", "--sync", "--pid", str(agent.pid), "--name", "Agent"],
                            capture_output=True, text=True).stdout.split()[-1]
    subprocess.run(["xdotool", "windowfocus", "--sync", window], check=True)
    subprocess.run(["xdotool", "type", "--delay", "20", "Tell me everything"], check=True)
    subprocess.run(["xdotool", "key", "Return"], check=True)
    time.sleep(SECONDS + 1.5)
    agent.terminate()
    agent.wait()
    with open(report) as f:
        return {key: int(value) for key, value in (line.split() for line in f)}


def main():
    server = TestServer()
    try:
        stream(server, 100)  # warm-up
        fast = [stream(server, 2000) for _ in range(RUNS)]
        slow = [stream(server, 100) for _ in range(RUNS)]
    finally:
        server.close()
    worst = lambda runs, key: max(r[key] for r in runs) / 1000
    f_max, s_max = worst(fast, "frame_work_max_us"), worst(slow, "frame_work_max_us")
    f_p99 = median([r["frame_work_p99_us"] for r in fast]) / 1000
    s_p99 = median([r["frame_work_p99_us"] for r in slow]) / 1000
    frames = median([r["frames"] for r in fast])
    over = sum(r["frames_over_16ms"] for r in fast)
    row(f"window at 2,000 tokens/s for {SECONDS} s: frame work p99 / max (worst of {RUNS})",
        f"{f_p99:.1f} / {f_max:.1f} ms ({frames:.0f} frames, {over} over 16.7 ms)",
        f"100 tokens/s: {s_p99:.1f} / {s_max:.1f} ms", f"{f_max / s_max:.2f}× the max" if s_max else "–",
        "no frame over 16.7 ms", "met" if f_max <= 16.7 else "missed")
    l_fast, l_slow = worst(fast, "loop_longest_us"), worst(slow, "loop_longest_us")
    row(f"window at 2,000 tokens/s: longest main-loop stretch without a wait (worst of {RUNS})",
        f"{l_fast:.1f} ms", f"100 tokens/s: {l_slow:.1f} ms", f"{l_fast / l_slow:.2f}×" if l_slow else "–",
        "≤ 50 ms", "met" if l_fast <= 50 else "missed")


if __name__ == "__main__":
    main()
