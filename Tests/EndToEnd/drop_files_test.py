#!/usr/bin/env python3
"""End-to-end: files dragged from another app and dropped on the real `agent` window, as a
person drags them — a GTK 4 drag source (Tests/Servers/drag_source.py) and the mouse moved
through the X server with xdotool. The chips are read back through the accessibility tree
("Remove NAME" buttons), the message is sent, and the test model server's record shows the
files' text in the request.

It runs as its own process, apart from the window tests: a drag and drop over XDND leaves
GDK's focus tracking in the process that received it unlike a fresh start (later dialogs do
not hand the focus back), which would leak into the tests after it.

Run inside an X server and a D-Bus session (scripts/test does):
    /usr/bin/python3 Tests/EndToEnd/drop_files_test.py .build/debug/agent
"""
import json
import os
import subprocess
import sys
import tempfile
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import app_atspi_test as e2e  # noqa: E402
from app_atspi_test import Atspi, fail, named, wait_for  # noqa: E402

SERVERS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Servers")


def xdotool(*arguments):
    return subprocess.run(["xdotool", *arguments], capture_output=True, text=True, check=True).stdout


def main():
    binary = sys.argv[1]
    folder = tempfile.mkdtemp(prefix="agent-drop-")
    files = {"first.txt": "The first file says hello.\n", "second.log": "error: the second file failed\n"}
    for name, text in files.items():
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
    server = subprocess.Popen(["/usr/bin/python3", os.path.join(SERVERS, "openai_test_server.py")], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = int(server.stdout.readline().split()[1])
    fresh = tempfile.mkdtemp(prefix="agent-e2e-drop-")
    env = dict(os.environ, GSK_RENDERER=os.environ.get("GSK_RENDERER", "cairo"),
               XDG_DATA_HOME=os.path.join(fresh, "data"), XDG_CONFIG_HOME=os.path.join(fresh, "config"))
    app_process = subprocess.Popen([binary, "--server", f"http://127.0.0.1:{port}/s/echo/dropped", "--model", "test-model"], env=env)
    e2e.APP = app_process
    source = None
    try:
        app = wait_for("the app on the accessibility bus", lambda: e2e.find_app(app_process.pid))
        frame = wait_for("the window", lambda: named(app, "Agent", [Atspi.Role.FRAME, Atspi.Role.WINDOW]))
        window = wait_for("its X window", lambda: xdotool("search", "--onlyvisible", "--name", "^Agent$").split())[-1]
        xdotool("windowsize", "--sync", window, "900", "650")
        source = subprocess.Popen(["/usr/bin/python3", os.path.join(SERVERS, "drag_source.py"), "Agent drop source",
                                   *[os.path.join(folder, name) for name in files]], stdout=subprocess.PIPE, text=True)
        source.stdout.readline()
        source_window = xdotool("search", "--sync", "--name", "^Agent drop source$").split()[0]
        xdotool("windowmove", "--sync", source_window, "950", "100")
        # Press on the source, past GTK's drag threshold in steps, release over the chat.
        path = ["mousemove", "--sync", "1060", "160", "mousedown", "1"]
        for step in range(1, 13):
            path += ["mousemove", "--sync", str(1060 - (1060 - 500) * step // 12), str(160 + (350 - 160) * step // 12), "sleep", "0.05"]
        xdotool(*path, "sleep", "0.2", "mouseup", "1")
        for name in files:
            wait_for(f"the chip of {name}", lambda: named(frame, f"Remove {name}", [Atspi.Role.PUSH_BUTTON]), timeout=20)

        entry = wait_for("the entry", lambda: named(frame, "Message", [Atspi.Role.TEXT, Atspi.Role.ENTRY]))
        send = wait_for("Send", lambda: named(frame, "Send", [Atspi.Role.PUSH_BUTTON]))
        Atspi.EditableText.set_text_contents(entry, "What do these say?")
        wait_for("Send to be enabled", lambda: send.get_state_set().contains(Atspi.StateType.SENSITIVE))
        Atspi.Action.do_action(send, 0)
        conversation = wait_for("the conversation", lambda: named(frame, "Conversation", [Atspi.Role.LIST]))
        wait_for("the reply", lambda: e2e.turn_finished(frame, conversation, 1), timeout=30)
        requests = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/_requests"))
        sent = [r for r in requests if "dropped" in r["path"]][-1]["body"]["messages"][-1]["content"]
        for name, text in files.items():
            if f"File: {name}\n```\n{text}```" not in sent:
                fail(f"{name} is not in the request as sent: {sent!r}")
        source.kill()
        xdotool("windowfocus", "--sync", window, "key", "--clearmodifiers", "ctrl+q")
        e2e.APP = None
        app_process.wait(timeout=15)
        print("PASS: files dropped from another app, sent with the message")
    finally:
        for process in (source, app_process, server):
            if process is not None and process.poll() is None:
                process.kill()


if __name__ == "__main__":
    main()
