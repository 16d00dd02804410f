#!/usr/bin/env python3
"""What a long reply costs the window: the release app streams a 100 KB and a 2 MB reply from
the test server at the same rate (20,000 five-byte tokens a second, in 10 ms batches) and the
CPU time of its main thread and of the whole process is read from /proc between the Return
key and the reply's end (saved as done). Linear cost makes the 2 MB reply 20× the 100 KB one;
a whole-reply copy per batch (the recorder's snapshot, a slice kept by a view) makes it grow
with the square. Three alternating runs each, medians. Runs under Xvfb + D-Bus (bench/run)."""
import os
import sqlite3
import subprocess
import tempfile
import time

from common import AGENT, TestServer, median, row

RATE = 20_000
SIZES = {"100 KB": 20_000, "2 MB": 400_000}  # tokens of " word"
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
TICK = os.sysconf("SC_CLK_TCK")


def main_thread_seconds(pid):
    """On-CPU time of the main thread, in ns from the scheduler (schedstat)."""
    with open(f"/proc/{pid}/task/{pid}/schedstat") as f:
        return int(f.read().split()[0]) / 1e9


def process_seconds(pid):
    """User + system time of the whole process, threads that ended included."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def reply_done(database):
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=1) as db:
            found = db.execute("SELECT state FROM messages WHERE role = 'assistant'").fetchone()
        return found is not None and found[0] == "done"
    except sqlite3.Error:
        return False


def stream(server, tokens):
    home = tempfile.mkdtemp(prefix="agent-bench-scaling-")
    env = dict(os.environ, GSK_RENDERER="cairo", XDG_DATA_HOME=os.path.join(home, "data"),
               XDG_CONFIG_HOME=os.path.join(home, "config"), AGENT_REPORT_FIRST_FRAME="stay",
               GSETTINGS_BACKEND="keyfile")
    database = os.path.join(home, "data", "io.github.agentdesktop.Agent", "chats.sqlite")
    agent = subprocess.Popen([AGENT, "--server", server.url(f"rate-{tokens}-{RATE}"), "--model", "bench"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    try:
        agent.stdout.readline()  # first frame
        window = subprocess.run(["xdotool", "search", "--sync", "--pid", str(agent.pid), "--name", "Agent"],
                                capture_output=True, text=True).stdout.split()[-1]
        subprocess.run(["xdotool", "windowfocus", "--sync", window], check=True)
        subprocess.run(["xdotool", "type", "--delay", "20", "Tell me everything"], check=True)
        main_before, total_before = main_thread_seconds(agent.pid), process_seconds(agent.pid)
        subprocess.run(["xdotool", "key", "Return"], check=True)
        deadline = time.monotonic() + tokens / RATE * 3 + 60
        while not reply_done(database):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the {tokens}-token reply did not end")
            time.sleep(0.05)
        return main_thread_seconds(agent.pid) - main_before, process_seconds(agent.pid) - total_before
    finally:
        agent.terminate()
        agent.wait()


def main():
    server = TestServer()
    try:
        stream(server, 2_000)  # warm-up
        figures = {name: [] for name in SIZES}
        for _ in range(RUNS):
            for name, tokens in SIZES.items():
                figures[name].append(stream(server, tokens))
    finally:
        server.close()
    small, large = figures["100 KB"], figures["2 MB"]
    for label, index in (("main thread", 0), ("whole process", 1)):
        cost_small = median([run[index] for run in small])
        cost_large = median([run[index] for run in large])
        ratio = cost_large / cost_small
        row(f"CPU of a 2 MB streamed reply, {label} (median of {RUNS} alternating runs)",
            f"{cost_large * 1000:,.0f} ms", f"100 KB reply: {cost_small * 1000:,.0f} ms",
            f"{ratio:.1f}×", "≤ 25× (linear: 20×)", "met" if ratio <= 25 else "missed")


if __name__ == "__main__":
    main()
