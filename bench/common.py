"""Shared helpers for the benchmarks: paths, the test server, statistics, table rows."""
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELEASE = os.path.join(ROOT, ".build", "release")
AGENT = os.path.join(RELEASE, "agent")
AGENT_CLI = os.path.join(RELEASE, "agent-cli")
MINIMAL = os.path.join(ROOT, ".build", "bench", "minimal-window")
MINIMAL_ADW = os.path.join(ROOT, ".build", "bench", "minimal-adw-window")


def median(values):
    return statistics.median(values)


def spread(values, unit="ms"):
    """A distribution in one cell: median, 90th percentile and max."""
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, (len(ordered) * 9) // 10)]
    return f"{statistics.median(ordered):.1f} / {p90:.1f} / {ordered[-1]:.1f} {unit}"


def row(measure, ours, reference, ratio, goal, verdict):
    print(f"| {measure} | {ours} | {reference} | {ratio} | {goal} | {verdict} |", flush=True)


class TestServer:
    """The scriptable server from Tests/Servers, for streams a real model cannot produce."""

    def __init__(self):
        script = os.path.join(ROOT, "Tests", "Servers", "openai_test_server.py")
        self.process = subprocess.Popen([sys.executable, script], stdout=subprocess.PIPE,
                                        stdin=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.port = int(self.process.stdout.readline().split()[1])  # PORT p TLSPORT q CAFILE f
        self.base = f"http://127.0.0.1:{self.port}"

    def url(self, scenario):
        return f"{self.base}/s/{scenario}"

    def events(self):
        with urllib.request.urlopen(self.base + "/_events") as response:
            return json.load(response)

    def close(self):
        self.process.kill()
        self.process.wait()


def runtime_manifest():
    data_home = os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share"))
    directory = os.environ.get("AGENT_RUNTIME_DIR", os.path.join(data_home, "io.github.agentdesktop.Agent", "runtime"))
    with open(os.path.join(directory, "manifest.json")) as f:
        return json.load(f)


class LlamaServer:
    """A real llama-server with SmolLM2, started the way the app starts it."""

    def __init__(self, port=18471):
        manifest = runtime_manifest()
        self.port = port
        self.process = subprocess.Popen(
            [manifest["llama_server"], "--host", "127.0.0.1", "--port", str(port),
             "--model", manifest["models"]["smollm2"], "--alias", "SmolLM2-135M-Instruct",
             "--ctx-size", "4096", "--parallel", "1", "--threads", "1", "--jinja", "--no-webui"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/health") as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("llama-server did not start")

    def close(self):
        self.process.terminate()
        self.process.wait()


def first_frame(command, env):
    """exec → first painted frame: (wall ms, CPU ms). The program prints CLOCK_MONOTONIC and
    its CPU time (all threads) at that frame; CPU time varies less on a busy machine."""
    start = time.monotonic_ns()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    line = process.stdout.readline().decode()
    process.wait()
    _, wall, cpu = line.split()
    return (int(wall) - start) / 1e6, int(cpu) / 1e6


def idle_rss_mb(command, env):
    """Resident memory 1.5 s after the first frame, in MB (the program stays open)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    process.stdout.readline()
    time.sleep(1.5)
    with open(f"/proc/{process.pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    process.kill()
    process.wait()
    return rss / 1024
