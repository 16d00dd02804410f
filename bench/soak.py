#!/usr/bin/env python3
"""A long session in the release window: N replies from the test server (scenario soak:
one sentence, three paragraphs, up to 1,200 words, a fenced code block, and one reply in ten
a get_datetime tool call, which runs without asking), a new chat (Ctrl+N) every ten replies,
every message typed and sent with real key presses (xdotool), each reply's end read from the
chat database (read-only: the assistant message saved as 'done'); then the window is left
idle. Every few seconds the app's resident memory (VmRSS), open file descriptors and threads
are read from /proc, and its stderr is searched for GLib's CRITICAL and WARNING lines.

Rows: memory growth from the reply a tenth of the way in (the 50th of 500) to the end of the
idle period; descriptors and threads at the end against the idle window before the first
message; CRITICAL/WARNING lines. The samples go to a CSV and a plot (docs/soak.csv,
docs/soak.png; an SVG drawn by hand when matplotlib is missing).

The defaults (500 replies, 30 minutes idle) take about 50 minutes, so bench/run runs it only
when named (bench/run soak); `--replies 30 --idle-minutes 1` is a short trial. It starts its
own Xvfb and private D-Bus session (xvfb-run, dbus-run-session), so it never types into the
desktop it is started from."""
import argparse
import csv
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

from common import AGENT, ROOT, TestServer, row

APP_ID = "io.github.agentdesktop.Agent"
# One cycle of ten messages: the kinds of reply the soak scenario sends for them.
CYCLE = ["short", "medium", "code", "short", "long", "medium", "short", "code", "time", "medium"]
ASK = {"short": "a short answer please", "medium": "a medium answer please", "long": "a long answer please",
       "code": "some code please", "time": "what time is it"}
WARNING = re.compile(r"CRITICAL|WARNING")


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default=AGENT, help="the window app (default: this tree's release build)")
    parser.add_argument("--replies", type=int, default=500)
    parser.add_argument("--idle-minutes", type=float, default=30)
    parser.add_argument("--settle-seconds", type=float, default=15, help="idle after the first frame, before the first message")
    parser.add_argument("--sample-seconds", type=float, default=5)
    parser.add_argument("--ms-per-token", type=int, default=5)
    parser.add_argument("--csv", default=os.path.join(ROOT, "docs", "soak.csv"))
    parser.add_argument("--plot", default=os.path.join(ROOT, "docs", "soak.png"))
    return parser.parse_args()


def in_private_display():
    """Runs this script again inside its own Xvfb and D-Bus session, unless it already is."""
    if os.environ.get("AGENT_SOAK_PRIVATE_DISPLAY") == "1":
        return
    command = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24 -noreset", "dbus-run-session", "--",
               sys.executable, os.path.abspath(__file__), *sys.argv[1:]]
    os.execvpe(command[0], command, dict(os.environ, AGENT_SOAK_PRIVATE_DISPLAY="1"))


