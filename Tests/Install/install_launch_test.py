#!/usr/bin/env python3
"""Installs Agent into a temporary prefix with `make install`, finds it the way an
application menu does (GIO's desktop-file lookup over XDG_DATA_DIRS), launches it from its
desktop file, and waits for its window. Launched again under strace, from outside the
source tree, it must not touch a file of the tree it was built in: an installed Agent that
found a resource (a stylesheet, icons, a template) there would work here and fail once
the tree is gone. Then `make uninstall` removes every file.

Run inside an X server and a D-Bus session (scripts/test does):
    /usr/bin/python3 Tests/Install/install_launch_test.py
"""
import os
import re
import signal
import subprocess
import tempfile

import gi

from desktop_app import APP_ID, INSTALLED_FILES, fail, launch_from_menu, stop, wait_for_new_window, windows_named

gi.require_version("Gio", "2.0")
from gi.repository import Gio  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def source_tree_files_touched(executable, timeout=60):
    """Runs `executable` under strace (every call naming a file, in all its threads and
    children) from a folder outside the source tree until its window shows, ends it, and
    returns the paths under the source tree it named."""
    log = os.path.join(tempfile.mkdtemp(prefix="agent-strace-"), "files.log")
    before = set(windows_named("^Agent$"))
    elsewhere = tempfile.gettempdir()
    # PWD too: GLib takes it for the current folder once it checks it is the same folder.
    tracer = subprocess.Popen(["strace", "-f", "-qq", "-e", "trace=%file", "-o", log, executable], cwd=elsewhere,
                              env=dict(os.environ, PWD=elsewhere), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_new_window(before, tracer, "the installed agent run under strace", timeout)
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and os.readlink(f"/proc/{entry}/exe") == executable:
                os.kill(int(entry), signal.SIGTERM)
        except OSError:
            pass
    try:
        tracer.wait(timeout=20)
    except subprocess.TimeoutExpired:
        tracer.kill()
        fail("the agent run under strace did not end after SIGTERM")
    with open(log, errors="replace") as lines:
        named = {path for line in lines for path in re.findall(r'"([^"]*)"', line)}
    return sorted(path for path in named if path == ROOT or path.startswith(ROOT + "/"))


def main():
    prefix = tempfile.mkdtemp(prefix="agent-prefix-")
    subprocess.run(["make", "-C", ROOT, "install", f"PREFIX={prefix}"], check=True, stdout=subprocess.DEVNULL)
    for path in INSTALLED_FILES + ["share/glib-2.0/schemas/gschemas.compiled"]:
        if not os.path.exists(os.path.join(prefix, path)):
            fail(f"make install did not install {path}")
    desktop_file = os.path.join(prefix, "share/applications", f"{APP_ID}.desktop")
    subprocess.run(["desktop-file-validate", desktop_file], check=True)
    # D-Bus starts the installed binary as a service (the search provider's activation).
    with open(os.path.join(prefix, "share/dbus-1/services", f"{APP_ID}.service")) as service:
        if f"Exec={prefix}/bin/agent --gapplication-service" not in service.read():
            fail("the D-Bus service file does not start the installed agent")

    # What an application menu sees: desktop files under XDG_DATA_DIRS.
    os.environ["XDG_DATA_DIRS"] = f"{os.path.join(prefix, 'share')}:/usr/local/share:/usr/share"
    fresh = tempfile.mkdtemp(prefix="agent-install-home-")
    os.environ["XDG_DATA_HOME"] = os.path.join(fresh, "data")
    os.environ["XDG_CONFIG_HOME"] = os.path.join(fresh, "config")
    os.environ.setdefault("GSK_RENDERER", "cairo")
    # The settings, as `gsettings` shows them once the schema is installed.
    os.environ.pop("GSETTINGS_SCHEMA_DIR", None)
    listed = subprocess.run(["gsettings", "list-recursively", APP_ID], capture_output=True, text=True)
    if listed.returncode != 0 or f"{APP_ID} context-budget 4096" not in listed.stdout:
        fail(f"gsettings does not list Agent's settings: {listed.stdout}{listed.stderr}")
    info = Gio.DesktopAppInfo.new(f"{APP_ID}.desktop")
    if info is None:
        fail("the desktop file is not found through XDG_DATA_DIRS")
    if info.get_name() != "Agent" or not info.should_show():
        fail(f"the menu entry is {info.get_name()!r}, shown={info.should_show()}")
    if info.get_executable() != os.path.join(prefix, "bin/agent"):
        fail(f"the menu entry runs {info.get_executable()}, not the installed binary")

    window, launched = launch_from_menu(info, os.path.join(prefix, "bin/agent"))
    stop(launched)
    print(f"PASS: installed into {prefix}, found by the menu lookup, launched, window {window} (pid {launched})")
    touched = source_tree_files_touched(os.path.join(prefix, "bin/agent"))
    if touched:
        fail(f"the installed agent looked in the source tree it was built in: {touched[:20]}")
    print("PASS: the installed agent touched no file of the source tree")

    subprocess.run(["make", "-C", ROOT, "uninstall", f"PREFIX={prefix}"], check=True, stdout=subprocess.DEVNULL)
    left = [os.path.join(d, f) for d, _, files in os.walk(prefix) for f in files if not f.startswith("mimeinfo") and
            "icon-theme.cache" not in f]
    if left:
        fail(f"make uninstall left files behind: {left}")


if __name__ == "__main__":
    main()
