#!/usr/bin/env python3
"""End-to-end: the real `agent` binary, its own local llama-server, driven through the
accessibility tree the way a screen reader (or a user) sees it.

Run inside an X server and a D-Bus session (scripts/test does):
    /usr/bin/python3 Tests/EndToEnd/app_atspi_test.py .build/debug/agent [--screenshot PATH]
It launches the app without --server (so the app starts SmolLM2 itself), checks that its
window has the app's icon, finds the entry "Message", the button "Send" and the list
"Conversation" by their accessible names, sends two messages and waits for two replies from
the model, then quits the app with Ctrl+Q and checks that its llama-server went with it.
"""
import os
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

TIMEOUT = 90


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


APP = None


def wait_for(what, predicate, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if APP is not None and APP.poll() is not None and "exit" not in what:
            fail(f"the app exited (status {APP.returncode}) while waiting for {what}")
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    fail(f"timed out waiting for {what}")


def clean_exit(process, after=""):
    """Waits for the app to end once asked to quit (Ctrl+Q); fails unless it ends within 15 s
    with status 0. `after`: when, for the failure's message."""
    global APP
    APP = None
    try:
        status = process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        fail("Ctrl+Q did not quit the app")
    if status != 0:
        fail(f"the app exited with status {status}{after}")


def find_app(pid):
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is not None and app.get_process_id() == pid:
            return app
    return None


def descendants(node):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        try:
            count = current.get_child_count()
        except Exception:
            continue
        for i in reversed(range(count)):
            # A child may go while the tree is walked (a finished reply rendered anew).
            try:
                child = current.get_child_at_index(i)
            except Exception:
                continue
            if child is not None:
                stack.append(child)


def named(root, name, roles):
    for node in descendants(root):
        try:
            if node.get_name() == name and node.get_role() in roles:
                return node
        except Exception:
            continue
    return None


def label_texts(root):
    texts = []
    for node in descendants(root):
        try:
            if node.get_role() == Atspi.Role.LABEL:
                texts.append(node.get_name())
        except Exception:
            continue
    return texts


def window_icon(pid):
    """Whether the app's X window carries an icon for the window manager (_NET_WM_ICON): GTK
    sets none when the icon theme has no icon of the app's name."""
    windows = subprocess.run(["xdotool", "search", "--pid", str(pid), "--name", "Agent"],
                             capture_output=True, text=True).stdout.split()
    return any("Icon (" in subprocess.run(["xprop", "-id", window, "_NET_WM_ICON"], capture_output=True, text=True).stdout
               for window in windows)


def llama_children(pid):
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/comm") as f:
                name = f.read().strip()
        except OSError:
            continue
        if name.startswith("llama-server") and int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry))
    return found


def main():
    binary = sys.argv[1]
    screenshot = sys.argv[sys.argv.index("--screenshot") + 1] if "--screenshot" in sys.argv else None
    # A fresh user (private data and settings), using the installed local model runtime.
    data_home = os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share"))
    runtime = os.environ.get("AGENT_RUNTIME_DIR", os.path.join(data_home, "io.github.agentdesktop.Agent", "runtime"))
    fresh = tempfile.mkdtemp(prefix="agent-e2e-")
    env = dict(os.environ, GSK_RENDERER=os.environ.get("GSK_RENDERER", "cairo"), AGENT_RUNTIME_DIR=runtime,
               XDG_DATA_HOME=os.path.join(fresh, "data"), XDG_CONFIG_HOME=os.path.join(fresh, "config"))
    global APP
    app_process = subprocess.Popen([binary], env=env)
    APP = app_process
    try:
        app = wait_for("the app on the accessibility bus", lambda: find_app(app_process.pid))
        frame = wait_for("the window", lambda: named(app, "Agent", [Atspi.Role.FRAME, Atspi.Role.WINDOW]))
        # Run from the build tree, it finds its icon where `make icons` put it.
        wait_for("the window's icon", lambda: window_icon(app_process.pid))
        entry = wait_for("the entry 'Message'", lambda: named(frame, "Message", [Atspi.Role.TEXT, Atspi.Role.ENTRY, Atspi.Role.PASSWORD_TEXT]))
        send = wait_for("the button 'Send'", lambda: named(frame, "Send", [Atspi.Role.PUSH_BUTTON, Atspi.Role.TOGGLE_BUTTON]))
        conversation = wait_for("the list 'Conversation'", lambda: named(frame, "Conversation", [Atspi.Role.LIST]))
        wait_for("the local model to be ready",
                 lambda: any("SmolLM2-135M-Instruct · on this computer" == t for t in label_texts(frame)))

        prompts = ["Hello! Who are you?", "Name one color of the sky."]
        for turn, prompt in enumerate(prompts, start=1):
            Atspi.EditableText.set_text_contents(entry, prompt)
            wait_for("Send to be enabled", lambda: send.get_state_set().contains(Atspi.StateType.SENSITIVE))
            Atspi.Action.do_action(send, 0)
            wait_for(f"reply {turn} to finish", lambda: turn_finished(frame, conversation, turn), timeout=TIMEOUT)

        texts = label_texts(conversation)
        for prompt in prompts:
            if prompt not in texts:
                fail(f"the user's message {prompt!r} is not in the conversation: {texts}")
        copy = named(conversation, "Copy", [Atspi.Role.PUSH_BUTTON, Atspi.Role.TOGGLE_BUTTON])
        if copy is None:
            fail("no reply has a button named 'Copy'")
        authors = [t for t in texts if t == "Reply from SmolLM2-135M-Instruct"]
        if len(authors) != 2:
            fail(f"expected two replies from SmolLM2, labels are {texts}")
        print("replies:", [t for t in texts if t not in prompts and not is_reply_heading(t) and ":" not in t][:6])
        if screenshot:
            time.sleep(0.5)
            window = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Agent$"], capture_output=True,
                                    text=True).stdout.split()
            subprocess.run(["import", "-window", window[0] if window else "root", screenshot], check=True)

        servers = llama_children(app_process.pid)
        if len(servers) != 1:
            fail(f"expected the app's own llama-server, found {servers}")
        subprocess.run(["xdotool", "key", "--clearmodifiers", "ctrl+q"], check=True)
        clean_exit(app_process)
        wait_for("llama-server to stop with the app", lambda: all(not os.path.exists(f"/proc/{p}") or zombie(p)
                                                                   for p in servers), timeout=10)
        print("PASS: app end to end through AT-SPI with the local model")
    finally:
        if app_process.poll() is None:
            app_process.kill()


def zombie(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def turn_finished(frame, conversation, turn):
    stop = named(frame, "Stop", [Atspi.Role.PUSH_BUTTON, Atspi.Role.TOGGLE_BUTTON])
    streaming = stop is not None and stop.get_state_set().contains(Atspi.StateType.VISIBLE)
    authors = [t for t in label_texts(conversation) if is_reply_heading(t)]
    return not streaming and len(authors) >= turn


def is_reply_heading(text):
    """A reply's heading as a screen reader names it: "Reply from <model>", or "Reply"."""
    return text == "Reply" or text.startswith("Reply from ")


if __name__ == "__main__":
    main()