class Process:
    """What /proc says about the app, and the CRITICAL/WARNING lines on its stderr so far."""

    def __init__(self, pid, stderr_path):
        self.pid = pid
        self.stderr_path = stderr_path
        self.offset = 0
        self.partial = b""
        self.warnings = []  # (seconds, line)

    def status(self):
        with open(f"/proc/{self.pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        return int(fields["VmRSS"].split()[0]) / 1024, int(fields["Threads"])

    def fds(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def fd_targets(self):
        """What each descriptor is open on: a path, anon_inode:…, pipe, or a socket's kind
        and ends (tcp 127.0.0.1:5000 ESTABLISHED, unix /run/…) from /proc/PID/net."""
        sockets = self.sockets()
        targets = []
        for fd in os.listdir(f"/proc/{self.pid}/fd"):
            try:
                target = os.readlink(f"/proc/{self.pid}/fd/{fd}")
            except OSError:
                continue
            inode = re.fullmatch(r"socket:\[(\d+)\]", target)
            target = sockets.get(inode.group(1), "socket") if inode else target
            targets.append(re.sub(r"\[\d+\]", "[…]", target))
        return sorted(targets)

    def sockets(self):
        """Socket inode → what it is, for the kinds a GTK app opens."""
        known = {}
        states = {"01": "ESTABLISHED", "06": "TIME_WAIT", "08": "CLOSE_WAIT", "0A": "LISTEN"}
        for kind in ("tcp", "tcp6"):
            try:
                with open(f"/proc/{self.pid}/net/{kind}") as f:
                    for line in list(f)[1:]:
                        fields = line.split()
                        remote = fields[2].split(":")
                        port = int(remote[1], 16)
                        known[fields[9]] = f"{kind} to port {port} {states.get(fields[3], fields[3])}"
            except OSError:
                pass
        try:
            with open(f"/proc/{self.pid}/net/unix") as f:
                for line in list(f)[1:]:
                    fields = line.split()
                    known[fields[6]] = "unix " + (fields[7] if len(fields) > 7 else "(unnamed)")
        except OSError:
            pass
        # A Unix socket whose peer is this process's too is one end of a socketpair (a
        # wake-up channel); ss knows the peers, /proc does not.
        try:
            listing = subprocess.run(["ss", "-xpn"], capture_output=True, text=True).stdout
        except OSError:
            return known
        ours = [line.split() for line in listing.splitlines() if f"pid={self.pid}," in line]
        inodes = {fields[5] for fields in ours if len(fields) > 7}
        for fields in ours:
            if len(fields) > 7 and fields[7] in inodes:
                known[fields[5]] = "unix socketpair (both ends in the app)"
        return known

    def libraries(self):
        """The shared libraries mapped into the app."""
        with open(f"/proc/{self.pid}/maps") as f:
            return {line.split()[-1] for line in f if ".so" in line.rsplit("/", 1)[-1]}

    def thread_names(self):
        names = []
        for task in os.listdir(f"/proc/{self.pid}/task"):
            try:
                with open(f"/proc/{self.pid}/task/{task}/comm") as f:
                    names.append(f.read().strip())
            except OSError:
                pass
        return sorted(names)

    def read_warnings(self, now):
        with open(self.stderr_path, "rb") as f:
            f.seek(self.offset)
            data = f.read()
        self.offset += len(data)
        *lines, self.partial = (self.partial + data).split(b"\n")
        for line in lines:
            text = line.decode(errors="replace")
            if WARNING.search(text):
                self.warnings.append((now, text))
        return len(self.warnings)


class Sampler:
    """Samples the app every few seconds on a thread of its own, and when asked."""

    def __init__(self, process, interval):
        self.process = process
        self.interval = interval
        self.start = time.monotonic()
        self.samples = []
        self.phase = "settle"
        self.replies = 0
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.error = None
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def take(self, mark=""):
        with self.lock:
            now = time.monotonic() - self.start
            rss, threads = self.process.status()
            sample = {"seconds": round(now, 2), "phase": self.phase, "replies": self.replies, "rss_mb": round(rss, 2),
                      "fds": self.process.fds(), "threads": threads, "warnings": self.process.read_warnings(now),
                      "mark": mark}
            self.samples.append(sample)
            return sample

    def run(self):
        while not self.stopped.wait(self.interval):
            try:
                self.take()
            except (OSError, KeyError) as error:  # the app is gone: the main thread says so
                self.error = error
                return

    def stop(self):
        self.stopped.set()
        self.thread.join()


def counts(database):
    """(user messages, assistant replies saved as done, replies that ended otherwise)."""
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=1) as db:
            found = db.execute("SELECT role, state, count(*) FROM messages GROUP BY role, state").fetchall()
    except sqlite3.Error:
        return 0, 0, []
    users = sum(n for role, _, n in found if role == "user")
    done = sum(n for role, state, n in found if role == "assistant" and state == "done")
    bad = [(state, n) for role, state, n in found if role == "assistant" and state in ("failed", "cutOff", "stopped")]
    return users, done, bad


def xdotool(*arguments):
    subprocess.run(["xdotool", *arguments], check=True)


def wait_for(condition, seconds, what, agent):
    deadline = time.monotonic() + seconds
    while not condition():
        if agent.poll() is not None:
            raise RuntimeError(f"the app ended (status {agent.returncode}) while waiting for {what}")
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def send(number, database, agent, sampler):
    """Types message `number` and presses Return, as many times as it takes the app to take
    it (a Return while the last reply is still being put away is refused and the text kept)."""
    kind = CYCLE[(number - 1) % len(CYCLE)]
    xdotool("type", "--delay", "20", f"Question {number}, {ASK[kind]}")
    for _ in range(5):
        xdotool("key", "Return")
        if wait_for(lambda: counts(database)[0] >= number, 5, f"message {number} to be sent", agent):
            break
    else:
        raise RuntimeError(f"message {number} was not sent after five Returns")

    def ended():
        _, done, bad = counts(database)
        if bad:
            raise RuntimeError(f"reply {number}: replies that did not end as done: {bad}")
        return done >= number
    if not wait_for(ended, 120, f"reply {number}", agent):
        raise RuntimeError(f"reply {number} ({kind}) did not end in 120 s")
    sampler.replies = number


def difference(these, those):
    """The items of `these` that `those` lacks, counted: "2× socket:[…], pipe:[…]"."""
    left = list(these)
    for item in those:
        if item in left:
            left.remove(item)
    return ", ".join(f"{left.count(item)}× {item}" for item in sorted(set(left)))


def write_csv(path, samples):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(samples[0]))
        writer.writeheader()
        writer.writerows(samples)


