#!/usr/bin/env python3
"""A fresh clone's first `scripts/run`: how long until the window is on screen, until the
local model's set-up has started behind it (and, with --wait-setup, finished), and until the
release build made behind the first window is done.

The repository (default: this one) is cloned into a temporary folder (no .build), the
runtime folder is empty (AGENT_RUNTIME_DIR) and the data, config and cache folders are new;
scripts/run then runs in an Xvfb of its own on a private D-Bus session. The clock starts at
scripts/run; the clone is timed apart. The window counts when X maps it (xdotool search
--sync); the set-up has started when the install script has created the runtime's Python
environment. pip's cache is the user's unless --no-pip-cache (then llama.cpp is compiled,
about 7 minutes on 2 cores).

    bench/first_run.py [--repo PATH] [--wait-setup] [--no-pip-cache] [--keep]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def wait_for(what, condition, timeout):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            sys.exit(f"first_run: no {what} within {timeout:.0f} s")
        time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", default=ROOT)
    parser.add_argument("--wait-setup", action="store_true", help="also time the set-up until the manifest is written")
    parser.add_argument("--no-pip-cache", action="store_true", help="an empty pip cache: llama.cpp is compiled")
    parser.add_argument("--keep", action="store_true", help="keep the clone and its build")
    arguments = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="agent-first-run-")
    clone = os.path.join(folder, "agent")
    runtime = os.path.join(folder, "runtime")
    started = time.monotonic()
    subprocess.run(["git", "clone", "--quiet", arguments.repo, clone], check=True)
    cloned = time.monotonic() - started

    xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    display = ":" + xvfb.stdout.readline().strip()
    env = dict(os.environ, DISPLAY=display, GSK_RENDERER="cairo", AGENT_RUNTIME_DIR=runtime,
               XDG_DATA_HOME=os.path.join(folder, "data"), XDG_CONFIG_HOME=os.path.join(folder, "config"),
               XDG_CACHE_HOME=os.path.join(folder, "cache"), XDG_STATE_HOME=os.path.join(folder, "state"),
               GSETTINGS_BACKEND="keyfile")
    env.pop("AGENT_INSTALL_RUNTIME_SCRIPT", None)
    if arguments.no_pip_cache:
        env["PIP_CACHE_DIR"] = os.path.join(folder, "pip-cache")
    log = open(os.path.join(folder, "run.log"), "w")
    start = time.monotonic()
    run = subprocess.Popen(["dbus-run-session", "--", "scripts/run"], cwd=clone, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        window = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "^Agent$"], env=env,
                                capture_output=True, text=True, check=True).stdout.split()[0]
        to_window = time.monotonic() - start
        wait_for("set-up start", lambda: os.path.isdir(os.path.join(runtime, "venv")), 60)
        to_setup = time.monotonic() - start
        print(f"clone: {cloned:.1f} s")
        print(f"scripts/run → window mapped: {to_window:.1f} s")
        print(f"scripts/run → set-up started behind it: {to_setup:.1f} s")
        if arguments.wait_setup:
            wait_for("manifest", lambda: os.path.isfile(os.path.join(runtime, "manifest.json")), 30 * 60)
            print(f"scripts/run → set-up finished: {time.monotonic() - start:.1f} s")
        # The first run's window is the debug build's; the release build follows behind it.
        wait_for("release build", lambda: os.path.isfile(os.path.join(clone, ".build", "release", "agent")), 30 * 60)
        print(f"scripts/run → release build finished behind it: {time.monotonic() - start:.1f} s")
        subprocess.run(["xdotool", "key", "--window", window, "--clearmodifiers", "ctrl+q"], env=env, check=False)
        run.wait(timeout=30)
    finally:
        if run.poll() is None:
            run.terminate()
            run.wait()
        xvfb.terminate()
        xvfb.wait()
        log.close()
        if arguments.keep:
            print("kept", folder)
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
