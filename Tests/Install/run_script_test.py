#!/usr/bin/env python3
"""`scripts/run`, the README's first command, in a clean clone of this repository's HEAD
(no build folder, as a newcomer has it):

1. The first run installs what is missing (nothing, here), builds the debug app and starts
   it: its window shows and the program running is `.build/debug/agent`. Behind it the
   release build runs at the lowest priority (nice 19), its output in
   `$XDG_CACHE_HOME/io.github.agentdesktop.Agent/release-build.log`.
2. Once that build is done, `scripts/run` starts the release build's app.

Options go through to the app: `--server http://127.0.0.1:9` keeps it from starting a model.

Run inside an X server and a D-Bus session (scripts/test does):
    /usr/bin/python3 Tests/Install/run_script_test.py
"""
import os
import shutil
import subprocess
import tempfile
import time

from desktop_app import APP_ID, fail, stop, wait_for_new_window, windows_named

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def release_builds(clone):
    """The pids of the release builds running in `clone` (swift-build with -c release)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                arguments = cmdline.read().split(b"\0")
            if any(argument.endswith(b"swift-build") for argument in arguments) and b"release" in arguments \
                    and os.readlink(f"/proc/{entry}/cwd") == os.path.realpath(clone):
                pids.append(int(entry))
        except OSError:
            pass
    return pids


def start(clone, environment, expected, timeout):
    """Runs `scripts/run --server …` in `clone` and waits for a new Agent window; the running
    program must be `expected` (scripts/run ends by exec-ing the app). Returns its pid."""
    before = set(windows_named("^Agent$"))
    process = subprocess.Popen([os.path.join(clone, "scripts", "run"), "--server", "http://127.0.0.1:9"], cwd=clone,
                               env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_new_window(before, process, "scripts/run", timeout)
    running = os.readlink(f"/proc/{process.pid}/exe")
    if running != os.path.realpath(expected):
        fail(f"scripts/run started {running}, not {expected}")
    return process.pid


def main():
    work = tempfile.mkdtemp(prefix="agent-run-script-")
    clone = os.path.join(work, "clone")
    subprocess.run(["git", "clone", "-q", ROOT, clone], check=True)
    head = subprocess.run(["git", "-C", clone, "log", "-1", "--format=%h %s"], capture_output=True, text=True).stdout.strip()
    print(f"== scripts/run in a clean clone of {head}", flush=True)
    environment = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"), XDG_DATA_HOME=os.path.join(work, "data"),
                       XDG_CONFIG_HOME=os.path.join(work, "config"), GSETTINGS_BACKEND="keyfile")
    log = os.path.join(work, "cache", APP_ID, "release-build.log")
    try:
        started = time.monotonic()
        pid = start(clone, environment, os.path.join(clone, ".build", "debug", "agent"), timeout=900)
        print(f"first run: the debug build's window after {time.monotonic() - started:.0f} s", flush=True)
        builds = release_builds(clone)
        if not builds:
            fail("no release build runs behind the first run's window")
        priorities = {os.getpriority(os.PRIO_PROCESS, build) for build in builds}
        if priorities != {19}:
            fail(f"the release build runs at nice {sorted(priorities)}, not 19")
        if not os.path.exists(log):
            fail(f"the release build does not log to {log}")
        stop(pid)

        deadline = time.monotonic() + 1800
        while release_builds(clone) and time.monotonic() < deadline:
            time.sleep(2)
        if release_builds(clone):
            fail("the release build behind the first run did not end within 30 minutes")
        with open(log, errors="replace") as output:
            text = output.read()
        if "Build of product 'agent' complete" not in text:
            fail(f"the release build behind the first run failed:\n{text[-2000:]}")
        print(f"the release build behind it done after {time.monotonic() - started:.0f} s", flush=True)

        pid = start(clone, environment, os.path.join(clone, ".build", "release", "agent"), timeout=300)
        print("second run: the release build's window", flush=True)
        stop(pid)
        print("PASS: scripts/run starts the debug build with the release build behind it, then the release build")
    finally:
        for build in release_builds(clone):
            os.kill(build, 9)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