def plot(path, samples, marks, title):
    """Three panels over time (minutes): resident memory, descriptors, threads; dashed lines at
    the marks. matplotlib when it is there, else an SVG of polylines."""
    series = [("resident memory (MB)", "rss_mb"), ("open file descriptors", "fds"), ("threads", "threads")]
    minutes = [s["seconds"] / 60 for s in samples]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        path = os.path.splitext(path)[0] + ".svg"
        return plot_svg(path, samples, marks, title, series)
    figure, axes = plt.subplots(len(series), 1, sharex=True, figsize=(9, 7.5))
    for axis, (label, key) in zip(axes, series):
        axis.plot(minutes, [s[key] for s in samples], linewidth=1.2, color="#3584e4")
        axis.set_ylabel(label)
        axis.grid(alpha=0.3)
        for name, seconds in marks:
            axis.axvline(seconds / 60, color="#888", linestyle="--", linewidth=0.8)
    for i, (name, seconds) in enumerate(marks):
        axes[0].annotate(name, (seconds / 60, 1.0), xycoords=("data", "axes fraction"), xytext=(3, -12 - 11 * i),
                         textcoords="offset points", fontsize=8, color="#555")
    for axis in axes[1:]:
        axis.yaxis.get_major_locator().set_params(integer=True)
    axes[-1].set_xlabel("minutes since the first frame")
    axes[0].set_title(title, fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    return path


def plot_svg(path, samples, marks, title, series):
    width, panel, left, right, top = 900, 220, 70, 20, 40
    height = top + panel * len(series) + 30
    end = max(s["seconds"] for s in samples) or 1
    x = lambda seconds: left + (width - left - right) * seconds / end
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="13">{title}</text>']
    for i, (label, key) in enumerate(series):
        y0 = top + i * panel
        values = [s[key] for s in samples]
        low, high = min(values), max(values)
        span = (high - low) or 1
        y = lambda v: y0 + panel - 25 - (panel - 45) * (v - low) / span
        parts.append(f'<rect x="{left}" y="{y0 + 10}" width="{width - left - right}" height="{panel - 25}" fill="none" stroke="#ccc"/>')
        parts.append(f'<text x="{left + 4}" y="{y0 + 24}">{label}: {low:g} to {high:g}</text>')
        for name, seconds in marks:
            parts.append(f'<line x1="{x(seconds):.1f}" y1="{y0 + 10}" x2="{x(seconds):.1f}" y2="{y0 + panel - 15}" stroke="#888" stroke-dasharray="4 3"/>')
        points = " ".join(f"{x(s['seconds']):.1f},{y(s[key]):.1f}" for s in samples)
        parts.append(f'<polyline fill="none" stroke="#3584e4" stroke-width="1.5" points="{points}"/>')
    parts.append(f'<text x="{width / 2}" y="{height - 8}" text-anchor="middle">0 to {end / 60:.1f} minutes since the first frame</text>')
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")
    return path


def main():
    arguments = parse_arguments()
    in_private_display()
    count = arguments.replies
    reference = min(50, max(1, count // 10))
    home = tempfile.mkdtemp(prefix="agent-bench-soak-")
    env = dict(os.environ, GSK_RENDERER="cairo", XDG_DATA_HOME=os.path.join(home, "data"),
               XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_CACHE_HOME=os.path.join(home, "cache"),
               XDG_STATE_HOME=os.path.join(home, "state"), AGENT_REPORT_FIRST_FRAME="stay", GSETTINGS_BACKEND="keyfile")
    database = os.path.join(home, "data", APP_ID, "chats.sqlite")
    stderr_path = os.path.join(home, "agent.stderr")
    server = TestServer()
    agent = None
    try:
        with open(stderr_path, "wb") as stderr:
            agent = subprocess.Popen([arguments.agent, "--server", server.url(f"soak-{arguments.ms_per_token}"), "--model", "bench"],
                                     stdout=subprocess.PIPE, stderr=stderr, env=env)
        agent.stdout.readline()  # first frame
        sampler = Sampler(Process(agent.pid, stderr_path), arguments.sample_seconds)
        window = subprocess.run(["xdotool", "search", "--sync", "--pid", str(agent.pid), "--name", "Agent"],
                                capture_output=True, text=True).stdout.split()[-1]
        xdotool("windowfocus", "--sync", window)
        time.sleep(arguments.settle_seconds)
        idle = sampler.take("idle before the first message")
        idle_fds, idle_threads = sampler.process.fd_targets(), sampler.process.thread_names()
        idle_libraries = sampler.process.libraries()
        sampler.phase = "replies"
        marks = [("first message", idle["seconds"])]
        began = time.monotonic()
        for number in range(1, count + 1):
            if number > 1 and (number - 1) % 10 == 0:
                xdotool("key", "ctrl+n")
                time.sleep(0.3)
            send(number, database, agent, sampler)
            if number == reference:
                at_reference = sampler.take(f"reply {reference}")
                marks.append((f"reply {reference}", at_reference["seconds"]))
            if number % 50 == 0 or number == count:
                s = sampler.samples[-1]
                print(f"# reply {number}/{count} at {(time.monotonic() - began) / 60:.1f} min: RSS {s['rss_mb']:.1f} MB, "
                      f"{s['fds']} fds, {s['threads']} threads, {s['warnings']} warnings", file=sys.stderr, flush=True)
        last = sampler.take(f"reply {count}")
        marks.append((f"reply {count}", last["seconds"]))
        replies_minutes = (time.monotonic() - began) / 60
        sampler.phase = "idle"
        deadline = time.monotonic() + arguments.idle_minutes * 60
        while time.monotonic() < deadline:
            if agent.poll() is not None:
                raise RuntimeError(f"the app ended (status {agent.returncode}) while idle")
            time.sleep(min(1, max(0, deadline - time.monotonic())))
        sampler.stop()
        if sampler.error:
            raise RuntimeError(f"sampling failed: {sampler.error}")
        end = sampler.take("end")
        end_fds, end_threads = sampler.process.fd_targets(), sampler.process.thread_names()
        loaded = sorted(os.path.basename(path) for path in sampler.process.libraries() - idle_libraries)
        chats = (count + 9) // 10
        print(f"# agent pid {agent.pid}, home {home}", file=sys.stderr)
    finally:
        if agent is not None:
            agent.terminate()
            agent.wait()
        server.close()

    samples = sampler.samples
    write_csv(arguments.csv, samples)
    title = f"Soak: {count} replies in {chats} chats ({replies_minutes:.1f} min), then {arguments.idle_minutes:g} min idle"
    picture = plot(arguments.plot, samples, marks, title)
    print(f"# samples: {arguments.csv}; plot: {picture}", file=sys.stderr)

    during = [s for s in samples if s["phase"] == "replies"]
    peak = max(s["rss_mb"] for s in samples)
    growth = end["rss_mb"] - at_reference["rss_mb"]
    label = f"{count} replies in {chats} chats (a fifth with a code block, one in ten a tool call), then {arguments.idle_minutes:g} min idle"
    row(f"soak, {label}: resident memory growth from reply {reference} to the end",
        f"{growth:+.1f} MB ({at_reference['rss_mb']:.1f} → {end['rss_mb']:.1f} MB; {last['rss_mb']:.1f} at reply {count}, peak {peak:.1f})",
        f"idle before the first message: {idle['rss_mb']:.1f} MB", f"{end['rss_mb'] / idle['rss_mb']:.2f}× idle",
        "≤ +15 MB", "met" if growth <= 15 else "missed")
    for name, key in (("open file descriptors", "fds"), ("threads", "threads")):
        high = max(s[key] for s in during)
        # Opened by the first replies and kept (a pool, a handle made on first use) is not
        # growth; the verdict tells it from a count that keeps rising.
        verdict = "met" if end[key] <= idle[key] else \
            f"missed: {end[key] - at_reference[key]:+d} after reply {reference}" if end[key] > at_reference[key] else \
            f"missed: opened by reply {reference} and kept, not growing after it"
        row(f"soak: {name} at the end",
            f"{end[key]} (at most {high} during the replies; {at_reference[key]} at reply {reference}, {last[key]} at reply {count})",
            f"idle before the first message: {idle[key]}", f"{end[key] - idle[key]:+d}", "back to idle", verdict)
    for name, before, after in (("descriptors", idle_fds, end_fds), ("threads", idle_threads, end_threads)):
        print(f"# {name} at the end that were not there idle: {difference(after, before) or 'none'}; "
              f"gone: {difference(before, after) or 'none'}", file=sys.stderr)
    print(f"# libraries loaded after the idle window: {', '.join(loaded) or 'none'}", file=sys.stderr)
    warnings = sampler.process.warnings
    before = sum(1 for seconds, _ in warnings if seconds <= idle["seconds"])
    critical = sum(1 for _, line in warnings if "CRITICAL" in line)
    row("soak: CRITICAL / WARNING lines on the app's stderr (GLib's log: Gtk, GLib, Adwaita…)",
        f"{critical} CRITICAL, {len(warnings) - critical} WARNING ({before} of them before the first message)",
        "–", "–", "0", "met" if not warnings else "missed")
    seen = {}
    for _, line in warnings:
        key = re.sub(r"\d+", "N", line)
        seen[key] = seen.get(key, 0) + 1
    for key, times in sorted(seen.items(), key=lambda item: -item[1])[:10]:
        print(f"# {times}× {key}", file=sys.stderr)


if __name__ == "__main__":
    main()
