"""What the install tests share: the files an install holds, and launching Agent from its
menu entry (a Gio.DesktopAppInfo) and waiting for its window in the test's X server."""
import os
import subprocess
import sys
import time

APP_ID = "io.github.agentdesktop.Agent"

# What `make install` installs, relative to its PREFIX.
INSTALLED_FILES = ["bin/agent", "bin/agent-cli", "bin/agent-install-runtime",
                   f"share/applications/{APP_ID}.desktop", f"share/metainfo/{APP_ID}.metainfo.xml",
                   f"share/icons/hicolor/scalable/apps/{APP_ID}.svg", f"share/icons/hicolor/symbolic/apps/{APP_ID}-symbolic.svg",
                   f"share/icons/hicolor/48x48/apps/{APP_ID}.png", f"share/icons/hicolor/128x128/apps/{APP_ID}.png",
                   f"share/{APP_ID}/style.css", f"share/{APP_ID}/templates/gemma3-tools.jinja",
                   f"share/glib-2.0/schemas/{APP_ID}.gschema.xml",
                   f"share/gnome-shell/search-providers/{APP_ID}.search-provider.ini", f"share/dbus-1/services/{APP_ID}.service"]


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def windows_named(name):
    result = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", name], capture_output=True, text=True)
    return result.stdout.split()


def wait_for_new_window(before, process, what, timeout):
    """Waits until an "Agent" window not among `before` shows; fails when `process` (a Popen)
    ends first, or when none shows within `timeout` seconds (`what` names the run)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if set(windows_named("^Agent$")) - before:
            return
        if process.poll() is not None:
            fail(f"{what} ended (status {process.returncode}) before its window showed")
        time.sleep(0.2)
    fail(f"no Agent window appeared within {timeout} s for {what}")


def launch_from_menu(info, executable, timeout=30):
    """Launches the menu entry and waits for a new "Agent" window; returns the window and the
    pid of the running `executable`. Fails when no window appears or no such process runs."""
    before = set(windows_named("^Agent$"))
    if not info.launch([], None):
        fail("launching from the desktop file failed")
    deadline = time.monotonic() + timeout
    window = None
    while time.monotonic() < deadline and window is None:
        new = set(windows_named("^Agent$")) - before
        window = next(iter(new), None)
        time.sleep(0.2)
    if window is None:
        fail("no Agent window appeared after launching from the menu entry")
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.readlink(f"/proc/{entry}/exe") == executable:
                    return window, int(entry)
            except OSError:
                pass
    fail(f"the window is not {executable}'s")


def stop(pid, timeout=10):
    """Ends the launched app (SIGTERM) and waits until it has gone (reaped, if it is our child)."""
    os.kill(pid, 15)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return
        except ChildProcessError:
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                        return
            except OSError:
                return
        time.sleep(0.1)
    fail(f"the launched agent (pid {pid}) did not end after SIGTERM")
