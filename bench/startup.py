#!/usr/bin/env python3
"""exec → first painted frame, and resident memory once idle: Agent's window against the
smallest libadwaita window (bench/reference/minimal_adw_window.c: AdwApplication and
AdwApplicationWindow, the floor every GNOME app pays) and the smallest GTK window
(minimal_window.c), alternating, same display.

Each reports CLOCK_MONOTONIC and its CPU time at its first frame-clock after-paint; the clock
starts just before fork/exec here. Wall time is what a user waits; CPU time is the work done,
and varies less on a busy machine. Agent runs with --server pointing nowhere so that it starts no
model server (its own memory only), as a fresh user (empty data and settings folders,
GSettings in a key file of its own). Runs under the Xvfb + D-Bus session bench/run gives."""
import os
import tempfile

from common import AGENT, MINIMAL, MINIMAL_ADW, first_frame, idle_rss_mb, median, row

RUNS = int(os.environ.get("BENCH_RUNS", "15"))
AGENT_CMD = [AGENT, "--server", "http://127.0.0.1:9"]


def main():
    fresh = tempfile.mkdtemp(prefix="agent-bench-startup-")
    base = dict(os.environ, GSK_RENDERER="cairo", XDG_DATA_HOME=os.path.join(fresh, "data"),
                XDG_CONFIG_HOME=os.path.join(fresh, "config"), GSETTINGS_BACKEND="keyfile")
    exit_env = {"agent": dict(base, AGENT_REPORT_FIRST_FRAME="exit"), "ref": dict(base)}
    stay_env = {"agent": dict(base, AGENT_REPORT_FIRST_FRAME="stay"), "ref": dict(base, BENCH_STAY="1")}
    programs = {"agent": AGENT_CMD, "adw": [MINIMAL_ADW], "gtk": [MINIMAL]}
    env_of = lambda name, envs: envs["agent" if name == "agent" else "ref"]
    for name, command in programs.items():  # warm the page cache for all three
        first_frame(command, env_of(name, exit_env))
    wall = {name: [] for name in programs}
    cpu = {name: [] for name in programs}
    for _ in range(RUNS):
        for name, command in programs.items():
            elapsed, used = first_frame(command, env_of(name, exit_env))
            wall[name].append(elapsed)
            cpu[name].append(used)
    a, w, g = (median(wall[name]) for name in ("agent", "adw", "gtk"))
    row(f"exec → first frame (median of {RUNS})", f"{a:.0f} ms", f"libadwaita window: {w:.0f} ms (GTK window: {g:.0f} ms)",
        f"{a / w:.2f}× ({a / g:.2f}× GTK)", "≤ 1.2× the libadwaita window", "met" if a / w <= 1.2 else "missed")
    a, w, g = (median(cpu[name]) for name in ("agent", "adw", "gtk"))
    row(f"CPU time to the first frame (median of {RUNS})", f"{a:.0f} ms", f"libadwaita window: {w:.0f} ms (GTK window: {g:.0f} ms)",
        f"{a / w:.2f}× ({a / g:.2f}× GTK)", "— (the work behind the row above)", "—")
    rss = {name: median([idle_rss_mb(command, env_of(name, stay_env)) for _ in range(5)]) for name, command in programs.items()}
    a, w, g = rss["agent"], rss["adw"], rss["gtk"]
    row("idle resident memory (median of 5)", f"{a:.1f} MB", f"libadwaita window: {w:.1f} MB (GTK window: {g:.1f} MB)",
        f"{a / w:.2f}× ({a / g:.2f}× GTK)", "≤ 1.2× the libadwaita window", "met" if a / w <= 1.2 else "missed")


if __name__ == "__main__":
    main()
