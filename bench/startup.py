#!/usr/bin/env python3
"""exec → first painted frame, and resident memory once idle: Agent's window against the
minimal C GTK 4 window (bench/reference/minimal_window.c), alternating, same display.

Both report CLOCK_MONOTONIC at their first frame-clock after-paint; the clock starts just
before fork/exec here. Agent runs with --server pointing nowhere so that it starts no
model server (its own memory only), as a fresh user (empty data and settings folders). Runs under the Xvfb + D-Bus session bench/run gives."""
import os
import tempfile

from common import AGENT, MINIMAL, first_frame_ms, idle_rss_mb, median, row

RUNS = int(os.environ.get("BENCH_RUNS", "15"))
AGENT_CMD = [AGENT, "--server", "http://127.0.0.1:9"]


def main():
    # A fresh user: private, empty data and settings folders.
    fresh = tempfile.mkdtemp(prefix="agent-bench-startup-")
    base = dict(os.environ, GSK_RENDERER="cairo", XDG_DATA_HOME=os.path.join(fresh, "data"),
                XDG_CONFIG_HOME=os.path.join(fresh, "config"))
    agent_exit = dict(base, AGENT_REPORT_FIRST_FRAME="exit")
    agent_stay = dict(base, AGENT_REPORT_FIRST_FRAME="stay")
    ref_exit = dict(base)
    ref_stay = dict(base, BENCH_STAY="1")
    first_frame_ms(AGENT_CMD, agent_exit)  # warm the page cache for both
    first_frame_ms([MINIMAL], ref_exit)
    ours, reference = [], []
    for _ in range(RUNS):
        ours.append(first_frame_ms(AGENT_CMD, agent_exit))
        reference.append(first_frame_ms([MINIMAL], ref_exit))
    a, r = median(ours), median(reference)
    row("exec → first frame (median of %d)" % RUNS, f"{a:.0f} ms", f"{r:.0f} ms", f"{a / r:.2f}×", "≤ 1.3×",
        "met" if a / r <= 1.3 else "missed")
    ours_rss = median([idle_rss_mb(AGENT_CMD, agent_stay) for _ in range(5)])
    ref_rss = median([idle_rss_mb([MINIMAL], ref_stay) for _ in range(5)])
    row("idle resident memory (median of 5)", f"{ours_rss:.1f} MB", f"{ref_rss:.1f} MB", f"{ours_rss / ref_rss:.2f}×",
        "≤ 1.3×", "met" if ours_rss / ref_rss <= 1.3 else "missed")


if __name__ == "__main__":
    main()
